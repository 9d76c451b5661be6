import { CreatePatientAttributeSchema, UpdatePatientAttributeSchema } from "~/domain/editing";
import { PatientFormAttributeSchema } from "~/domain/survey";
import {
  createPatientAttribute,
  deletePatientAttribute,
  reorderPatientAttribute,
  reorderPatientAttributeAnswer,
  updatePatientAttribute,
} from "~/server/services/editing/patient-form.server";
import { route } from "../route.server";
import { surveyCaller } from "../schemas.server";
import { ItemParams, ReorderQuery, SurveyQuery } from "./categories.server";

const tag = "Preliminary questions";

const create = (path: string, summary: string) =>
  route({
    method: "post",
    path,
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS"],
    tag,
    summary,
    body: CreatePatientAttributeSchema,
    response: PatientFormAttributeSchema,
    status: 201,
    idempotent: true,
    handler: ({ deps, caller, body }) => createPatientAttribute(deps.db, surveyCaller(caller), body),
  });

export const patientAttributeRoutes = [
  create("/patient-attributes/", "Add a preliminary question with its answers at the end of the patient form"),
  create("/patient-attributes", "The same as POST /patient-attributes/"),
  route({
    method: "put",
    path: "/patient-attributes/:id",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS", "SURVEY_EXISTING_QUESTION_RESPONSE"],
    tag,
    summary: "Change a preliminary question; AnswerOptions is the whole list (kept answers carry their Id)",
    params: ItemParams,
    body: UpdatePatientAttributeSchema,
    response: PatientFormAttributeSchema,
    handler: ({ deps, caller, params, body }) => updatePatientAttribute(deps.db, surveyCaller(caller), params.id, body),
  }),
  route({
    method: "delete",
    path: "/patient-attributes/:id",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS", "SURVEY_EXISTING_QUESTION_RESPONSE"],
    tag,
    summary: "Delete a preliminary question with its answers (refused when it was answered)",
    params: ItemParams,
    query: SurveyQuery,
    status: 204,
    handler: ({ deps, caller, params, query }) =>
      deletePatientAttribute(deps.db, surveyCaller(caller), query.surveyId, params.id),
  }),
  route({
    method: "post",
    path: "/patient-attributes/reorder/:id",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS"],
    tag,
    summary: "Move a preliminary question to newPosition (0-based) in the patient form",
    params: ItemParams,
    query: ReorderQuery,
    status: 204,
    handler: ({ deps, caller, params, query }) =>
      reorderPatientAttribute(deps.db, surveyCaller(caller), query.surveyId, params.id, query.newPosition),
  }),
  route({
    method: "post",
    path: "/patient-attributes/answer-options/reorder/:id",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS"],
    tag,
    summary: "Move an answer of a preliminary question to newPosition (0-based) among its answers",
    params: ItemParams,
    query: ReorderQuery,
    status: 204,
    handler: ({ deps, caller, params, query }) =>
      reorderPatientAttributeAnswer(deps.db, surveyCaller(caller), query.surveyId, params.id, query.newPosition),
  }),
];
