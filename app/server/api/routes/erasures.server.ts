import { z } from "zod";
import { PatientIdSchema } from "~/domain/fill-requests";
import { ErasurePreviewSchema, ErasureRequestSchema, ErasureResultSchema } from "~/domain/erasure";
import { erasurePreview, eraseOnRequest } from "~/server/services/erasure/erasure-requests.server";
import { erasureKey } from "~/server/services/erasure/keys.server";
import { PatientDataSchema } from "~/domain/patient-data";
import { patientDataOf } from "~/server/services/erasure/patient-data.server";
import { route, type AnyRoute } from "../route.server";
import { idParam, surveyCaller } from "../schemas.server";

const tag = "Data protection";
const errors = ["SURVEY_NOT_FOUND", "SURVEY_PATIENTID_NOT_FOUND", "CASE_ALREADY_ERASED"] as const;

/** Erasing a patient id's case, for the survey's approvers (docs/decisions/042-retention-and-erasure.md). */
export const erasureRoutes: AnyRoute[] = [
  route({
    method: "get",
    path: "/erasures/preview",
    errors: [...errors],
    tag,
    summary: "What erasing the patient id's case would remove (answers, preliminary answers, files, signatures)",
    query: z.object({ surveyId: idParam, patientId: PatientIdSchema }),
    response: ErasurePreviewSchema,
    handler: ({ deps, caller, query }) =>
      erasurePreview(deps.db, erasureKey(deps.env), surveyCaller(caller), query.surveyId, query.patientId),
  }),
  route({
    method: "post",
    path: "/erasures",
    errors: [...errors],
    tag,
    summary:
      "Erases the patient id's case with a reason: its answers, preliminary answers, files in every store, kept export line, words, signatures and its values in the audit trail; keeps a tombstone (409 CASE_ALREADY_ERASED for a patient id erased before)",
    body: ErasureRequestSchema,
    response: ErasureResultSchema,
    handler: ({ deps, caller, body }) =>
      eraseOnRequest(deps.db, deps.attachments, erasureKey(deps.env), surveyCaller(caller), body),
  }),
  route({
    method: "get",
    path: "/patient-data",
    errors: [...errors],
    tag,
    summary:
      "What is stored about a patient id in the survey: the case, its answers now, files, history of changes and signatures; the access is logged (case.data.view)",
    query: z.object({ surveyId: idParam, patientId: PatientIdSchema }),
    response: PatientDataSchema,
    handler: ({ deps, caller, query }) =>
      patientDataOf(deps.db, erasureKey(deps.env), surveyCaller(caller), query.surveyId, query.patientId),
  }),
];
