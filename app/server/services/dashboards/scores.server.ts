import { sql } from "kysely";
import type { StatisticsFilters } from "~/domain/statistics";
import type { Question } from "~/domain/survey";
import type { Executor } from "../survey-access.server";
import { countedCases, countedCondition } from "../statistics/cases.server";

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

export const cases = (s: ChartScope) => countedCases(s.db, s.surveyId, s.filters);

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

export const dayOf = (c: CaseRow) => c.closedAt.slice(0, 10);

/**
 * The chosen correct options of the counted cases' test questions (decision 011: a case's score on a test
 * question is the sum of the weights of its chosen correct options), as a query to group further.
 */
export function correctAnswers(s: ChartScope) {
  const ids = s.testQuestions.map((q) => q.Id);
  return s.db
    .selectFrom("question_responses as qr")
    .innerJoin("answer_options as ao", "ao.id", "qr.answer_option_id")
    .where("qr.survey_id", "=", s.surveyId)
    .where("qr.patient_data_id", "in", cases(s))
    .where("ao.weighting_state", "=", 1)
    .where("qr.question_id", "in", ids.length > 0 ? ids : [0]);
}

export const weightSum = sql<number>`sum(coalesce(ao.weight, 1))`;

/** Case id → score of every counted case, read once per scope (a case without a correct answer is absent: 0). */
export function caseScores(s: ChartScope): Promise<Map<number, number>> {
  return once(s, "scores", async () => {
    if (s.testQuestions.length === 0) return new Map();
    const rows = await correctAnswers(s)
      .select(["qr.patient_data_id", weightSum.as("score")])
      .groupBy("qr.patient_data_id")
      .execute();
    return new Map(rows.map((r) => [r.patient_data_id, Number(r.score)]));
  });
}

/** Case id → score, for the cases given only (cases without a correct answer score 0 and are absent). */
export async function scoresOfCases(s: ChartScope, caseIds: number[]): Promise<Map<number, number>> {
  if (caseIds.length === 0 || s.testQuestions.length === 0) return new Map();
  const known = s.shared.get("scores") as Promise<Map<number, number>> | undefined;
  if (known) return known;
  const rows = await correctAnswers(s)
    .where("qr.patient_data_id", "in", caseIds)
    .select(["qr.patient_data_id", weightSum.as("score")])
    .groupBy("qr.patient_data_id")
    .execute();
  return new Map(rows.map((r) => [r.patient_data_id, Number(r.score)]));
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
