import { questionTypeCode } from "~/domain/question-types";
import {
  percentOf,
  roundAverage,
  roundScorePercentage,
  roundTo,
  scoreFlag,
  type AnswerStatistics,
  type CategoryStatistics,
  type CountedValuesStatistics,
  type QuestionStatistics,
  type ScoreThresholds,
} from "~/domain/statistics";
import { answerText, type Question, type Survey } from "~/domain/survey";
import { topWords } from "~/domain/word-cloud";
import type { Aggregates } from "./aggregates.server";

/** Counted values listed per question at most; Min, Max and Average always cover all. */
export const COUNTED_VALUES_LIMIT = 50;
/** Words in a question's word cloud at most. */
export const CLOUD_WORDS = 60;

/** A test question's best possible score: the largest correct weight, or all correct weights of a multiple choice. */
export function maxScore(q: Question): number {
  const weights = q.AnswerOptions.filter((o) => o.WeightingState === 1).map((o) => o.Weight ?? 1);
  if (weights.length === 0) return 0;
  const single = q.Type === "SingleSelection" || (q.Type === "Image" && !q.AllowMultipleAnswers);
  return single ? Math.max(...weights) : weights.reduce((a, b) => a + b, 0);
}

/** A question that scores: a test question with at least one correct option (its maximum above 0). */
export function isScoredQuestion(q: Question): boolean {
  return q.IsTestQuestion && maxScore(q) > 0;
}

/** Average score of the cases that answered: each chosen correct option adds its weight. */
function averageScore(q: Question, agg: Aggregates, answered: number): number | null {
  if (answered === 0) return null;
  const counts = agg.options.get(q.Id);
  let total = 0;
  for (const o of q.AnswerOptions) if (o.WeightingState === 1) total += (counts?.get(o.Id) ?? 0) * (o.Weight ?? 1);
  return total / answered;
}

function counted<V extends number | string>(
  values: Map<V, number> | undefined,
  toNumber: (v: V) => number,
  fromNumber: (n: number) => number | string,
): CountedValuesStatistics {
  // Each value's number is worked out once: a date's parse inside the sort's comparison would run for
  // every comparison of some 200,000 values.
  const entries = [...(values ?? new Map<V, number>())].map(([v, count]) => ({ v, count, x: toNumber(v) }));
  if (entries.length === 0)
    return { CountedValues: [], CountedValuesTruncated: false, Min: null, Max: null, Average: null };
  let sum = 0;
  let n = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const { x, count } of entries) {
    sum += x * count;
    n += count;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  const top = entries.sort((a, b) => b.count - a.count || a.x - b.x).slice(0, COUNTED_VALUES_LIMIT);
  return {
    CountedValues: top.sort((a, b) => a.x - b.x).map((e) => ({ Value: e.v, Count: e.count })),
    CountedValuesTruncated: entries.length > COUNTED_VALUES_LIMIT,
    Min: fromNumber(min),
    Max: fromNumber(max),
    Average: fromNumber(sum / n),
  };
}

/** Stored date-times are wall-clock "YYYY-MM-DDTHH:mm", computed on as if UTC and written back the same way. */
const numberToDate = (ms: number) => new Date(Math.round(ms / 60_000) * 60_000).toISOString().slice(0, 16);

/** A date-time question's figures: answers listed by day; Min, Max and Average keep the time. */
function countedDates(q: Question, agg: Aggregates): CountedValuesStatistics {
  const days = counted(
    agg.dates.get(q.Id),
    (d) => Date.parse(`${d}T00:00:00Z`),
    (n) => new Date(n).toISOString().slice(0, 10),
  );
  const ends = agg.dateEnds.get(q.Id);
  const n = agg.answered.get(q.Id) ?? 0;
  if (!ends || n === 0) return days;
  return {
    ...days,
    Min: ends.first,
    Max: ends.last,
    Average: numberToDate(((agg.dateSeconds.get(q.Id) ?? 0) * 1000) / n),
  };
}

/** Each scored question's unrounded average score, so a category sums exact values, not rounded ones. */
const exactAverages = new WeakMap<QuestionStatistics, number>();

/**
 * One question's figures, with its sub-questions under the answers that lead to them. `asked`: the counted
 * cases it stands before (all of them at the top level, those that chose its answer below it), of which its
 * Dependence may show it to fewer.
 */
