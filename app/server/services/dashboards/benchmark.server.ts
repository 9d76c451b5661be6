import type { Dashboard } from "~/domain/dashboards";
import { translateSurvey } from "~/domain/content-languages";
import { AppError } from "~/domain/errors";
import type { StatisticsFilters } from "~/domain/statistics";
import type { DB } from "~/server/db/types.server";
import { surveyStructure, type SurveyStructure } from "../fill/structure.server";
import { filtersFor } from "../statistics/benchmark.server";
import { requireAnalyst } from "../statistics/cases.server";
import { isScoredQuestion } from "../statistics/figures.server";
import { benchmarkableSurveys } from "../survey-lifecycle.server";
import type { SurveyCaller } from "../surveys.server";
import { chartData, type ChartRow } from "./chart-data.server";
import { chartScope } from "./scores.server";

/** The other survey's id at the same place (a clone keeps its order), or null. */
function mapId<T extends { Id: number }>(
  id: number | null,
  from: readonly T[],
  to: readonly T[],
  same: (a: T, b: T) => boolean,
) {
  if (id === null) return null;
  const i = from.findIndex((x) => x.Id === id);
  const target = to[i];
  return i >= 0 && target && same(from[i], target) ? target.Id : null;
}

/**
 * POST /statistics-dashboards/{id}/benchmark/{surveyId}: the same charts drawn over another survey (a clone of
 * the same original the caller also analyses), its questions and preliminary questions matched by place and
 * the filters mapped as the results' benchmark maps them. The charts keep the dashboard's chart ids.
 */
export async function benchmarkDashboard(
  db: DB,
  caller: SurveyCaller,
  dashboardId: number,
  otherSurveyId: number,
  filters: StatisticsFilters,
  language?: string,
): Promise<Dashboard> {
  const dashboard = await db
    .selectFrom("dashboards")
    .select(["id", "survey_id"])
    .where("id", "=", dashboardId)
    .executeTakeFirst();
  if (!dashboard) throw new AppError("NOT_FOUND", `Dashboard ${dashboardId} does not exist`);
  const main: SurveyStructure = await surveyStructure(db, await requireAnalyst(db, caller, dashboard.survey_id));
  const allowed = await benchmarkableSurveys(db, caller, dashboard.survey_id);
  if (!allowed.some((s) => s.Id === otherSurveyId))
    throw new AppError(
      "VALIDATION_ERROR",
      `Survey ${otherSurveyId} cannot be compared with survey ${dashboard.survey_id}`,
    );
  const other = await surveyStructure(db, await requireAnalyst(db, caller, otherSurveyId));
  const rows: ChartRow[] = await db
    .selectFrom("charts")
    .select(["id", "chart_type", "plot_type", "attribute_id", "question_id1", "question_id2", "sort"])
    .where("dashboard_id", "=", dashboardId)
    .orderBy("sort")
    .orderBy("id")
    .execute();
  const fromQ = [...main.questions.values()];
  const toQ = [...other.questions.values()];
  const sameType = (a: { Type: string }, b: { Type: string }) => a.Type === b.Type;
  const scored = toQ.filter(isScoredQuestion);
  const scope = chartScope(db, otherSurveyId, filtersFor(other.survey, main.survey, filters), scored);
  // Its texts in the language asked for where that survey offers it (docs/decisions/056-statistics-languages.md).
  const labelled = language ? translateSurvey(other.survey, language) : other.survey;
  const charts = await Promise.all(
    rows.map((row) =>
      chartData(scope, labelled, {
        ...row,
        attribute_id: mapId(row.attribute_id, main.survey.PatientForm, other.survey.PatientForm, () => true),
        question_id1: mapId(row.question_id1, fromQ, toQ, sameType),
        question_id2: mapId(row.question_id2, fromQ, toQ, sameType),
      }),
    ),
  );
  return {
    Id: dashboard.id,
    SurveyId: otherSurveyId,
    Charts: charts,
    HasScoredQuestions: scored.length > 0,
    Choices: { NumericalQuestions: [], DateTimeQuestions: [], PreliminaryQuestions: [] },
  };
}
