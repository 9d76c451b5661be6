import { z } from "~/domain/zod";
import {
  AuditEntrySchema,
  AuditVerdictSchema,
  CaseHistorySchema,
  SurveyTrailSchema,
  TrailFilterSchema,
} from "~/domain/audit-reading";
import { idParam } from "./params";
import { contract } from "./contract";

const tag = "Audit";

const query = z.object({
  surveyId: idParam,
  patientId: z.string().min(1).max(200).optional(),
});

export const auditApi = {
  log: contract({
    method: "get",
    path: "/audit-log",
    errors: ["SURVEY_NOT_FOUND"],
    tag,
    summary: "The audit log of a survey, or with patientId of that patient id's cases in it; oldest first",
    query,
    response: z.array(AuditEntrySchema),
  }),
  csv: contract({
    method: "get",
    path: "/audit-log/csv",
    errors: ["SURVEY_NOT_FOUND"],
    tag,
    summary: "The same audit log as CSV (formula-like cells neutralised)",
    query,
  }),
  verify: contract({
    method: "get",
    path: "/audit-log/verify",
    errors: ["SURVEY_NOT_FOUND"],
    tag,
    summary:
      "Checks the survey's audit chain (docs/decisions/027-audit-chain.md): Ok, the rows walked, and the first bad row with how the chain breaks there",
    query: z.object({ surveyId: idParam }),
    response: AuditVerdictSchema,
  }),
  caseHistory: contract({
    method: "get",
    path: "/audit-log/case-history",
    errors: ["SURVEY_NOT_FOUND", "SURVEY_PATIENTID_NOT_FOUND", "CASE_ALREADY_ERASED"],
    tag,
    summary:
      "A case's answer history per question: every value, who set it, when, online or by sync; reading it is logged (case.history.view); 409 CASE_ALREADY_ERASED (with ErasedAt and Reason) for a patient id whose case was erased",
    query: z.object({ surveyId: idParam, patientId: z.string().min(1).max(200) }),
    response: CaseHistorySchema,
  }),
  trail: contract({
    method: "get",
    path: "/audit-log/trail",
    errors: ["SURVEY_NOT_FOUND"],
    tag,
    summary:
      "The survey's changes outside its cases (structure, status, rights, exports), newest first, by person, action and days",
    query: TrailFilterSchema.extend({ surveyId: idParam }),
    response: SurveyTrailSchema,
  }),
};
