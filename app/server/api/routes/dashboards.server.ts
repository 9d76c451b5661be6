import { dashboardsApi } from "~/contracts/dashboards";
import { supportedChartTypes } from "~/domain/dashboards";
import { translate } from "~/server/locales.server";
import { benchmarkDashboard } from "~/server/services/dashboards/benchmark.server";
import {
  addCharts,
  dashboardOfSurvey,
  deleteChart,
  reorderChart,
  updateChart,
} from "~/server/services/dashboards/dashboards.server";
import { route, type AnyRoute } from "../route.server";
import { surveyCaller } from "../schemas.server";

export const dashboardRoutes: AnyRoute[] = [
  route(dashboardsApi.ofSurvey, ({ deps, caller, params, query, body }) =>
    dashboardOfSurvey(deps.db, surveyCaller(caller), params.id, body.Filters, query.language),
  ),
  route(dashboardsApi.chartTypes, async ({ caller }) => ({
    Data: supportedChartTypes.map((t) => ({
      ChartType: t.type,
      PlotType: t.plot,
      Name: translate(caller.culture ?? undefined, t.nameKey),
      Description: translate(caller.culture ?? undefined, t.descriptionKey),
    })),
  })),
  route(dashboardsApi.benchmark, ({ deps, caller, params, query, body }) =>
    benchmarkDashboard(deps.db, surveyCaller(caller), params.id, params.surveyId, body.Filters, query.language),
  ),
  route(dashboardsApi.addCharts, ({ deps, caller, params, body }) =>
    addCharts(
      deps.db,
      surveyCaller(caller),
      params.id,
      body.ChartAddRequests.map((r) => r.ChartType),
      body.Filters,
    ),
  ),
  route(dashboardsApi.updateChart, ({ deps, caller, params, body }) =>
    updateChart(deps.db, surveyCaller(caller), params.id, params.chartId, body),
  ),
  route(dashboardsApi.removeChart, ({ deps, caller, params }) =>
    deleteChart(deps.db, surveyCaller(caller), params.id, params.chartId),
  ),
  route(dashboardsApi.reorderChart, ({ deps, caller, params, query }) =>
    reorderChart(deps.db, surveyCaller(caller), params.id, params.chartId, query.newPosition),
  ),
];
