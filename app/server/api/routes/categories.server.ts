import { z } from "zod";
import { CreateCategorySchema, UpdateCategorySchema } from "~/domain/editing";
import { CategorySchema } from "~/domain/survey";
import {
  createCategory,
  deleteCategory,
  reorderCategory,
  updateCategory,
} from "~/server/services/editing/categories.server";
import { route } from "../route.server";
import { idParam, surveyCaller } from "../schemas.server";

const tag = "Categories";

/** ?newPosition&surveyId of the reorder calls: the 0-based target index among the item's siblings. */
export const ReorderQuery = z.object({ newPosition: z.coerce.number().int().min(0).max(100_000), surveyId: idParam });
export const ItemParams = z.object({ id: idParam });
export const SurveyQuery = z.object({ surveyId: idParam });

export const categoryRoutes = [
  route({
    method: "post",
    path: "/categories",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS"],
    idempotent: true,
    tag,
    summary: "Add a category at the end of a Draft survey (editors of its teams)",
    body: CreateCategorySchema,
    response: CategorySchema,
    status: 201,
    handler: ({ deps, caller, body }) => createCategory(deps.db, surveyCaller(caller), body),
  }),
  route({
    method: "put",
    path: "/categories/:id",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS"],
    tag,
    summary: "Rename a category",
    params: ItemParams,
    body: UpdateCategorySchema,
    response: CategorySchema,
    handler: ({ deps, caller, params, body }) => updateCategory(deps.db, surveyCaller(caller), params.id, body),
  }),
  route({
    method: "delete",
    path: "/categories",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS", "SURVEY_EXISTING_QUESTION_RESPONSE"],
    tag,
    summary: "Delete a category with its questions (refused when answers were logged)",
    query: z.object({ categoryId: idParam, surveyId: idParam }),
    status: 204,
    handler: ({ deps, caller, query }) =>
      deleteCategory(deps.db, surveyCaller(caller), query.surveyId, query.categoryId),
  }),
  route({
    method: "post",
    path: "/categories/:id/reorder",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND", "SURVEY_INVALID_STATUS"],
    tag,
    summary: "Move a category to newPosition (0-based) among the survey's categories",
    params: ItemParams,
    query: ReorderQuery,
    status: 204,
    handler: ({ deps, caller, params, query }) =>
      reorderCategory(deps.db, surveyCaller(caller), query.surveyId, params.id, query.newPosition),
  }),
];
