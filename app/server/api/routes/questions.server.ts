import { questionsApi } from "~/contracts/questions";
import { updateQuestion } from "~/server/services/editing/question-update.server";
import { createQuestion, deleteQuestion, reorderQuestion } from "~/server/services/editing/questions.server";
import { route } from "../route.server";
import { surveyCaller } from "../schemas.server";

export const questionRoutes = [
  route(questionsApi.create, ({ deps, caller, body }) => createQuestion(deps.db, surveyCaller(caller), body)),
  route(questionsApi.update, ({ deps, caller, params, body }) =>
    updateQuestion(deps.db, surveyCaller(caller), params.id, body),
  ),
  route(questionsApi.remove, ({ deps, caller, params, query }) =>
    deleteQuestion(deps.db, surveyCaller(caller), query.surveyId, params.id),
  ),
  route(questionsApi.reorder, ({ deps, caller, params, query }) =>
    reorderQuestion(deps.db, surveyCaller(caller), query.surveyId, params.id, query.newPosition),
  ),
];
