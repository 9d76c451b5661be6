import { CreateQuestionSchema, UpdateQuestionSchema } from "~/domain/editing";
import { QuestionSchema } from "~/domain/survey";
import { ItemParams, ReorderQuery, SurveyQuery } from "./params";
import { contract } from "./contract";

const tag = "Questions";

export const questionsApi = {
  create: contract({
    method: "post",
    path: "/questions",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS", "SURVEY_ANSWER_OPTION_EXISTS"],
    idempotent: true,
    tag,
    summary: "Add a question at the end of a category (image questions with their answer options)",
    body: CreateQuestionSchema,
    response: QuestionSchema,
    status: 201,
  }),
  update: contract({
    method: "put",
    path: "/questions/:id",
    errors: [
      "SURVEY_NOT_FOUND",
      "NOT_FOUND",
      "SURVEY_INVALID_STATUS",
      "SURVEY_EXISTING_QUESTION_RESPONSE",
      "SURVEY_ANSWER_OPTION_EXISTS",
    ],
    tag,
    summary: "Change some fields of a question (not its type); unchanged values are not written",
    params: ItemParams,
    body: UpdateQuestionSchema,
    response: QuestionSchema,
  }),
  remove: contract({
    method: "delete",
    path: "/questions/:id",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS", "SURVEY_EXISTING_QUESTION_RESPONSE"],
    tag,
    summary: "Delete a question with its answers and sub-questions (refused when answers were logged)",
    params: ItemParams,
    query: SurveyQuery,
    status: 204,
  }),
  reorder: contract({
    method: "post",
    path: "/questions/reorder/:id",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS"],
    tag,
    summary: "Move a question to newPosition (0-based) among its category's questions or its answer's sub-questions",
    params: ItemParams,
    query: ReorderQuery,
    status: 204,
  }),
};
