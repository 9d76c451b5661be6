import { statisticsApi } from "~/contracts/statistics";
import { contentDisposition } from "~/server/services/fill/attachment-links.server";
import { countedPatientIds, requireAnalyst } from "~/server/services/statistics/cases.server";
import { exportResponses } from "~/server/services/statistics/export.server";
import {
  archivedAttachments,
  filterData,
  freeTextPage,
  questionAttachments,
} from "~/server/services/statistics/lists.server";
import { surveyStatistics } from "~/server/services/statistics/statistics.server";
import { route, type AnyRoute } from "../route.server";
import { surveyCaller } from "../schemas.server";
import type { ApiDeps } from "../types.server";

const thresholdsOf = (deps: ApiDeps) => ({
  RedBelow: deps.env.SCORE_RED_BELOW,
  YellowBelow: deps.env.SCORE_YELLOW_BELOW,
  MinResponses: deps.env.SCORE_MIN_RESPONSES,
});

/** A zip streamed to the client under a safe file name. */
function zipResponse(file: { fileName: string; body: ReadableStream<Uint8Array> }) {
  return new Response(file.body, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": contentDisposition(file.fileName),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

export const statisticsRoutes: AnyRoute[] = [
  route(statisticsApi.figures, ({ deps, caller, params, query, body }) =>
    surveyStatistics(
      deps.db,
      surveyCaller(caller),
      params.surveyId,
      body,
      thresholdsOf(deps),
      query.benchmarkSurveyId,
      { wordCloud: query.wordCloud },
      query.language,
    ),
  ),
  route(statisticsApi.patientIds, async ({ deps, caller, params, body }) => {
    await requireAnalyst(deps.db, surveyCaller(caller), params.surveyId);
    return countedPatientIds(deps.db, params.surveyId, body);
  }),
  route(statisticsApi.csv, async ({ deps, caller, params, query, body }) => {
    const who = { ...surveyCaller(caller), culture: query.culture ?? caller.culture };
    const zone = deps.env.CLINIC_TIME_ZONE;
    return zipResponse(await exportResponses(deps.db, who, params.surveyId, body, zone, query.language));
  }),
  route(statisticsApi.freeText, ({ deps, caller, params, query, body }) =>
    freeTextPage(deps.db, surveyCaller(caller), { ...params, ...query }, body),
  ),
  route(statisticsApi.filterData, ({ deps, caller, query }) =>
    filterData(deps.db, surveyCaller(caller), query.surveyId, query.language),
  ),
  route(statisticsApi.attachments, ({ deps, caller, params, query, body }) =>
    questionAttachments(deps.db, surveyCaller(caller), { surveyId: query.surveyId, questionId: params.id }, body),
  ),
  route(statisticsApi.archived, async ({ deps, caller, body }) =>
    zipResponse(await archivedAttachments(deps.db, deps.attachments, surveyCaller(caller), body)),
  ),
];
