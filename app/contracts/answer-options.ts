import { CreateAnswerOptionSchema, CreateSubQuestionSchema, UpdateAnswerOptionSchema } from "~/domain/editing";
import { AnswerOptionSchema, QuestionSchema } from "~/domain/survey";
import { ItemParams, ReorderQuery, SurveyQuery } from "./params";
import { contract } from "./contract";

const tag = "Answer options";

export const answerOptionsApi = {
  create: contract({
    method: "post",
    path: "/answer-options",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS", "SURVEY_ANSWER_OPTION_EXISTS"],
    idempotent: true,
    tag,
    summary: "Add an answer at the end of a question",
    body: CreateAnswerOptionSchema,
    response: AnswerOptionSchema,
    status: 201,
  }),
  update: contract({
    method: "put",
    path: "/answer-options/:id",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS", "SURVEY_ANSWER_OPTION_EXISTS"],
    tag,
    summary: "Change some fields of an answer; unchanged values are not written",
    params: ItemParams,
    body: UpdateAnswerOptionSchema,
    response: AnswerOptionSchema,
  }),
  remove: contract({
    method: "delete",
    path: "/answer-options/:id",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS", "SURVEY_EXISTING_QUESTION_RESPONSE"],
    tag,
    summary: "Delete an answer with its sub-questions (refused when answers were logged)",
    params: ItemParams,
    query: SurveyQuery,
    status: 204,
  }),
  reorder: contract({
    method: "post",
    path: "/answer-options/:id/reorder",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS"],
    tag,
    summary: "Move an answer to newPosition (0-based) among its question's answers",
    params: ItemParams,
    query: ReorderQuery,
    status: 204,
  }),
  addSubQuestion: contract({
    method: "post",
    path: "/answer-options/:id/sub-question",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS", "SURVEY_ANSWER_OPTION_EXISTS"],
    idempotent: true,
    tag,
    summary: "Add a sub-question under an answer (it takes the category of its parent)",
    params: ItemParams,
    body: CreateSubQuestionSchema,
    response: QuestionSchema,
    status: 201,
  }),
};
