import { CreatePatientAttributeSchema, UpdatePatientAttributeSchema } from "~/domain/editing";
import { PatientFormAttributeSchema } from "~/domain/survey";
import { ItemParams, ReorderQuery, SurveyQuery } from "./params";
import { contract } from "./contract";

const tag = "Preliminary questions";

export const patientAttributesApi = {
  create: contract({
    method: "post",
    path: "/patient-attributes/",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS"],
    tag,
    summary: "Add a preliminary question with its answers at the end of the patient form",
    body: CreatePatientAttributeSchema,
    response: PatientFormAttributeSchema,
    status: 201,
    idempotent: true,
  }),
  update: contract({
    method: "put",
    path: "/patient-attributes/:id",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS", "SURVEY_EXISTING_QUESTION_RESPONSE"],
    tag,
    summary: "Change a preliminary question; AnswerOptions is the whole list (kept answers carry their Id)",
    params: ItemParams,
    body: UpdatePatientAttributeSchema,
    response: PatientFormAttributeSchema,
  }),
  remove: contract({
    method: "delete",
    path: "/patient-attributes/:id",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS", "SURVEY_EXISTING_QUESTION_RESPONSE"],
    tag,
    summary: "Delete a preliminary question with its answers (refused when it was answered)",
    params: ItemParams,
    query: SurveyQuery,
    status: 204,
  }),
  reorder: contract({
    method: "post",
    path: "/patient-attributes/reorder/:id",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS"],
    tag,
    summary: "Move a preliminary question to newPosition (0-based) in the patient form",
    params: ItemParams,
    query: ReorderQuery,
    status: 204,
  }),
  reorderOption: contract({
    method: "post",
    path: "/patient-attributes/answer-options/reorder/:id",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS"],
    tag,
    summary: "Move an answer of a preliminary question to newPosition (0-based) among its answers",
    params: ItemParams,
    query: ReorderQuery,
    status: 204,
  }),
};
