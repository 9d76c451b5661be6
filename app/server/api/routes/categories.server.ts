import { categoriesApi } from "~/contracts/categories";
import { z } from "zod";
import {
  createCategory,
  deleteCategory,
  reorderCategory,
  updateCategory,
} from "~/server/services/editing/categories.server";
import { route } from "../route.server";
import { idParam, surveyCaller } from "../schemas.server";

/** ?newPosition&surveyId of the reorder calls: the 0-based target index among the item's siblings. */
export const ReorderQuery = z.object({ newPosition: z.coerce.number().int().min(0).max(100_000), surveyId: idParam });
export const ItemParams = z.object({ id: idParam });
export const SurveyQuery = z.object({ surveyId: idParam });

export const categoryRoutes = [
  route(categoriesApi.create, ({ deps, caller, body }) => createCategory(deps.db, surveyCaller(caller), body)),
  route(categoriesApi.update, ({ deps, caller, params, body }) =>
    updateCategory(deps.db, surveyCaller(caller), params.id, body),
  ),
  route(categoriesApi.remove, ({ deps, caller, query }) =>
    deleteCategory(deps.db, surveyCaller(caller), query.surveyId, query.categoryId),
  ),
  route(categoriesApi.reorder, ({ deps, caller, params, query }) =>
    reorderCategory(deps.db, surveyCaller(caller), query.surveyId, params.id, query.newPosition),
  ),
];
