import { sql } from "kysely";
import type { StatisticsFilters } from "~/domain/statistics";
import type { Question } from "~/domain/survey";
import type { Executor } from "../survey-access.server";
import { countedCases } from "../statistics/cases.server";

/** The counted cases of one survey under the filters, and the test questions that score them. */
export interface ChartScope {
  db: Executor;
  surveyId: number;
  filters: StatisticsFilters;
  testQuestions: Question[];
}

export const cases = (s: ChartScope) => countedCases(s.db, s.surveyId, s.filters);

export const dayOf = sql<string>`substr(pd.closed_at, 1, 10)`;

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

/** Case id → score, for the cases given (cases without a correct answer score 0 and are absent). */
export async function scoresOfCases(s: ChartScope, caseIds: number[]): Promise<Map<number, number>> {
  if (caseIds.length === 0 || s.testQuestions.length === 0) return new Map();
  const rows = await correctAnswers(s)
    .where("qr.patient_data_id", "in", caseIds)
    .select(["qr.patient_data_id", weightSum.as("score")])
    .groupBy("qr.patient_data_id")
    .execute();
  return new Map(rows.map((r) => [r.patient_data_id, Number(r.score)]));
}

/** Cases closed per day. */
export async function countsByDay(s: ChartScope) {
  const rows = await s.db
    .selectFrom("patient_data as pd")
    .select([dayOf.as("day"), (eb) => eb.fn.countAll<number>().as("n")])
    .where("pd.id", "in", cases(s))
    .groupBy(dayOf)
    .orderBy(dayOf)
    .execute();
  return rows.map((r) => ({ Date: r.day, Count: Number(r.n) }));
}

/** The sum of the scores of the cases closed per day. */
export async function scoreSumsByDay(s: ChartScope): Promise<Map<string, number>> {
  if (s.testQuestions.length === 0) return new Map();
  const rows = await correctAnswers(s)
    .innerJoin("patient_data as pd", "pd.id", "qr.patient_data_id")
    .select([dayOf.as("day"), weightSum.as("score")])
    .groupBy(dayOf)
    .execute();
  return new Map(rows.map((r) => [r.day, Number(r.score)]));
}
