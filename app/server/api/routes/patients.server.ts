import { z } from "zod";
import {
  NewPatientSchema,
  OpenResponseSchema,
  PatientIdSchema,
  PatientIdTextSchema,
  PatientLookupSchema,
  PatientRecordSchema,
} from "~/domain/fill-requests";
import {
  addPatient,
  autocompletePatients,
  closePatient,
  LATEST_DEFAULT,
  latestPatients,
  patientRecord,
} from "~/server/services/fill/patients.server";
import { route } from "../route.server";
import { idParam, surveyCaller } from "../schemas.server";

const tag = "Patients";

export const CaseQuery = z.object({ patientId: PatientIdSchema, surveyId: idParam });

export const patientRoutes = [
  route({
    method: "get",
    path: "/patients/autocomplete",
    errors: ["SURVEY_NOT_FOUND"],
    tag,
    summary: "Up to 10 Open cases whose id starts with patientId, and whether that exact id is closed",
    query: z.object({ patientId: PatientIdTextSchema.default(""), surveyId: idParam }),
    response: PatientLookupSchema,
    handler: ({ deps, caller, query }) =>
      autocompletePatients(deps.db, surveyCaller(caller), { surveyId: query.surveyId, patientId: query.patientId }),
  }),
  route({
    method: "get",
    path: "/patients/latest",
    errors: ["SURVEY_NOT_FOUND"],
    tag,
    summary: "The most recently changed Open cases of a survey (count, default 10)",
    query: z.object({ count: z.coerce.number().int().min(1).max(100).default(LATEST_DEFAULT), surveyId: idParam }),
    response: z.array(OpenResponseSchema),
    handler: ({ deps, caller, query }) => latestPatients(deps.db, surveyCaller(caller), query.surveyId, query.count),
  }),
  route({
    method: "get",
    path: "/patients",
    errors: ["SURVEY_NOT_FOUND"],
    tag,
    summary: "Whether patientId names an Open, a Closed or no case (Nonexistent) of the survey",
    query: CaseQuery,
    response: PatientRecordSchema,
    handler: ({ deps, caller, query }) =>
      patientRecord(deps.db, surveyCaller(caller), { surveyId: query.surveyId, patientId: query.patientId }),
  }),
  route({
    method: "post",
    path: "/patients/add",
    errors: ["SURVEY_NOT_FOUND", "SURVEY_INVALID_STATUS", "SURVEY_ALREADY_CLOSED", "SURVEY_PATIENTID_EXISTS"],
    idempotent: true,
    tag,
    summary: "Start a case for patientId in an Active survey (409 when the id is taken)",
    query: CaseQuery,
    response: NewPatientSchema,
    status: 201,
    handler: ({ deps, caller, query }) =>
      addPatient(deps.db, surveyCaller(caller), { surveyId: query.surveyId, patientId: query.patientId }),
  }),
  route({
    method: "post",
    path: "/patients/close",
    errors: [
      "SURVEY_NOT_FOUND",
      "SURVEY_INVALID_STATUS",
      "SURVEY_ALREADY_CLOSED",
      "SURVEY_PATIENTID_NOT_FOUND",
      "SIGNATURE_REQUIRED",
    ],
    tag,
    summary:
      "Submit a case: it is Closed at once (409 SURVEY_ALREADY_CLOSED when it was; 409 SIGNATURE_REQUIRED " +
      "when the survey's cases are submitted by an electronic signature on the signing page)",
    query: CaseQuery,
    status: 204,
    handler: async ({ deps, caller, query }) =>
      closePatient(deps.db, surveyCaller(caller), { surveyId: query.surveyId, patientId: query.patientId }),
  }),
];
