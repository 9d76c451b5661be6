/**
 * Answer scores and a survey's total score (docs/decisions/051-instrument-scores.md). An answer's Score is its
 * value in the instrument (PHQ-9: 0, 1, 2, 3; 0 is a score, null is none), apart from the test weight. A
 * survey with a ScoreTitle has a total per case: the sum of the Scores of every answer the case chose; none
 * when no chosen answer has a Score. Free of zod: the editor, the server and the export share it.
 *
 * Scores have at most 4 decimals and are summed as whole ten-thousandths, so a total is exact (0.1 + 0.2 is
 * 0.3) here and in the database's sums alike.
 */
import { allQuestions, topLevelQuestions } from "./visibility";
import { roundAverage } from "./statistics-rules";

export const SCORE_MAX = 9999;
export const SCORE_DECIMALS = 4;
/** Ten-thousandths of a point per point. */
export const SCORE_UNIT = 10 ** SCORE_DECIMALS;

/** A score as a whole number of ten-thousandths. */
export const scoreUnits = (score: number) => Math.round(score * SCORE_UNIT);
/** Ten-thousandths back as a score. */
export const scoreOfUnits = (units: number) => units / SCORE_UNIT;

/** A finite number from −9999 to 9999 with at most 4 decimals. */
export function isScore(value: number): boolean {
  if (!Number.isFinite(value) || Math.abs(value) > SCORE_MAX) return false;
  const scaled = value * SCORE_UNIT;
  return Math.abs(scaled - Math.round(scaled)) < 1e-6;
}

export type TypedScore = { ok: true; score: number | null } | { ok: false };

/**
 * A score as typed into the editor: empty is no score; a decimal comma or point ("1,5", "1.5"), a sign, no
 * grouping; at most 4 decimals, from −9999 to 9999.
 */
export function typedScore(text: string): TypedScore {
  const trimmed = text.trim().replace(/^\u2212/, "-");
  if (trimmed === "") return { ok: true, score: null };
  if (!/^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/.test(trimmed)) return { ok: false };
  const value = Number(trimmed.replace(",", "."));
  // -0 is 0.
  return isScore(value) ? { ok: true, score: value + 0 } : { ok: false };
}

/** A score as the editor's field shows it: the language's decimal mark, no grouping, up to 4 decimals. */
export function scoreText(score: number | null | undefined, locale: string): string {
  if (score === null || score === undefined) return "";
  return score.toLocaleString(locale, { maximumFractionDigits: SCORE_DECIMALS, useGrouping: false });
}

interface ScoredOption<Q> {
  Id: number;
  Score?: number | null;
  SubQuestions: readonly Q[];
}
interface ScoredQuestion {
  Id: number;
  AnswerOptions: readonly ScoredOption<ScoredQuestion>[];
}
/** What the total looks at of a survey; the wire Survey fits it. */
export interface ScoredSurvey {
  ScoreTitle?: string | null;
  Categories: readonly { Questions: readonly ScoredQuestion[] }[];
}

/**
 * Answer option id → its Score in ten-thousandths, for every option (sub-questions' included) that has one;
 * empty when the survey computes no total. The statistics' database sums use the same map.
 */
export function optionScoreUnits(survey: ScoredSurvey): Map<number, number> {
  const out = new Map<number, number>();
  if (!survey.ScoreTitle) return out;
  for (const q of allQuestions(topLevelQuestions(survey.Categories))) {
    for (const o of q.AnswerOptions) if (o.Score !== null && o.Score !== undefined) out.set(o.Id, scoreUnits(o.Score));
  }
  return out;
}

/**
 * A case's total: the sum of the Scores of its chosen answers (every answer of a multiple choice), null
 * when none of them has a Score or the survey has no ScoreTitle. A question that was hidden or left open
 * has no chosen answer and adds nothing: the fill removes the answers of questions that a change hides.
 */
export function caseTotal(survey: ScoredSurvey, chosenOptionIds: Iterable<number>): number | null {
  return totalOfUnits(optionScoreUnits(survey), chosenOptionIds);
}

/** The total of chosen options with the scores of `optionScoreUnits`; null when none has one. */
export function totalOfUnits(scores: ReadonlyMap<number, number>, chosenOptionIds: Iterable<number>): number | null {
  let units = 0;
  let scored = false;
  for (const id of chosenOptionIds) {
    const score = scores.get(id);
    if (score === undefined) continue;
    units += score;
    scored = true;
  }
  return scored ? scoreOfUnits(units) : null;
}

/** A bar of the totals' distribution: one total (From = To), or the totals from From to below To. */
export interface TotalBand {
  From: number;
  To: number;
  Count: number;
}

export interface TotalFigures {
  /** The counted cases that have a total. */
  Cases: number;
  /** 2 decimals. */
  Mean: number | null;
  Median: number | null;
  Min: number | null;
  Max: number | null;
  Distribution: TotalBand[];
}

/** Up to this many distinct totals, each is a bar of its own; more are put into about as many bands. */
export const TOTAL_BARS = 30;

/** The smallest of 1, 2, 5 times a power of ten (whole ten-thousandths) that is at least `raw`. */
function niceStep(raw: number): number {
  let power = 1;
  while (power * 10 <= raw) power *= 10;
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}

/**
 * The figures of the totals from their distribution (total in ten-thousandths → cases): how many cases
 * have one, mean, median, minimum, maximum, and the bars to draw.
 */
export function totalFigures(distribution: ReadonlyMap<number, number>): TotalFigures {
  const entries = [...distribution].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
  const cases = entries.reduce((sum, [, n]) => sum + n, 0);
  if (cases === 0) return { Cases: 0, Mean: null, Median: null, Min: null, Max: null, Distribution: [] };
  const sum = entries.reduce((s, [units, n]) => s + units * n, 0);
  /** The total of the k-th case (0-based) in order. */
  const nth = (k: number) => {
    let seen = 0;
    for (const [units, n] of entries) {
      seen += n;
      if (k < seen) return units;
    }
    return entries[entries.length - 1][0];
  };
  const middle = Math.floor(cases / 2);
  const median = cases % 2 === 1 ? nth(middle) : (nth(middle - 1) + nth(middle)) / 2;
  const min = entries[0][0];
  const max = entries[entries.length - 1][0];
  let bands: TotalBand[];
  if (entries.length <= TOTAL_BARS) {
    bands = entries.map(([units, n]) => ({ From: scoreOfUnits(units), To: scoreOfUnits(units), Count: n }));
  } else {
    const step = niceStep((max - min) / TOTAL_BARS);
    const first = Math.floor(min / step) * step;
    const counts = new Map<number, number>();
    for (const [units, n] of entries) {
      const start = first + Math.floor((units - first) / step) * step;
      counts.set(start, (counts.get(start) ?? 0) + n);
    }
    bands = [];
    for (let start = first; start <= max; start += step) {
      bands.push({ From: scoreOfUnits(start), To: scoreOfUnits(start + step), Count: counts.get(start) ?? 0 });
    }
  }
  return {
    Cases: cases,
    Mean: roundAverage(sum / cases / SCORE_UNIT),
    Median: median / SCORE_UNIT,
    Min: scoreOfUnits(min),
    Max: scoreOfUnits(max),
    Distribution: bands,
  };
}
