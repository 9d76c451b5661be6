import { metricsApi } from "~/contracts/metrics";
import crypto from "node:crypto";
import { AppError } from "~/domain/errors";
import { metrics } from "~/server/metrics.server";
import { route } from "../route.server";

/** The same length for any two tokens compared, so that the comparison takes the same time. */
const digest = (value: string) => crypto.createHash("sha256").update(value).digest();

export const metricsRoutes = [
  route(metricsApi.metrics, async ({ deps, c }) => {
    const wanted = deps.env.METRICS_TOKEN;
    if (!wanted) throw new AppError("NOT_FOUND", "Metrics are off: set METRICS_TOKEN to turn them on");
    const given = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1] ?? "";
    if (!crypto.timingSafeEqual(digest(given), digest(wanted))) {
      throw new AppError("UNAUTHORIZED", "The metrics token is missing or wrong");
    }
    return new Response(await metrics.metrics(), {
      headers: { "Content-Type": metrics.contentType, "Cache-Control": "no-store" },
    });
  }),
];
