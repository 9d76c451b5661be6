import type { StatisticsFilters } from "~/domain/statistics";
import type { Question } from "~/domain/survey";
import type { Executor } from "../survey-access.server";
import { countedCondition } from "../statistics/cases.server";

/**
 * The counted cases of one survey under the filters, and the test questions that score them. `shared`
 * holds what several charts of one dashboard need (the counted cases, every case's score), read once.
 */
export interface ChartScope {
  db: Executor;
  surveyId: number;
  filters: StatisticsFilters;
  testQuestions: Question[];
  shared: Map<string, Promise<unknown>>;
}

export function chartScope(
  db: Executor,
  surveyId: number,
  filters: StatisticsFilters,
  testQuestions: Question[],
): ChartScope {
  return { db, surveyId, filters, testQuestions, shared: new Map() };
}

function once<T>(s: ChartScope, key: string, make: () => Promise<T>): Promise<T> {
  let value = s.shared.get(key) as Promise<T> | undefined;
  if (!value) {
    value = make();
    s.shared.set(key, value);
  }
  return value;
}

export interface CaseRow {
  id: number;
  patientId: string;
  /** The closing day and time as stored (YYYY-MM-DD…). */
  closedAt: string;
}

/** The counted cases in closing order (then by id), read once per scope. */
export function casesByClosing(s: ChartScope): Promise<CaseRow[]> {
  return once(s, "cases", async () => {
    const rows = await s.db
      .selectFrom("patient_data as pd")
      .select(["pd.id", "pd.patient_id", "pd.closed_at"])
      .where("pd.survey_id", "=", s.surveyId)
      .where(countedCondition(s.db, s.filters))
      .execute();
    const out = rows.map((r) => ({ id: r.id, patientId: r.patient_id, closedAt: r.closed_at ?? "" }));
    return out.sort((a, b) => (a.closedAt < b.closedAt ? -1 : a.closedAt > b.closedAt ? 1 : a.id - b.id));
  });
}

const dayOf = (c: CaseRow) => c.closedAt.slice(0, 10);

/** Answer option id → weight, for the correct options of the test questions (decision 011). */
export function correctWeights(s: ChartScope): Map<number, number> {
  const weights = new Map<number, number>();
  for (const q of s.testQuestions) {
    for (const o of q.AnswerOptions) if (o.WeightingState === 1) weights.set(o.Id, o.Weight ?? 1);
  }
  return weights;
}

/**
 * Case id → score of every counted case, read once per scope: a case's score is the sum of the weights of
 * its chosen correct options (decision 011); a case without one is absent (0). The chosen correct options
 * are read for all the survey's cases from the covering option index and kept for the counted ones here,
 * which is cheaper than asking the database to test each row's case.
 */
export function caseScores(s: ChartScope): Promise<Map<number, number>> {
  return once(s, "scores", async () => {
    const weights = correctWeights(s);
    if (weights.size === 0) return new Map<number, number>();
    const [counted, rows] = await Promise.all([
      casesByClosing(s),
      s.db
        .selectFrom("question_responses as qr")
        .select(["qr.patient_data_id", "qr.answer_option_id"])
        .where("qr.survey_id", "=", s.surveyId)
        .where(
          "qr.question_id",
          "in",
          s.testQuestions.map((q) => q.Id),
        )
        .where("qr.answer_option_id", "in", [...weights.keys()])
        .execute(),
    ]);
    const ids = new Set(counted.map((c) => c.id));
    const scores = new Map<number, number>();
    for (const r of rows) {
      if (!ids.has(r.patient_data_id)) continue;
      scores.set(r.patient_data_id, (scores.get(r.patient_data_id) ?? 0) + weights.get(r.answer_option_id!)!);
    }
    return scores;
  });
}

/** Cases closed per day, in day order. */
export async function countsByDay(s: ChartScope) {
  const counts = new Map<string, number>();
  for (const c of await casesByClosing(s)) counts.set(dayOf(c), (counts.get(dayOf(c)) ?? 0) + 1);
  return [...counts].map(([Date, Count]) => ({ Date, Count }));
}

/** The sum of the scores of the cases closed per day. */
export async function scoreSumsByDay(s: ChartScope): Promise<Map<string, number>> {
  if (s.testQuestions.length === 0) return new Map();
  const [rows, scores] = await Promise.all([casesByClosing(s), caseScores(s)]);
  const sums = new Map<string, number>();
  for (const c of rows) sums.set(dayOf(c), (sums.get(dayOf(c)) ?? 0) + (scores.get(c.id) ?? 0));
  return sums;
}
