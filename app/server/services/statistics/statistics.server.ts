import { AppError } from "~/domain/errors";
import { optionScoreUnits, totalFigures } from "~/domain/scores";
import type { ScoreThresholds, Statistics, StatisticsFilters } from "~/domain/statistics";
import type { Survey } from "~/domain/survey";
import { surveyQuestions } from "~/domain/visibility";
import { labelFigures, labelsOf } from "~/domain/statistics-languages";
import type { DB } from "~/server/db/types.server";
import { statisticsDuration, timed } from "~/server/metrics.server";
import { surveyStructure as structureOf } from "../fill/structure.server";
import { benchmarkableSurveys } from "../survey-lifecycle.server";
import { loadSurveyTree } from "../survey-tree.server";
import type { SurveyCaller } from "../surveys.server";
import { aggregate, type AggregateOptions } from "./aggregates.server";
import { filtersFor, pairWith } from "./benchmark.server";
import { busiestSurveys, requireAnalyst } from "./cases.server";
import { surveyFigures } from "./figures.server";

type Figures = { survey: Survey; body: Omit<Statistics, "ScoreThresholds" | "Benchmark"> };

/**
 * Figures already computed, by survey, its content (Hash and modification time), its statistics counter
 * and the request (filters, thresholds, options). The counter is moved by triggers in the transaction of
 * every write that changes what the statistics count (migration 0009), so a hit is the figures a fresh run
 * would give, also when another copy of the server made the write.
 */
const kept = new Map<string, Figures>();
const MAX_KEPT = 64;

/** How often figures were computed and how often they were kept ones (for tests and the bench). */
export const statisticsRuns = { computed: 0, kept: 0 };

/** Forgets every kept figure (a fresh run to compare with). */
export function forgetKeptStatistics(): void {
  kept.clear();
}

/** The survey's statistics counter; null without one (nothing would move it, so nothing is kept). */
async function versionOf(db: DB, surveyId: number): Promise<number | null> {
  const row = await db
    .selectFrom("statistics_versions")
    .select("version")
    .where("survey_id", "=", surveyId)
    .executeTakeFirst();
  return row ? Number(row.version) : null;
}

async function figuresOf(
  db: DB,
  caller: SurveyCaller,
  surveyId: number,
  filters: StatisticsFilters,
  thresholds: ScoreThresholds,
  options: AggregateOptions,
): Promise<Figures> {
  const access = await requireAnalyst(db, caller, surveyId);
  // The counter is read before the answers: figures kept under it are never older than it says.
  const version = await versionOf(db, surveyId);
  const current = `${surveyId}|${version}|`;
  const key =
    current + JSON.stringify([access.row.hash, access.row.updated_at, access.rights, filters, thresholds, options]);
  const hit = version === null ? undefined : kept.get(key);
  if (hit) {
    statisticsRuns.kept++;
    // Most recently used last, so the oldest entry is the one dropped.
    kept.delete(key);
    kept.set(key, hit);
    return structuredClone(hit);
  }
  statisticsRuns.computed++;
  const { survey } = await structureOf(db, access);
  const scores = optionScoreUnits(survey);
  const agg = await aggregate(db, surveyId, surveyQuestions(survey), filters, { ...options, scores });
  const figures: Figures = {
    survey,
    body: {
      SurveyId: surveyId,
      Title: survey.Title,
      NumSurveyResponses: agg.cases,
      CategoryStatistics: surveyFigures(survey, agg, thresholds),
      ScoreTotal: survey.ScoreTitle ? { Title: survey.ScoreTitle, ...totalFigures(agg.totals) } : null,
    },
  };
  if (version === null) return figures;
  // Figures of the survey under an earlier counter are of no further use.
  for (const k of kept.keys()) if (k.startsWith(`${surveyId}|`) && !k.startsWith(current)) kept.delete(k);
  if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(key, structuredClone(figures));
  return figures;
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
  language?: string,
): Promise<Statistics> {
  return timed(statisticsDuration, () =>
    statisticsOf(db, caller, surveyId, filters, thresholds, benchmarkSurveyId, options, language),
  );
}

/**
 * The figures' labels in a language the survey offers (docs/decisions/056-statistics-languages.md): the
 * figures are computed and kept by ids in the source language; the texts beside them are put in afterwards.
 */
function inLanguage(figures: Figures, language: string | undefined): Figures["body"] {
  if (!language || language === figures.survey.SourceLanguage) return figures.body;
  return labelFigures(figures.body, labelsOf(figures.survey, language));
}

async function statisticsOf(
  db: DB,
  caller: SurveyCaller,
  surveyId: number,
  filters: StatisticsFilters,
  thresholds: ScoreThresholds,
  benchmarkSurveyId: number | undefined,
  options: AggregateOptions,
  language: string | undefined,
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
    benchmark = inLanguage(otherFigures, language);
  }
  return { ...inLanguage(main, language), ScoreThresholds: thresholds, Benchmark: benchmark };
}

/** How many surveys a start readies: those with the most closed cases. */
const WARM_SURVEYS = 3;

/**
 * Readies the statistics after the server starts, in the background: the first figures asked for after a
 * start took several times as long as the next (docs/performance.md, "Cold start"): the reader threads were
 * started, their statements prepared and the statistics indexes read into their caches on demand, and the
 * free texts of a bulk import (or of the migration that brought word counting) were split into words then.
 * This runs the same passes once for the surveys with the most closed cases, word clouds included, so that
 * the first person who asks finds all of it ready. Nothing is kept (the figures depend on the caller's
 * rights). Returns the surveys readied. Stops between its steps once `signal` is aborted (the server stopping),
 * rejecting with the signal's reason.
 */
export async function warmStatistics(db: DB, signal?: AbortSignal): Promise<number[]> {
  const top = await busiestSurveys(db, WARM_SURVEYS);
  const rights = { CanParticipate: false, CanEdit: false, CanApprove: true };
  for (const surveyId of top) {
    signal?.throwIfAborted();
    const survey = await loadSurveyTree(db, surveyId, rights);
    if (!survey) continue;
    const scores = optionScoreUnits(survey);
    await aggregate(db, surveyId, surveyQuestions(survey), {}, { wordCloud: true, signal, scores });
  }
  return top;
}
