import { z } from "~/domain/zod";
import {
  ChartsAddSchema,
  ChartUpdateSchema,
  DashboardRequestSchema,
  DashboardSchema,
  SupportedChartTypesSchema,
} from "~/domain/dashboards";
import { ContentLanguageSchema } from "~/domain/content-languages";
import { idParam } from "./params";
import { contract } from "./contract";

const tag = "Dashboards";
const base = "/statistics-dashboards";
const Body = DashboardRequestSchema.default({ Filters: {} });
const ChartParams = z.object({ id: idParam, chartId: idParam });
/** The language of the charts' labels (docs/decisions/056-statistics-languages.md). */
const Language = z.object({
  language: ContentLanguageSchema.optional().describe(
    "The language of the survey's labels: one the survey offers, else (or when left out) its source language",
  ),
});

export const dashboardsApi = {
  ofSurvey: contract({
    method: "post",
    path: `${base}/get-by-survey-id/:id`,
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND"],
    tag,
    summary: "The survey's statistics dashboard (made on first use), each chart with its data under the Filters",
    params: z.object({ id: idParam }),
    query: Language,
    body: Body,
    response: DashboardSchema,
  }),
  chartTypes: contract({
    method: "get",
    path: `${base}/supported-chart-types`,
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND"],
    tag,
    summary: "The chart types a dashboard can hold, with their default plot type, name and description",
    response: SupportedChartTypesSchema,
  }),
  benchmark: contract({
    method: "post",
    path: `${base}/:id/benchmark/:surveyId`,
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND"],
    tag,
    summary: "The dashboard's charts drawn over another survey of the same original, with the Filters mapped to it",
    params: z.object({ id: idParam, surveyId: idParam }),
    query: Language,
    body: Body,
    response: DashboardSchema,
  }),
  addCharts: contract({
    method: "post",
    path: `${base}/:id/charts/add`,
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND"],
    idempotent: true,
    tag,
    summary: "Append one chart per ChartAddRequest; range and preliminary-question charts start without questions",
    params: z.object({ id: idParam }),
    body: ChartsAddSchema,
    response: DashboardSchema,
  }),
  updateChart: contract({
    method: "post",
    path: `${base}/:id/charts/update/:chartId`,
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND"],
    tag,
    summary: "Choose a chart's preliminary question (AttributeId) or its two different questions of the fitting kind",
    params: ChartParams,
    body: ChartUpdateSchema,
    response: DashboardSchema,
  }),
  removeChart: contract({
    method: "delete",
    path: `${base}/:id/charts/:chartId`,
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND"],
    tag,
    summary: "Remove a chart from the dashboard",
    params: ChartParams,
    status: 204,
  }),
  reorderChart: contract({
    method: "post",
    path: `${base}/:id/charts/reorder/:chartId`,
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND"],
    tag,
    summary: "Move a chart to newPosition (0-based) among the dashboard's charts",
    params: ChartParams,
    query: z.object({ newPosition: z.coerce.number().int().min(0).max(10_000) }),
    status: 204,
  }),
};
