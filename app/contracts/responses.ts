import { z } from "~/domain/zod";
import {
  AnswerWriteResultSchema,
  AttributeResponseRequestSchema,
  AttributeResponseSchema,
  CaseQuery,
  DateTimeRequestSchema,
  DeleteQuestionResponseSchema,
  FreeTextRequestSchema,
  MultipleSelectionRequestSchema,
  NumericalRequestSchema,
  QuestionResponseSchema,
  SingleSelectionRequestSchema,
} from "~/domain/fill-requests";
import { isAnswered, type AnswerValue } from "~/domain/answers";
import { answerKind } from "~/domain/question-types";
import type { Question } from "~/domain/survey";
import { contract, type RequestOf } from "./contract";

const tag = "Responses";

const answerErrors = [
  "SURVEY_NOT_FOUND",
  "NOT_FOUND",
  "SURVEY_PATIENTID_NOT_FOUND",
  "SURVEY_INVALID_STATUS",
  "SURVEY_ALREADY_CLOSED",
] as const;

const replaces =
  ". Replaces the question's previous answer; answers of sub-questions that are no longer shown are removed";

export const responsesApi = {
  singleSelection: contract({
    method: "post",
    path: "/question-responses/single-selection",
    errors: answerErrors,
    tag,
    summary: "Answer a single-selection (or image) question" + replaces,
    body: SingleSelectionRequestSchema,
    response: AnswerWriteResultSchema,
  }),
  multipleSelection: contract({
    method: "post",
    path: "/question-responses/multiple-selection",
    errors: answerErrors,
    tag,
    summary: "Answer a multiple-selection (or image) question; an empty list deletes the answer" + replaces,
    body: MultipleSelectionRequestSchema,
    response: AnswerWriteResultSchema,
  }),
  freeText: contract({
    method: "post",
    path: "/question-responses/free-text",
    errors: answerErrors,
    tag,
    summary: "Answer a free-text question; blank text deletes the answer" + replaces,
    body: FreeTextRequestSchema,
    response: AnswerWriteResultSchema,
  }),
  dateTime: contract({
    method: "post",
    path: "/question-responses/date-time",
    errors: answerErrors,
    tag,
    summary: "Answer a date-time question (DD.MM.YYYY HH:mm)" + replaces,
    body: DateTimeRequestSchema,
    response: AnswerWriteResultSchema,
  }),
  numerical: contract({
    method: "post",
    path: "/question-responses/numerical",
    errors: answerErrors,
    tag,
    summary: "Answer a numerical question (steps of 0.01)" + replaces,
    body: NumericalRequestSchema,
    response: AnswerWriteResultSchema,
  }),
  removeAnswer: contract({
    method: "delete",
    path: "/question-responses/question",
    errors: answerErrors,
    tag,
    summary: "Delete a question's answer with the answers of its sub-questions",
    body: DeleteQuestionResponseSchema,
    response: AnswerWriteResultSchema,
  }),
  /** Also answered at /question-responses/ (the specification's spelling). */
  answers: contract({
    method: "get",
    path: "/question-responses",
    errors: ["SURVEY_NOT_FOUND", "SURVEY_PATIENTID_NOT_FOUND"],
    tag,
    summary: "Every recorded answer of a case (date-times as DD.MM.YYYY HH:mm)",
    query: CaseQuery,
    response: z.array(QuestionResponseSchema),
  }),
  /** Also answered at /attribute-responses/. */
  preliminaryAnswers: contract({
    method: "get",
    path: "/attribute-responses",
    errors: ["SURVEY_NOT_FOUND", "SURVEY_PATIENTID_NOT_FOUND", "PRELIMINARY_BY_STAFF"],
    tag,
    summary: "The preliminary answers of a case",
    query: CaseQuery,
    response: z.array(AttributeResponseSchema),
  }),
  /** Also answered at /attribute-responses/. */
  answerPreliminary: contract({
    method: "post",
    path: "/attribute-responses",
    errors: [...answerErrors, "PRELIMINARY_BY_STAFF"],
    tag,
    summary:
      "Answer a preliminary question (PatientFormAnswerOptionId null deletes the answer); answers of questions it hides are removed",
    body: AttributeResponseRequestSchema,
    response: AnswerWriteResultSchema,
  }),
};

type Call<K extends keyof typeof responsesApi> = {
  contract: (typeof responsesApi)[K];
  body: RequestOf<(typeof responsesApi)[K]>["body"];
};

/**
 * The API call that records a question's answer (section 7, Responses): by the question's kind, or the one
 * that deletes it when the answer is empty. Both the page's script and its form posts save through this.
 */
export function answerCall(
  question: Pick<Question, "Id" | "Type" | "AllowMultipleAnswers">,
  value: AnswerValue | undefined,
  ids: { PatientId: string; SurveyId: number },
):
  | Call<"singleSelection">
  | Call<"multipleSelection">
  | Call<"freeText">
  | Call<"numerical">
  | Call<"dateTime">
  | Call<"removeAnswer"> {
  const base = { ...ids, QuestionId: question.Id };
  if (!value || !isAnswered(value)) return { contract: responsesApi.removeAnswer, body: base };
  switch (answerKind(question)) {
    case "single":
      return { contract: responsesApi.singleSelection, body: { ...base, AnswerOptionId: value.AnswerOptionIds![0]! } };
    case "multiple":
      return { contract: responsesApi.multipleSelection, body: { ...base, AnswerOptionIds: value.AnswerOptionIds! } };
    case "text":
      return { contract: responsesApi.freeText, body: { ...base, TextResponse: value.TextResponse! } };
    case "number":
      return { contract: responsesApi.numerical, body: { ...base, NumericalResponse: value.NumericalResponse! } };
    case "dateTime":
      return { contract: responsesApi.dateTime, body: { ...base, DateTimeResponse: value.DateTimeResponse! } };
  }
}
