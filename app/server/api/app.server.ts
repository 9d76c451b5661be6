import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { AppError } from "~/domain/errors";
import { log } from "~/server/log.server";
import { createAuthenticator } from "./authenticate.server";
import { openApiDocument } from "./openapi.server";
import { mount, type AnyRoute } from "./route.server";
import { answerOptionRoutes } from "./routes/answer-options.server";
import { attachmentRoutes } from "./routes/attachments.server";
import { categoryRoutes } from "./routes/categories.server";
import { healthRoutes } from "./routes/health.server";
import { patientAttributeRoutes } from "./routes/patient-attributes.server";
import { patientRoutes } from "./routes/patients.server";
import { questionRoutes } from "./routes/questions.server";
import { responseRoutes } from "./routes/responses.server";
import { surveyRoutes } from "./routes/surveys.server";
import { syncRoutes } from "./routes/sync.server";
import { userRoutes } from "./routes/users.server";
import type { ApiDeps } from "./types.server";

export const apiRoutes: AnyRoute[] = [
  ...healthRoutes,
  ...userRoutes,
  ...surveyRoutes,
  ...categoryRoutes,
  ...questionRoutes,
  ...answerOptionRoutes,
  ...patientAttributeRoutes,
  ...patientRoutes,
  ...responseRoutes,
  ...attachmentRoutes,
  ...syncRoutes,
];

/** Bodies above this are refused before they are read; uploads have their own, larger limit. */
const JSON_BODY_LIMIT = 1_000_000;
/** Questions and answer options may carry an image (up to 2 MB, as a base64 data URL). */
const IMAGE_BODY_LIMIT = 3_000_000;

export function createApi(deps: ApiDeps) {
  const app = new Hono().basePath("/api");

  app.use("*", async (c, next) => {
    c.header("Cache-Control", "no-store");
    await next();
  });
  const tooLarge = (c: Context) =>
    c.json(new AppError("PAYLOAD_TOO_LARGE", "The request body is too large").toEnvelope(), 413);
  const imageLimit = bodyLimit({ maxSize: IMAGE_BODY_LIMIT, onError: tooLarge });
  const jsonLimit = bodyLimit({ maxSize: JSON_BODY_LIMIT, onError: tooLarge });
  app.use("*", (c, next) => {
    // Uploads read their body themselves, under their own limit (routes/attachments.server.ts).
    if (c.req.path === "/api/file-attachments/upload") return next();
    return /^\/api\/(questions|answer-options)(\/|$)/.test(c.req.path) ? imageLimit(c, next) : jsonLimit(c, next);
  });

  app.get("/openapi.json", (c) => c.json(openApiDocument(apiRoutes, `${deps.env.publicUrl}/api`)));
  mount(app, deps, apiRoutes, createAuthenticator(deps));

  app.notFound((c) => c.json(new AppError("NOT_FOUND", "No such endpoint").toEnvelope(), 404));
  app.onError((err, c) => {
    if (err instanceof AppError) {
      return c.json(err.toEnvelope(), err.status as 400);
    }
    if (isDatabaseDown(err)) {
      return c.json(new AppError("SERVICE_UNAVAILABLE", "The database is not reachable").toEnvelope(), 503);
    }
    log.error("api.unhandled", {
      path: c.req.path,
      method: c.req.method,
      error: String(err),
      stack: (err as Error).stack,
    });
    return c.json(new AppError("INTERNAL_ERROR", "Unexpected error").toEnvelope(), 500);
  });
  return app;
}

export type Api = ReturnType<typeof createApi>;

function isDatabaseDown(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return (
    code === "ECONNREFUSED" ||
    code === "57P01" ||
    code === "57P03" ||
    code === "08006" ||
    code === "08001" ||
    code === "SQLITE_BUSY" ||
    code === "SQLITE_CANTOPEN"
  );
}
