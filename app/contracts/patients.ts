import { z } from "~/domain/zod";
import {
  LATEST_DEFAULT,
  NewPatientSchema,
  OpenResponseSchema,
  PatientIdTextSchema,
  CaseLanguageSchema,
  CaseQuery,
  NewCaseQuery,
  PatientLookupSchema,
  PatientRecordSchema,
} from "~/domain/fill-requests";
import { idParam } from "./params";
import { contract } from "./contract";

const tag = "Patients";

export const patientsApi = {
  autocomplete: contract({
    method: "get",
    path: "/patients/autocomplete",
    errors: ["SURVEY_NOT_FOUND"],
    tag,
    summary: "Up to 10 Open cases whose id starts with patientId, and whether that exact id is closed",
    query: z.object({ patientId: PatientIdTextSchema.default(""), surveyId: idParam }),
    response: PatientLookupSchema,
  }),
  latest: contract({
    method: "get",
    path: "/patients/latest",
    errors: ["SURVEY_NOT_FOUND"],
    tag,
    summary: "The most recently changed Open cases of a survey (count, default 10)",
    query: z.object({ count: z.coerce.number().int().min(1).max(100).default(LATEST_DEFAULT), surveyId: idParam }),
    response: z.array(OpenResponseSchema),
  }),
  record: contract({
    method: "get",
    path: "/patients",
    errors: ["SURVEY_NOT_FOUND"],
    tag,
    summary: "Whether patientId names an Open, a Closed or no case (Nonexistent) of the survey",
    query: CaseQuery,
    response: PatientRecordSchema,
  }),
  add: contract({
    method: "post",
    path: "/patients/add",
    errors: ["SURVEY_NOT_FOUND", "SURVEY_INVALID_STATUS", "SURVEY_ALREADY_CLOSED", "SURVEY_PATIENTID_EXISTS"],
    idempotent: true,
    tag,
    summary:
      "Start a case for patientId in an Active survey (409 when the id is taken), in a language of the survey " +
      "(VALIDATION_ERROR for one it does not offer)",
    query: NewCaseQuery,
    response: NewPatientSchema,
    status: 201,
  }),
  language: contract({
    method: "post",
    path: "/patients/language",
    errors: ["SURVEY_NOT_FOUND", "SURVEY_INVALID_STATUS", "SURVEY_ALREADY_CLOSED", "SURVEY_PATIENTID_NOT_FOUND"],
    tag,
    summary:
      "The language an Open case is filled in from now on: the survey's source language or one it offers " +
      "(VALIDATION_ERROR otherwise); its answers stay as they are",
    query: CaseQuery,
    body: CaseLanguageSchema,
    status: 204,
  }),
  close: contract({
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
  }),
};
