import { z, type ZodType } from "zod";
import {
  AnswerWriteResultSchema,
  AttributeResponseRequestSchema,
  AttributeResponseSchema,
  DateTimeRequestSchema,
  DeleteQuestionResponseSchema,
  FreeTextRequestSchema,
  MultipleSelectionRequestSchema,
  NumericalRequestSchema,
  PatientIdSchema,
  QuestionResponseSchema,
  SingleSelectionRequestSchema,
} from "~/domain/fill-requests";
import { writeAnswer, type AnswerInput } from "~/server/services/fill/answer-write.server";
import {
  listAttributeResponses,
  listQuestionResponses,
  writeAttributeResponse,
} from "~/server/services/fill/responses.server";
import { route, type AnyRoute } from "../route.server";
import { idParam, surveyCaller } from "../schemas.server";

const tag = "Responses";

const CaseQuery = z.object({ surveyId: idParam, patientId: PatientIdSchema });

interface AnswerBody {
  SurveyId: number;
  PatientId: string;
  QuestionId: number;
}

/** One answer-writing endpoint: its body schema and how the body becomes an answer. */
function answerRoute<B extends AnswerBody>(
  path: string,
  summary: string,
  body: ZodType<B>,
  toInput: (b: B) => AnswerInput,
): AnyRoute {
  return route({
    method: "post",
    path: `/question-responses/${path}`,
    errors: [
      "SURVEY_NOT_FOUND",
      "NOT_FOUND",
      "SURVEY_PATIENTID_NOT_FOUND",
      "SURVEY_INVALID_STATUS",
      "SURVEY_ALREADY_CLOSED",
    ],
    tag,
    summary: `${summary}. Replaces the question's previous answer; answers of sub-questions that are no longer shown are removed`,
    body,
    response: AnswerWriteResultSchema,
    handler: ({ deps, caller, body }) => writeAnswer(deps.db, surveyCaller(caller), body, toInput(body)),
  });
}

const listQuestionResponsesRoute = (path: string) =>
  route({
    method: "get",
    path,
    errors: ["SURVEY_NOT_FOUND", "SURVEY_PATIENTID_NOT_FOUND"],
    tag,
    summary: "Every recorded answer of a case (date-times as DD.MM.YYYY HH:mm)",
    query: CaseQuery,
    response: z.array(QuestionResponseSchema),
    handler: ({ deps, caller, query }) =>
      listQuestionResponses(deps.db, surveyCaller(caller), { surveyId: query.surveyId, patientId: query.patientId }),
  });

const listAttributeResponsesRoute = (path: string) =>
  route({
    method: "get",
    path,
    errors: ["SURVEY_NOT_FOUND", "SURVEY_PATIENTID_NOT_FOUND"],
    tag,
    summary: "The preliminary answers of a case",
    query: CaseQuery,
    response: z.array(AttributeResponseSchema),
    handler: ({ deps, caller, query }) =>
      listAttributeResponses(deps.db, surveyCaller(caller), { surveyId: query.surveyId, patientId: query.patientId }),
  });

const writeAttributeResponseRoute = (path: string) =>
  route({
    method: "post",
    path,
    errors: [
      "SURVEY_NOT_FOUND",
      "NOT_FOUND",
      "SURVEY_PATIENTID_NOT_FOUND",
      "SURVEY_INVALID_STATUS",
      "SURVEY_ALREADY_CLOSED",
    ],
    tag,
    summary:
      "Answer a preliminary question (PatientFormAnswerOptionId null deletes the answer); answers of questions it hides are removed",
    body: AttributeResponseRequestSchema,
    response: AnswerWriteResultSchema,
    handler: ({ deps, caller, body }) => writeAttributeResponse(deps.db, surveyCaller(caller), body),
  });

export const responseRoutes: AnyRoute[] = [
  writeAttributeResponseRoute("/attribute-responses"),
  writeAttributeResponseRoute("/attribute-responses/"),
  listAttributeResponsesRoute("/attribute-responses/"),
  listAttributeResponsesRoute("/attribute-responses"),
  answerRoute(
    "single-selection",
    "Answer a single-selection (or image) question",
    SingleSelectionRequestSchema,
    (b) => ({
      kind: "single",
      optionId: b.AnswerOptionId,
    }),
  ),
  answerRoute(
    "multiple-selection",
    "Answer a multiple-selection (or image) question; an empty list deletes the answer",
    MultipleSelectionRequestSchema,
    (b) => ({ kind: "multiple", optionIds: b.AnswerOptionIds }),
  ),
  answerRoute(
    "free-text",
    "Answer a free-text question; blank text deletes the answer",
    FreeTextRequestSchema,
    (b) => ({
      kind: "text",
      text: b.TextResponse,
    }),
  ),
  answerRoute("date-time", "Answer a date-time question (DD.MM.YYYY HH:mm)", DateTimeRequestSchema, (b) => ({
    kind: "dateTime",
    value: b.DateTimeResponse,
  })),
  answerRoute("numerical", "Answer a numerical question (steps of 0.01)", NumericalRequestSchema, (b) => ({
    kind: "number",
    value: b.NumericalResponse,
  })),
  route({
    method: "delete",
    path: "/question-responses/question",
    errors: [
      "SURVEY_NOT_FOUND",
      "NOT_FOUND",
      "SURVEY_PATIENTID_NOT_FOUND",
      "SURVEY_INVALID_STATUS",
      "SURVEY_ALREADY_CLOSED",
    ],
    tag,
    summary: "Delete a question's answer with the answers of its sub-questions",
    body: DeleteQuestionResponseSchema,
    response: AnswerWriteResultSchema,
    handler: ({ deps, caller, body }) => writeAnswer(deps.db, surveyCaller(caller), body, { kind: "delete" }),
  }),
  listQuestionResponsesRoute("/question-responses/"),
  listQuestionResponsesRoute("/question-responses"),
];
