import { z } from "zod";
import { sanitiseFileName } from "~/domain/statistics-rules";
import { contentDisposition } from "~/server/services/fill/attachment-links.server";
import { AuditEntrySchema, auditCsv, auditOf } from "~/server/services/audit-export.server";
import { CaseHistorySchema, SurveyTrailSchema, TrailFilterSchema } from "~/domain/audit-reading";
import { auditReading, caseHistoryOf, surveyTrailOf } from "~/server/services/audit-reading.server";
import { AuditVerdictSchema, auditVerdictOf } from "~/server/services/audit-verify.server";
import type { DB } from "~/server/db/types.server";
import type { SurveyCaller } from "~/server/services/surveys.server";
import { route, type AnyRoute } from "../route.server";
import { idParam, surveyCaller } from "../schemas.server";

const query = z.object({
  surveyId: idParam,
  patientId: z.string().min(1).max(200).optional(),
});

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
  route({
    method: "get",
    path: "/audit-log",
    errors: ["SURVEY_NOT_FOUND"],
    tag: "Audit",
    summary: "The audit log of a survey, or with patientId of that patient id's cases in it; oldest first",
    query,
    response: z.array(AuditEntrySchema),
    handler: async ({ deps, caller, query }) => {
      const who = surveyCaller(caller);
      const entries = await auditOf(deps.db, who, query.surveyId, query.patientId);
      await logExport(deps.db, who, query, "json");
      return entries;
    },
  }),
  route({
    method: "get",
    path: "/audit-log/csv",
    errors: ["SURVEY_NOT_FOUND"],
    tag: "Audit",
    summary: "The same audit log as CSV (formula-like cells neutralised)",
    query,
    handler: async ({ deps, caller, query }) => {
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
    },
  }),
  route({
    method: "get",
    path: "/audit-log/verify",
    errors: ["SURVEY_NOT_FOUND"],
    tag: "Audit",
    summary:
      "Checks the survey's audit chain (docs/decisions/027-audit-chain.md): Ok, the rows walked, and the first bad row with how the chain breaks there",
    query: z.object({ surveyId: idParam }),
    response: AuditVerdictSchema,
    handler: ({ deps, caller, query }) => auditVerdictOf(deps.db, surveyCaller(caller), query.surveyId),
  }),
  route({
    method: "get",
    path: "/audit-log/case-history",
    errors: ["SURVEY_NOT_FOUND", "SURVEY_PATIENTID_NOT_FOUND"],
    tag: "Audit",
    summary:
      "A case's answer history per question: every value, who set it, when, online or by sync; reading it is logged (case.history.view)",
    query: z.object({ surveyId: idParam, patientId: z.string().min(1).max(200) }),
    response: CaseHistorySchema,
    handler: ({ deps, caller, query }) => caseHistoryOf(deps.db, surveyCaller(caller), query.surveyId, query.patientId),
  }),
  route({
    method: "get",
    path: "/audit-log/trail",
    errors: ["SURVEY_NOT_FOUND"],
    tag: "Audit",
    summary:
      "The survey's changes outside its cases (structure, status, rights, exports), newest first, by person, action and days",
    query: TrailFilterSchema.extend({ surveyId: idParam }),
    response: SurveyTrailSchema,
    handler: ({ deps, caller, query }) => surveyTrailOf(deps.db, surveyCaller(caller), query.surveyId, query),
  }),
];