export function questionFigures(
  q: Question,
  agg: Aggregates,
  thresholds: ScoreThresholds,
  asked: number,
): QuestionStatistics {
  const answered = agg.answered.get(q.Id) ?? 0;
  const counts = agg.options.get(q.Id);
  const answers: AnswerStatistics[] = q.AnswerOptions.map((o) => {
    const n = counts?.get(o.Id) ?? 0;
    return {
      AnswerOptionId: o.Id,
      AnswerOptionText: answerText(o),
      PercentageAnswerOptionResponses: percentOf(n, answered),
      TotalAnswerOptionResponses: n,
      SubQuestionStatistics: o.SubQuestions.map((s) => questionFigures(s, agg, thresholds, n)),
    };
  });
  const scored = q.IsTestQuestion;
  const max = scored ? maxScore(q) : 0;
  const average = scored ? averageScore(q, agg, answered) : null;
  const percentage = average !== null && max > 0 ? roundScorePercentage((average / max) * 100) : null;
  const figures: QuestionStatistics = {
    QuestionId: q.Id,
    QuestionTitle: q.Title,
    Type: questionTypeCode(q.Type),
    Unit: q.Unit,
    IsScoredQuestion: scored,
    ScoreFlag: scored ? scoreFlag(percentage, answered, thresholds) : null,
    ScorePercentage: percentage,
    ScoreResult: average === null ? null : roundTo(average, 2),
    ScoreMax: scored ? max : null,
    TotalQuestionResponses: answered,
    NotAnswered: Math.max(0, (agg.shown.get(q.Id) ?? asked) - answered),
    AnswerStatistics: answers,
    WordCloud: q.Type === "FreeText" ? topWords(agg.words.get(q.Id) ?? new Map(), CLOUD_WORDS) : [],
    Responses: q.Type === "FreeText" ? (agg.latestTexts.get(q.Id) ?? []) : [],
    CountedValuesStatistics:
      q.Type === "Numerical"
        ? counted(agg.numbers.get(q.Id), (v) => v, roundAverage)
        : q.Type === "DateTime"
          ? countedDates(q, agg)
          : null,
    AllowFileAttachments: q.AllowFileAttachments,
    NumberOfFileAttachments: agg.files.get(q.Id) ?? 0,
  };
  if (average !== null) exactAverages.set(figures, average);
  return figures;
}

/** Scored questions of a question list, sub-questions included. */
function scoredOf(list: QuestionStatistics[]): QuestionStatistics[] {
  return list.flatMap((q) => [
    ...(q.IsScoredQuestion ? [q] : []),
    ...scoredOf(q.AnswerStatistics.flatMap((a) => a.SubQuestionStatistics)),
  ]);
}

/**
 * Every category's figures. A category with test questions is scored: the sum of the average scores of
 * its answered test questions against the sum of their maxima, flagged by the same thresholds (with the
 * most answered of those questions as its number of cases).
 */
export function surveyFigures(survey: Survey, agg: Aggregates, thresholds: ScoreThresholds): CategoryStatistics[] {
  return survey.Categories.map((c) => {
    const questions = c.Questions.map((q) => questionFigures(q, agg, thresholds, agg.cases));
    const scored = scoredOf(questions);
    const answered = scored.filter((q) => q.ScoreResult !== null && (q.ScoreMax ?? 0) > 0);
    const result = answered.reduce((sum, q) => sum + (exactAverages.get(q) ?? q.ScoreResult ?? 0), 0);
    const max = answered.reduce((sum, q) => sum + (q.ScoreMax ?? 0), 0);
    const percentage = max > 0 ? roundScorePercentage((result / max) * 100) : null;
    const cases = Math.max(0, ...answered.map((q) => q.TotalQuestionResponses));
    return {
      CategoryId: c.Id,
      CategoryText: c.Title,
      IsScoredCategory: scored.length > 0,
      ScoreFlag: scored.length > 0 ? scoreFlag(percentage, cases, thresholds) : null,
      ScorePercentage: percentage,
      ScoreResult: scored.length > 0 && max > 0 ? roundTo(result, 2) : null,
      ScoreMax: scored.length > 0 ? (max > 0 ? max : scored.reduce((sum, q) => sum + (q.ScoreMax ?? 0), 0)) : null,
      QuestionStatistics: questions,
    };
  });
}
