import { AppError } from "~/domain/errors";
import type { ScoreThresholds, Statistics, StatisticsFilters } from "~/domain/statistics";
import { allQuestions, topLevelQuestions } from "~/domain/visibility";
import type { DB } from "~/server/db/types.server";
import { surveyStructure as structureOf } from "../fill/structure.server";
import { benchmarkableSurveys } from "../survey-lifecycle.server";
import type { SurveyCaller } from "../surveys.server";
import { aggregate, type AggregateOptions } from "./aggregates.server";
import { filtersFor, pairWith } from "./benchmark.server";
import { requireAnalyst } from "./cases.server";
import { surveyFigures } from "./figures.server";

async function figuresOf(
  db: DB,
  caller: SurveyCaller,
  surveyId: number,
  filters: StatisticsFilters,
  thresholds: ScoreThresholds,
  options: AggregateOptions,
) {
  const access = await requireAnalyst(db, caller, surveyId);
  const { survey } = await structureOf(db, access);
  const agg = await aggregate(db, surveyId, allQuestions(topLevelQuestions(survey.Categories)), filters, options);
  return {
    survey,
    body: {
      SurveyId: surveyId,
      Title: survey.Title,
      NumSurveyResponses: agg.cases,
      CategoryStatistics: surveyFigures(survey, agg, thresholds),
    },
  };
}

/**
 * POST /statistics/{surveyId}: the figures of every question under the filters, and with a benchmark survey
 * (a clone of the same original that the caller also analyses) that survey's figures, paired.
 */
export async function surveyStatistics(
  db: DB,
  caller: SurveyCaller,
  surveyId: number,
  filters: StatisticsFilters,
  thresholds: ScoreThresholds,
  benchmarkSurveyId?: number,
  options: AggregateOptions = {},
): Promise<Statistics> {
  const main = await figuresOf(db, caller, surveyId, filters, thresholds, options);
  let benchmark: Statistics["Benchmark"] = null;
  if (benchmarkSurveyId !== undefined) {
    const allowed = await benchmarkableSurveys(db, caller, surveyId);
    if (!allowed.some((s) => s.Id === benchmarkSurveyId)) {
      throw new AppError("VALIDATION_ERROR", `Survey ${benchmarkSurveyId} cannot be compared with survey ${surveyId}`);
    }
    const access = await requireAnalyst(db, caller, benchmarkSurveyId);
    const { survey: other } = await structureOf(db, access);
    const otherFigures = await figuresOf(
      db,
      caller,
      benchmarkSurveyId,
      filtersFor(other, main.survey, filters),
      thresholds,
      options,
    );
    pairWith(main.body.CategoryStatistics, otherFigures.body.CategoryStatistics);
    benchmark = otherFigures.body;
  }
  return { ...main.body, ScoreThresholds: thresholds, Benchmark: benchmark };
}
