import { answerOptionsApi } from "~/contracts/answer-options";
import {
  createAnswerOption,
  deleteAnswerOption,
  reorderAnswerOption,
  updateAnswerOption,
} from "~/server/services/editing/answer-options.server";
import { createSubQuestion } from "~/server/services/editing/questions.server";
import { route } from "../route.server";
import { surveyCaller } from "../schemas.server";

export const answerOptionRoutes = [
  route(answerOptionsApi.create, ({ deps, caller, body }) => createAnswerOption(deps.db, surveyCaller(caller), body)),
  route(answerOptionsApi.update, ({ deps, caller, params, body }) =>
    updateAnswerOption(deps.db, surveyCaller(caller), params.id, body),
  ),
  route(answerOptionsApi.remove, ({ deps, caller, params, query }) =>
    deleteAnswerOption(deps.db, surveyCaller(caller), query.surveyId, params.id),
  ),
  route(answerOptionsApi.reorder, ({ deps, caller, params, query }) =>
    reorderAnswerOption(deps.db, surveyCaller(caller), query.surveyId, params.id, query.newPosition),
  ),
  route(answerOptionsApi.addSubQuestion, ({ deps, caller, params, body }) =>
    createSubQuestion(deps.db, surveyCaller(caller), params.id, body),
  ),
];
