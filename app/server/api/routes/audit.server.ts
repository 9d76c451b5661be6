import { auditApi } from "~/contracts/audit";
import { sanitiseFileName } from "~/domain/statistics-rules";
import { contentDisposition } from "~/server/services/fill/attachment-links.server";
import { auditCsv, auditOf } from "~/server/services/audit-export.server";
import { auditReading, caseHistoryOf, surveyTrailOf } from "~/server/services/audit-reading.server";
import { auditVerdictOf } from "~/server/services/audit-verify.server";
import { erasureKey } from "~/server/services/erasure/keys.server";
import type { DB } from "~/server/db/types.server";
import type { SurveyCaller } from "~/server/services/surveys.server";
import { route, type AnyRoute } from "../route.server";
import { surveyCaller } from "../schemas.server";

/** An export of the audit log holds answer values: it is logged as reading (decision 028). */
function logExport(db: DB, who: SurveyCaller, asked: { surveyId: number; patientId?: string }, format: "json" | "csv") {
  return auditReading(db, who, {
    action: "audit.export",
    surveyId: asked.surveyId,
    after: { PatientId: asked.patientId ?? null, Format: format },
  });
}

/** The audit log of a survey or of a case, for the survey's approvers (docs/decisions/014-audit-log.md). */
export const auditRoutes: AnyRoute[] = [
  route(auditApi.log, async ({ deps, caller, query }) => {
    const who = surveyCaller(caller);
    const entries = await auditOf(deps.db, who, query.surveyId, query.patientId);
    await logExport(deps.db, who, query, "json");
    return entries;
  }),
  route(auditApi.csv, async ({ deps, caller, query }) => {
    const who = surveyCaller(caller);
    const entries = await auditOf(deps.db, who, query.surveyId, query.patientId);
    await logExport(deps.db, who, query, "csv");
    const name = sanitiseFileName(`audit-${query.surveyId}${query.patientId ? `-${query.patientId}` : ""}`, "audit");
    return new Response(auditCsv(entries, who.culture), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": contentDisposition(`${name}.csv`),
        "Cache-Control": "no-store",
      },
    });
  }),
  route(auditApi.verify, ({ deps, caller, query }) => auditVerdictOf(deps.db, surveyCaller(caller), query.surveyId)),
  route(auditApi.caseHistory, ({ deps, caller, query }) =>
    caseHistoryOf(
      deps.db,
      surveyCaller(caller),
      query.surveyId,
      query.patientId,
      "case.history.view",
      erasureKey(deps.env),
    ),
  ),
  route(auditApi.trail, ({ deps, caller, query }) =>
    surveyTrailOf(deps.db, surveyCaller(caller), query.surveyId, query),
  ),
];
