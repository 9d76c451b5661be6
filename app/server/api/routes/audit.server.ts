import { z } from "zod";
import { sanitiseFileName } from "~/domain/statistics-rules";
import { contentDisposition } from "~/server/services/fill/attachment-links.server";
import { AuditEntrySchema, auditCsv, auditOf } from "~/server/services/audit-export.server";
import { AuditVerdictSchema, auditVerdictOf } from "~/server/services/audit-verify.server";
import { route, type AnyRoute } from "../route.server";
import { idParam, surveyCaller } from "../schemas.server";

const query = z.object({
  surveyId: idParam,
  patientId: z.string().min(1).max(200).optional(),
});

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
    handler: ({ deps, caller, query }) => auditOf(deps.db, surveyCaller(caller), query.surveyId, query.patientId),
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
];
