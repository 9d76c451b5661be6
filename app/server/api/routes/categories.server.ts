import { categoriesApi } from "~/contracts/categories";
import {
  createCategory,
  deleteCategory,
  reorderCategory,
  updateCategory,
} from "~/server/services/editing/categories.server";
import { route } from "../route.server";
import { surveyCaller } from "../schemas.server";

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
