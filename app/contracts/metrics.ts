import { contract } from "./contract";

export const metricsApi = {
  metrics: contract({
    method: "get",
    path: "/metrics",
    tag: "Health",
    summary:
      "This copy's metrics in Prometheus's text format (docs/operations.md, \"Metrics\"), for a scraper that sends " +
      "METRICS_TOKEN as a bearer token. 404 NOT_FOUND while METRICS_TOKEN is unset; 401 UNAUTHORIZED without the token",
    public: true,
    errors: ["NOT_FOUND", "UNAUTHORIZED"],
  }),
};
