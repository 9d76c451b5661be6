import { surveysApi } from "~/contracts/surveys";
import { cloneSurvey } from "~/server/services/survey-clone.server";
import {
  approveSurvey,
  archiveSurvey,
  benchmarkableSurveys,
  changeSurveyStatus,
  deleteSurvey,
  restoreSurvey,
} from "~/server/services/survey-lifecycle.server";
import { createSurvey, getSurvey, listSurveys, updateSurvey } from "~/server/services/surveys.server";
import { route } from "../route.server";
import { surveyCaller } from "../schemas.server";

export const surveyRoutes = [
  route(surveysApi.list, ({ deps, caller, query }) =>
    listSurveys(deps.db, surveyCaller(caller), {
      take: query.take,
      skip: query.skip,
      filterString: query.filterString,
      archived: query.Archived,
    }),
  ),
  route(surveysApi.benchmarkable, ({ deps, caller, query }) =>
    benchmarkableSurveys(deps.db, surveyCaller(caller), query.surveyId, query.filterString),
  ),
  route(surveysApi.get, ({ deps, caller, params }) => getSurvey(deps.db, surveyCaller(caller), params.id)),
  route(surveysApi.create, ({ deps, caller, body }) => createSurvey(deps.db, surveyCaller(caller), body ?? {})),
  route(surveysApi.update, ({ deps, caller, params, body }) =>
    updateSurvey(deps.db, surveyCaller(caller), params.id, body),
  ),
  route(surveysApi.archive, async ({ deps, caller, params }) =>
    archiveSurvey(deps.db, surveyCaller(caller), params.id),
  ),
  route(surveysApi.restore, async ({ deps, caller, params }) =>
    restoreSurvey(deps.db, surveyCaller(caller), params.id),
  ),
  route(surveysApi.remove, async ({ deps, caller, params }) => deleteSurvey(deps.db, surveyCaller(caller), params.id)),
  route(surveysApi.clone, async ({ deps, caller, params }) => {
    const id = await cloneSurvey(deps.db, surveyCaller(caller), params.id);
    return getSurvey(deps.db, surveyCaller(caller), id);
  }),
  route(surveysApi.approve, async ({ deps, caller, params }) =>
    approveSurvey(deps.db, surveyCaller(caller), params.id),
  ),
  route(surveysApi.changeStatus, async ({ deps, caller, params, query }) =>
    changeSurveyStatus(deps.db, surveyCaller(caller), params.id, query.newStatusId),
  ),
];
