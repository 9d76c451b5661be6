import { redirect } from "@remix-run/node";
import { positiveId } from "~/domain/ids";
import { readView, type StatisticsView } from "~/domain/statistics-view";
import type { AnswerOf } from "~/contracts/contract";
import { dashboardsApi } from "~/contracts/dashboards";
import { statisticsApi } from "~/contracts/statistics";
import { surveysApi } from "~/contracts/surveys";
import { takesSeveralOptions } from "~/domain/question-types";
import type { ApiClient } from "./api-client.server";
import { refused } from "./refusals.server";
import { surveyQuestions } from "~/domain/visibility";
import { translateSurvey } from "~/domain/content-languages";
import { chosenLanguage, statisticsLanguages } from "~/domain/statistics-languages";
import { localeFromRequest } from "./i18n.server";

/** The free-text details modal shows this many answers at first and loads this many more each time (section 9). */
export const FREE_TEXT_PAGE = 15;

export type StatisticsModal =
  | { kind: "benchmark"; q: string; entries: AnswerOf<typeof surveysApi.benchmarkable> }
  | { kind: "freetext"; questionId: number; q: string; take: number; page: AnswerOf<typeof statisticsApi.freeText> }
  | {
      kind: "files";
      questionId: number;
      type: string;
      files: AnswerOf<typeof statisticsApi.attachments>["Data"];
    }
  | null;

const positive = positiveId;

/**
 * Everything the statistics screen shows, for one URL: the survey, its filter choices, the figures under the
 * URL's filters (and the benchmark survey's beside them), and the modal the URL opens. Patient ids that no
 * longer pass the other filters are dropped before the figures are computed (section 4).
 */
export async function loadStatisticsPage(request: Request, api: ApiClient, surveyId: number) {
  const url = new URL(request.url);
  const view: StatisticsView = readView(url.searchParams);
  try {
    const survey = await api.call(surveysApi.get, { params: { id: surveyId } });
    if (!survey.Rights.CanEdit && !survey.Rights.CanApprove) throw redirect("/403");
    // The survey's labels in the language asked for, else the person's own, else the source language (056).
    const language = chosenLanguage(survey, view.language, localeFromRequest(request));
    const { PatientIds: _chosen, ...others } = view.filters;
    const [filterData, patientIds] = await Promise.all([
      api.call(statisticsApi.filterData, { query: { surveyId, language } }),
      api.call(statisticsApi.patientIds, { params: { surveyId }, body: others }),
    ]);
    if (view.filters.PatientIds) {
      const valid = new Set(patientIds);
      const kept = view.filters.PatientIds.filter((p) => valid.has(p));
      view.filters = kept.length ? { ...others, PatientIds: kept } : others;
    }
    const [statistics, dashboard] = await Promise.all([
      api.call(statisticsApi.figures, {
        params: { surveyId },
        body: view.filters,
        // The word clouds read every free text: asked for only while they are shown.
        query: {
          benchmarkSurveyId: view.benchmark ?? undefined,
          wordCloud: view.cloud ? undefined : false,
          language,
        },
      }),
      api.call(dashboardsApi.ofSurvey, {
        params: { id: surveyId },
        query: { language },
        body: { Filters: view.filters },
      }),
    ]);
    // The benchmark survey was checked with the figures above; its charts follow the same dashboard.
    const benchmarkDashboard = view.benchmark
      ? await api.call(dashboardsApi.benchmark, {
          params: { id: dashboard.Id, surveyId: view.benchmark },
          query: { language },
          body: { Filters: view.filters },
        })
      : null;
    const modal = await loadModal(url.searchParams, api, surveyId, view);
    // Their answers' shares can add up past 100 %: drawn as bars, never as a pie.
    const several = surveyQuestions(survey)
      .filter(takesSeveralOptions)
      .map((q) => q.Id);
    const languages = { chosen: language, offered: statisticsLanguages(survey), source: survey.SourceLanguage };
    return {
      survey: translateSurvey(survey, language),
      languages,
      several,
      view,
      filterData,
      patientIds,
      statistics,
      dashboard,
      benchmarkDashboard,
      modal,
    };
  } catch (error) {
    // Section 8: a statistics load failure shows the message; the survey list is the way back.
    return refused(request, error, { back: "/surveys", notFound: "/surveys" });
  }
}

async function loadModal(
  params: URLSearchParams,
  api: ApiClient,
  surveyId: number,
  view: StatisticsView,
): Promise<StatisticsModal> {
  const kind = params.get("modal");
  const questionId = positive(params.get("question"));
  const q = (params.get("mq") ?? "").slice(0, 200);
  if (kind === "benchmark") {
    const entries = await api.call(surveysApi.benchmarkable, { query: { surveyId, filterString: q || undefined } });
    return { kind, q, entries };
  }
  if (kind === "freetext" && questionId) {
    const take = Math.min(positive(params.get("take")) ?? FREE_TEXT_PAGE, 10_000);
    const page = await api.call(statisticsApi.freeText, {
      params: { surveyId, questionId },
      query: { take, skip: 0, filterString: q || undefined },
      body: view.filters,
    });
    return { kind, questionId, q, take, page };
  }
  if (kind === "files" && questionId) {
    const list = await api.call(statisticsApi.attachments, {
      params: { id: questionId },
      query: { surveyId },
      body: view.filters,
    });
    return { kind, questionId, type: (params.get("type") ?? "").slice(0, 20), files: list.Data };
  }
  return null;
}
