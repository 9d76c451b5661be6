import { z } from "~/domain/zod";
import { CreateCategorySchema, UpdateCategorySchema } from "~/domain/editing";
import { CategorySchema } from "~/domain/survey";
import { idParam, ItemParams, ReorderQuery } from "./params";
import { contract } from "./contract";

const tag = "Categories";

export const categoriesApi = {
  create: contract({
    method: "post",
    path: "/categories",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS"],
    idempotent: true,
    tag,
    summary: "Add a category at the end of a Draft survey (editors of its teams)",
    body: CreateCategorySchema,
    response: CategorySchema,
    status: 201,
  }),
  update: contract({
    method: "put",
    path: "/categories/:id",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS"],
    tag,
    summary: "Rename a category",
    params: ItemParams,
    body: UpdateCategorySchema,
    response: CategorySchema,
  }),
  remove: contract({
    method: "delete",
    path: "/categories",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS", "SURVEY_EXISTING_QUESTION_RESPONSE"],
    tag,
    summary: "Delete a category with its questions (refused when answers were logged)",
    query: z.object({ categoryId: idParam, surveyId: idParam }),
    status: 204,
  }),
  reorder: contract({
    method: "post",
    path: "/categories/:id/reorder",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS"],
    tag,
    summary: "Move a category to newPosition (0-based) among the survey's categories",
    params: ItemParams,
    query: ReorderQuery,
    status: 204,
  }),
};
