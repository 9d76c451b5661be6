import { z } from "~/domain/zod";
import { contract } from "./contract";

const ReadinessSchema = z.object({
  Status: z.enum(["Ready", "NotReady"]),
  Draining: z.boolean(),
  Database: z.boolean(),
  AttachmentStore: z.boolean(),
});

export const healthApi = {
  health: contract({
    method: "get",
    path: "/health",
    tag: "Health",
    summary:
      "Whether the server can answer: the process runs and the database is reachable (the pages' health " +
      "poll). 503 SERVICE_UNAVAILABLE when the database is not",
    public: true,
    response: z.object({ Status: z.literal("Healthy") }),
    errors: ["SERVICE_UNAVAILABLE"],
  }),
  live: contract({
    method: "get",
    path: "/health/live",
    tag: "Health",
    summary: "Liveness: the process runs and answers. Restart the copy only when this fails",
    public: true,
    response: z.object({ Status: z.literal("Alive") }),
  }),
  ready: contract({
    method: "get",
    path: "/health/ready",
    tag: "Health",
    summary:
      "Readiness: whether this copy should get new requests. 503 with the same body while it drains after " +
      "SIGTERM, or while the database or the attachment store cannot be used",
    public: true,
    response: ReadinessSchema,
  }),
};

/** The OpenAPI document of every endpoint above and in the other contracts (it does not list itself). */
export const openApiContract = contract({
  method: "get",
  path: "/openapi.json",
  tag: "Health",
  summary: "The OpenAPI 3.1 document of the API",
  public: true,
  response: z.object({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }).loose(),
});
