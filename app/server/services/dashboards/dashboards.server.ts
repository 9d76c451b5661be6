import {
  isPreQuestionChart,
  isRangeChart,
  rangeQuestionType,
  supportedChartTypes,
  type ChartType,
  type ChartUpdate,
  type Dashboard,
} from "~/domain/dashboards";
import { AppError } from "~/domain/errors";
import type { StatisticsFilters } from "~/domain/statistics";
import { translateSurvey } from "~/domain/content-languages";
import type { Survey } from "~/domain/survey";
import { surveyQuestions } from "~/domain/visibility";
import type { DB } from "~/server/db/types.server";
import { surveyStructure } from "../fill/structure.server";
import { requireAnalyst } from "../statistics/cases.server";
import { isScoredQuestion } from "../statistics/figures.server";
import type { SurveyCaller } from "../surveys.server";
import { chartData, type ChartRow } from "./chart-data.server";
import { chartScope } from "./scores.server";

async function structureFor(db: DB, caller: SurveyCaller, surveyId: number) {
  return surveyStructure(db, await requireAnalyst(db, caller, surveyId));
}

const chartRows = (db: DB, dashboardId: number) =>
  db
    .selectFrom("charts")
    .select(["id", "chart_type", "plot_type", "attribute_id", "question_id1", "question_id2", "sort"])
    .where("dashboard_id", "=", dashboardId)
    .orderBy("sort")
    .orderBy("id")
    .execute();

/** The charts' data over one survey's counted cases; `rows` name that survey's questions. */
async function chartsOf(
  db: DB,
  structure: Awaited<ReturnType<typeof structureFor>>,
  rows: ChartRow[],
  filters: StatisticsFilters,
  labelled: Survey,
) {
  const scored = [...structure.questions.values()].filter(isScoredQuestion);
  const scope = chartScope(db, structure.survey.Id, filters, scored);
  // The charts' queries run side by side (readBeside); the list keeps the charts' order.
  return {
    Charts: await Promise.all(rows.map((row) => chartData(scope, labelled, row))),
    HasScoredQuestions: scored.length > 0,
  };
}

/** What the charts can be drawn over, with the texts of `survey` (the survey in the labels' language). */
function choices(survey: Survey): Dashboard["Choices"] {
  const of = (type: string) =>
    surveyQuestions(survey)
      .filter((q) => q.Type === type)
      .map((q) => ({ Id: q.Id, Title: q.Title, ...(type === "Numerical" ? { Unit: q.Unit } : {}) }));
  return {
    NumericalQuestions: of("Numerical"),
    DateTimeQuestions: of("DateTime"),
    PreliminaryQuestions: survey.PatientForm.map((a) => ({ Id: a.Id, Title: a.Title })),
  };
}

/**
 * POST /statistics-dashboards/get-by-survey-id/{id}: the survey's dashboard (made on first use) with its charts'
 * data, the survey's texts in `language` where it offers it (docs/decisions/056-statistics-languages.md).
 */
export async function dashboardOfSurvey(
  db: DB,
  caller: SurveyCaller,
  surveyId: number,
  filters: StatisticsFilters,
  language?: string,
): Promise<Dashboard> {
  const structure = await structureFor(db, caller, surveyId);
  // The charts are computed by ids; only their texts come from the translated tree.
  const labelled = language ? translateSurvey(structure.survey, language) : structure.survey;
  await db
    .insertInto("dashboards")
    .values({ survey_id: surveyId })
    .onConflict((oc) => oc.column("survey_id").doNothing())
    .execute();
  const dashboard = await db
    .selectFrom("dashboards")
    .select("id")
    .where("survey_id", "=", surveyId)
    .executeTakeFirstOrThrow();
  const rows = await chartRows(db, dashboard.id);
  return {
    Id: dashboard.id,
    SurveyId: surveyId,
    ...(await chartsOf(db, structure, rows, filters, labelled)),
    Choices: choices(labelled),
  };
}

/** The dashboard, after checking the caller analyses its survey. */
async function requireDashboard(db: DB, caller: SurveyCaller, dashboardId: number) {
  const row = await db
    .selectFrom("dashboards")
    .select(["id", "survey_id"])
    .where("id", "=", dashboardId)
    .executeTakeFirst();
  if (!row) throw new AppError("NOT_FOUND", `Dashboard ${dashboardId} does not exist`);
  await requireAnalyst(db, caller, row.survey_id);
  return row;
}

