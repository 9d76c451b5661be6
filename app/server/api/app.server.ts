import { openApiContract } from "~/contracts/health";
import { Hono } from "hono";
import { AppError } from "~/domain/errors";
import { isDatabaseUnavailable } from "~/server/db/db.server";
import { log } from "~/server/log.server";
import { createAuthenticator } from "./authenticate.server";
import { bodyLimitOf, declaredTooLarge, tooLarge, type ApiEnv } from "./body.server";
import { openApiDocument } from "./openapi.server";
import { mount, type AnyRoute } from "./route.server";
import { auditRoutes } from "./routes/audit.server";
import { answerOptionRoutes } from "./routes/answer-options.server";
import { attachmentRoutes } from "./routes/attachments.server";
import { categoryRoutes } from "./routes/categories.server";
import { fhirRoutes } from "./routes/fhir.server";
import { erasureRoutes } from "./routes/erasures.server";
import { healthRoutes } from "./routes/health.server";
import { metricsRoutes } from "./routes/metrics.server";
import { patientAttributeRoutes } from "./routes/patient-attributes.server";
import { patientRoutes } from "./routes/patients.server";
import { handoverRoutes } from "./routes/handover.server";
import { handoverGate } from "./handover-gate.server";
import { patientLinkRoutes } from "./routes/patient-links.server";
import { createLinkAuthenticator, LINK_API_BASE, linkRoutes } from "./link-routes.server";
import { questionRoutes } from "./routes/questions.server";
import { responseRoutes } from "./routes/responses.server";
import { dashboardRoutes } from "./routes/dashboards.server";
import { statisticsRoutes } from "./routes/statistics.server";
import { surveyRoutes } from "./routes/surveys.server";
import { syncRoutes } from "./routes/sync.server";
import { translationRoutes } from "./routes/translations.server";
import { userRoutes } from "./routes/users.server";
import type { ApiDeps } from "./types.server";
import { routeTemplates, type PageRoute } from "~/server/route-templates.server";

export const apiRoutes: AnyRoute[] = [
  ...healthRoutes,
  ...metricsRoutes,
  ...userRoutes,
  ...surveyRoutes,
  ...translationRoutes,
  ...categoryRoutes,
  ...questionRoutes,
  ...answerOptionRoutes,
  ...patientAttributeRoutes,
  ...patientRoutes,
  ...patientLinkRoutes,
  ...handoverRoutes,
  ...responseRoutes,
  ...attachmentRoutes,
  ...syncRoutes,
  ...statisticsRoutes,
  ...fhirRoutes,
  ...dashboardRoutes,
  ...auditRoutes,
  ...erasureRoutes,
];

/** The route template of each request's path (for metrics): the API's endpoints and the given pages. */
export function requestRoutes(pages: Record<string, PageRoute | undefined>, assetsPrefix: string) {
  return routeTemplates({ apiPaths: apiRoutes.map((r) => r.path), pages, assetsPrefix });
}

export function createApi(deps: ApiDeps) {
  const root = new Hono<{ Bindings: ApiEnv }>();
  // Set before the base paths are made: each keeps the handlers its maker had then.
  root.notFound((c) => c.json(new AppError("NOT_FOUND", "No such endpoint").toEnvelope(), 404));
  root.onError((err, c) => {
    if (err instanceof AppError) {
      return c.json(err.toEnvelope(), err.status as 400);
    }
    if (isDatabaseUnavailable(err)) {
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
  // The staff's API under /api; a patient's link reaches its case's answer endpoints under /l/api (decision 057).
  const app = root.basePath("/api");
  const link = root.basePath(LINK_API_BASE);

  for (const base of [app, link]) {
    base.use("*", async (c, next) => {
      c.header("Cache-Control", "no-store");
      // A declared length over the limit is refused before anything is read; bodies read later keep to the
      // same limit as they are read (body.server.ts).
      const limit = bodyLimitOf(c.req.path);
      if (declaredTooLarge(c.req.raw, limit)) {
        return c.json(tooLarge(limit).toEnvelope(), 413);
      }
      await next();
    });
  }

  app.get(openApiContract.path, (c) => c.json(openApiDocument(apiRoutes, `${deps.env.publicUrl}/api`)));
  mount(app, deps, handoverGate(apiRoutes), createAuthenticator(deps));
  const linkCaller = createLinkAuthenticator(deps);
  mount(link, deps, linkRoutes(apiRoutes), (c) => linkCaller(c));
  return root;
}

export type Api = ReturnType<typeof createApi>;
