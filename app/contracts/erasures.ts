import { z } from "~/domain/zod";
import {
  ErasurePreviewSchema,
  ErasureRequestSchema,
  ErasureResultSchema,
  RetentionMonthsQuery,
  RetentionPreviewSchema,
} from "~/domain/erasure";
import { PatientIdSchema } from "~/domain/fill-requests";
import { PatientDataSchema } from "~/domain/patient-data";
import { contract } from "./contract";
import { idParam } from "./params";

const tag = "Data protection";
const errors = ["SURVEY_NOT_FOUND", "SURVEY_PATIENTID_NOT_FOUND", "CASE_ALREADY_ERASED"] as const;

/** Erasing a patient id's case and showing what is stored, for the survey's approvers (decision 042). */
export const erasuresApi = {
  preview: contract({
    method: "get",
    path: "/erasures/preview",
    errors,
    tag,
    summary: "What erasing the patient id's case would remove (answers, preliminary answers, files, signatures)",
    query: z.object({ surveyId: idParam, patientId: PatientIdSchema }),
    response: ErasurePreviewSchema,
  }),
  erase: contract({
    method: "post",
    path: "/erasures",
    errors,
    tag,
    summary:
      "Erases the patient id's case with a reason: its answers, preliminary answers, files in every store, kept export line, words, signatures and its values in the audit trail; keeps a tombstone (409 CASE_ALREADY_ERASED for a patient id erased before)",
    body: ErasureRequestSchema,
    response: ErasureResultSchema,
  }),
  retentionPreview: contract({
    method: "get",
    path: "/erasures/retention-preview",
    errors: ["SURVEY_NOT_FOUND"],
    tag,
    summary:
      "How many of the survey's closed cases the next daily retention round would erase with a period of `months` months (the survey's editors, before they shorten it)",
    query: z.object({ surveyId: idParam, months: RetentionMonthsQuery }),
    response: RetentionPreviewSchema,
  }),
  patientData: contract({
    method: "get",
    path: "/patient-data",
    errors,
    tag,
    summary:
      "What is stored about a patient id in the survey: the case, its answers now, files, history of changes and signatures; the access is logged (case.data.view)",
    query: z.object({ surveyId: idParam, patientId: PatientIdSchema }),
    response: PatientDataSchema,
  }),
};