async function requireChart(db: DB, dashboardId: number, chartId: number) {
  const chart = await db
    .selectFrom("charts")
    .selectAll()
    .where("id", "=", chartId)
    .where("dashboard_id", "=", dashboardId)
    .executeTakeFirst();
  if (!chart) throw new AppError("NOT_FOUND", `Chart ${chartId} is not on dashboard ${dashboardId}`);
  return chart;
}

/** POST .../charts/add: appends one chart per type; range and preliminary-question charts start without questions. */
export async function addCharts(
  db: DB,
  caller: SurveyCaller,
  dashboardId: number,
  types: ChartType[],
  filters: StatisticsFilters,
) {
  const dashboard = await requireDashboard(db, caller, dashboardId);
  await db.transaction().execute(async (trx) => {
    const last = await trx
      .selectFrom("charts")
      .select((eb) => eb.fn.max("sort").as("sort"))
      .where("dashboard_id", "=", dashboardId)
      .executeTakeFirst();
    let sort = last?.sort === null || last?.sort === undefined ? 0 : Number(last.sort) + 1;
    for (const type of types) {
      const plot = supportedChartTypes.find((t) => t.type === type)!.plot;
      await trx
        .insertInto("charts")
        .values({ dashboard_id: dashboardId, chart_type: type, plot_type: plot, sort: sort++ })
        .execute();
    }
  });
  return dashboardOfSurvey(db, caller, dashboard.survey_id, filters);
}

/** POST .../charts/update/{chartId}: a preliminary question, or two different questions of the chart's kind. */
export async function updateChart(
  db: DB,
  caller: SurveyCaller,
  dashboardId: number,
  chartId: number,
  body: ChartUpdate,
) {
  const dashboard = await requireDashboard(db, caller, dashboardId);
  const chart = await requireChart(db, dashboardId, chartId);
  const structure = await structureFor(db, caller, dashboard.survey_id);
  const type = chart.chart_type as ChartType;
  if (isRangeChart(type)) {
    const [q1, q2] = [body.QuestionId1, body.QuestionId2];
    if (!q1 || !q2 || q1 === q2) throw new AppError("VALIDATION_ERROR", "A range chart needs two different questions");
    for (const q of [q1, q2]) {
      if (structure.questions.get(q)?.Type !== rangeQuestionType[type])
        throw new AppError(
          "VALIDATION_ERROR",
          `Question ${q} is not a ${rangeQuestionType[type]} question of this survey`,
        );
    }
    await db.updateTable("charts").set({ question_id1: q1, question_id2: q2 }).where("id", "=", chartId).execute();
  } else if (isPreQuestionChart(type)) {
    if (!body.AttributeId || !structure.attributes.has(body.AttributeId))
      throw new AppError("VALIDATION_ERROR", "Choose a preliminary question of this survey");
    await db.updateTable("charts").set({ attribute_id: body.AttributeId }).where("id", "=", chartId).execute();
  } else {
    throw new AppError("VALIDATION_ERROR", `A ${type} chart has nothing to choose`);
  }
  return dashboardOfSurvey(db, caller, dashboard.survey_id, body.Filters);
}

/** DELETE .../charts/{chartId}. */
export async function deleteChart(db: DB, caller: SurveyCaller, dashboardId: number, chartId: number) {
  await requireDashboard(db, caller, dashboardId);
  await requireChart(db, dashboardId, chartId);
  await db.deleteFrom("charts").where("id", "=", chartId).execute();
}

/** POST .../charts/reorder/{chartId}?newPosition: moves the chart to a 0-based place and renumbers the rest. */
export async function reorderChart(
  db: DB,
  caller: SurveyCaller,
  dashboardId: number,
  chartId: number,
  position: number,
) {
  await requireDashboard(db, caller, dashboardId);
  await requireChart(db, dashboardId, chartId);
  await db.transaction().execute(async (trx) => {
    const ids = (
      await trx
        .selectFrom("charts")
        .select("id")
        .where("dashboard_id", "=", dashboardId)
        .orderBy("sort")
        .orderBy("id")
        .execute()
    ).map((r) => r.id);
    if (position >= ids.length) throw new AppError("VALIDATION_ERROR", `newPosition must be below ${ids.length}`);
    const order = ids.filter((id) => id !== chartId);
    order.splice(position, 0, chartId);
    for (const [i, id] of order.entries())
      await trx.updateTable("charts").set({ sort: i }).where("id", "=", id).execute();
  });
}
