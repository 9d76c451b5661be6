import { sql, type Expression, type SqlBool } from "kysely";
import type { StatisticsFilters } from "~/domain/statistics";
import type { Question } from "~/domain/survey";
import { readBeside } from "~/server/db/db.server";

import { countedCondition } from "../statistics/cases.server";
import type { Executor } from "~/server/db/types.server";

/**
 * The counted cases of one survey under the filters, and the scored questions that score them (test
 * questions with a correct option, `isScoredQuestion`). Every figure
 * of a chart is worked out in the database (grouped, paired and limited there), so that a dashboard reads
 * tens of rows per chart rather than a row per case; the charts' queries run side by side (`readBeside`).
 */
export interface ChartScope {
  db: Executor;
  surveyId: number;
  filters: StatisticsFilters;
  testQuestions: Question[];
}

export function chartScope(
  db: Executor,
  surveyId: number,
  filters: StatisticsFilters,
  testQuestions: Question[],
): ChartScope {
  return { db, surveyId, filters, testQuestions };
}

/** Answer option id → weight, for the correct options of the test questions (decision 011). */
export function correctWeights(s: ChartScope): Map<number, number> {
  const weights = new Map<number, number>();
  for (const q of s.testQuestions) {
    for (const o of q.AnswerOptions) if (o.WeightingState === 1) weights.set(o.Id, o.Weight ?? 1);
  }
  return weights;
}

/** The weight of the answer row `qr`'s option when it is a correct one, else 0. */
function weightOf(weights: Map<number, number>): Expression<number> {
  if (weights.size === 0) return sql<number>`0`;
  const cases = [...weights].map(([option, weight]) => sql`when ${option} then ${weight}`);
  return sql<number>`(case qr.answer_option_id ${sql.join(cases, sql` `)} else 0 end)`;
}

/** Whether the answer row `qr` chose a correct option of a test question (never, when there is none). */
function isCorrect(s: ChartScope, weights: Map<number, number>): Expression<SqlBool> {
  if (weights.size === 0) return sql<SqlBool>`1 = 0`;
  const questions = s.testQuestions.map((q) => q.Id);
  return sql<SqlBool>`(qr.question_id in (${sql.join(questions)}) and qr.answer_option_id in (${sql.join([...weights.keys()])}))`;
}

/**
 * Case id → score, as a subquery (`patient_data_id`, `score`): a case's score is the sum of the weights of
 * its chosen correct options (decision 011), read from the covering option index; a case without one has
 * no row (score 0).
 */
function caseScores(s: ChartScope) {
  const weights = correctWeights(s);
  return s.db
    .selectFrom("question_responses as qr")
    .select(["qr.patient_data_id", sql<number>`sum(${weightOf(weights)})`.as("score")])
    .where("qr.survey_id", "=", s.surveyId)
    .where(isCorrect(s, weights))
    .groupBy("qr.patient_data_id");
}

/** The counted cases (`pd`) of the scope with their scores (`sc.score`, null for 0). */
function countedWithScores(s: ChartScope) {
  return s.db
    .selectFrom("patient_data as pd")
    .leftJoin(caseScores(s).as("sc"), "sc.patient_data_id", "pd.id")
    .where("pd.survey_id", "=", s.surveyId)
    .where(countedCondition(s.db, s.filters));
}

const closingDay = sql<string>`substr(coalesce(pd.closed_at, ''), 1, 10)`;

/** Per closing day in day order: the counted cases closed that day and, when asked, the sum of their scores. */
export async function dayFigures(s: ChartScope, withScores: boolean) {
  const query = withScores
    ? countedWithScores(s).select(sql<number>`sum(coalesce(sc.score, 0))`.as("score"))
    : s.db
        .selectFrom("patient_data as pd")
        .select(sql<number>`0`.as("score"))
        .where("pd.survey_id", "=", s.surveyId)
        .where(countedCondition(s.db, s.filters));
  const rows = await readBeside(
    s.db,
    query
      .select([closingDay.as("day"), sql<number>`count(*)`.as("n")])
      .groupBy(closingDay)
      .orderBy(closingDay),
  );
  return rows.map((r) => ({ Date: r.day, Count: Number(r.n), ScoreSum: Number(r.score ?? 0) }));
}

/** The latest `limit` counted cases by closing (then id), oldest first, each with its score. */
export async function latestScores(s: ChartScope, limit: number) {
  const latest = s.db
    .selectFrom("patient_data as pd")
    .select(["pd.id", "pd.patient_id", "pd.closed_at"])
    .where("pd.survey_id", "=", s.surveyId)
    .where(countedCondition(s.db, s.filters))
    .orderBy("pd.closed_at", "desc")
    .orderBy("pd.id", "desc")
    .limit(limit);
  const weights = correctWeights(s);
  const rows = await readBeside(
    s.db,
    s.db
      .selectFrom(latest.as("l"))
      .leftJoin("question_responses as qr", (join) =>
        join.onRef("qr.patient_data_id", "=", "l.id").on(isCorrect(s, weights)),
      )
      .select(["l.id", "l.patient_id", "l.closed_at", sql<number>`coalesce(sum(${weightOf(weights)}), 0)`.as("score")])
      .groupBy(["l.id", "l.patient_id", "l.closed_at"]),
  );
  const closed = (r: { closed_at: string | null }) => r.closed_at ?? "";
  rows.sort((a, b) => (closed(a) < closed(b) ? -1 : closed(a) > closed(b) ? 1 : a.id - b.id));
  return rows.map((r) => ({ patientId: r.patient_id, closedAt: closed(r), score: Number(r.score) }));
}

/**
 * For each answer option of a preliminary question, how many of the counted cases that chose it have each
 * score: the score distribution per option, from which the box plot's quantiles are read.
 */
export async function scoreCountsByOption(s: ChartScope, attributeId: number) {
  const score = sql<number>`coalesce(sc.score, 0)`;
  const rows = await readBeside(
    s.db,
    countedWithScores(s)
      .innerJoin("attribute_responses as ar", "ar.patient_data_id", "pd.id")
      .select(["ar.answer_option_id", score.as("score"), sql<number>`count(*)`.as("n")])
      .where("ar.survey_id", "=", s.surveyId)
      .where("ar.attribute_id", "=", attributeId)
      .groupBy(["ar.answer_option_id", score]),
  );
  const byOption = new Map<number, { score: number; n: number }[]>();
  for (const r of rows) {
    const list = byOption.get(r.answer_option_id) ?? [];
    list.push({ score: Number(r.score), n: Number(r.n) });
    byOption.set(r.answer_option_id, list);
  }
  for (const list of byOption.values()) list.sort((a, b) => a.score - b.score);
  return byOption;
}
