import { createHash } from "node:crypto";
import { sql, type SqlBool } from "kysely";
import type { StatisticsFilters } from "~/domain/statistics";
import type { Question } from "~/domain/survey";
import { readBeside } from "~/server/db/db.server";
import type { CaseTotalsTable, Executor } from "~/server/db/types.server";
import { log } from "~/server/log.server";
import { countedCondition } from "./cases.server";
import { inIdList } from "./passes.server";

/**
 * The counted cases' total scores (docs/decisions/051-instrument-scores.md). A case's total is the sum of the
 * scores of its chosen answers (`caseTotal` in app/domain/scores.ts). Adding them up groups every scored
 * answer of the survey by its case: at 100,000 cases with a 20-item scale, 2,000,000 answers sorted or
 * hashed by case cost 0.7 to 1.5 s on either database, more than all the other figures together. So each
 * case's total is kept once added up (`case_totals`, migration 0018), with the case's answers version (moved
 * by trigger with every write to its answers, migration 0014) and the survey's scores it was added up with,
 * as the export keeps its lines (decision 031). The figures are then one grouped count over the counted
 * cases' kept totals, and only the cases whose answers or scores changed since are added up again.
 */

/** Question → its answer options that have a score → the score in ten-thousandths. */
export type ScoredQuestions = ReadonlyMap<number, ReadonlyMap<number, number>>;

/** The questions among `questions` with options in `scores` (answer option → ten-thousandths). */
export function scoredQuestions(questions: readonly Question[], scores: ReadonlyMap<number, number>): ScoredQuestions {
  const out = new Map<number, Map<number, number>>();
  for (const q of questions) {
    const options = q.AnswerOptions.filter((o) => scores.has(o.Id)).map((o) => [o.Id, scores.get(o.Id)!] as const);
    if (options.length > 0) out.set(q.Id, new Map(options));
  }
  return out;
}

/** What a kept total was added up with: a digest of every scored option's score, in the order of their ids. */
export function scoresKey(scored: ScoredQuestions): string {
  const pairs = [...scored.values()].flatMap((options) => [...options]).sort((a, b) => a[0] - b[0]);
  return createHash("sha256").update(JSON.stringify(pairs)).digest("base64url");
}

/** Cases added up per query, by their ids (one JSON parameter). */
const CASES_PER_READ = 2000;
/**
 * From this many cases to add up, the survey's scored answers are added up all at once instead: at 100,000
 * stale cases of 100,000 (a survey's scores changed) 0.8 s against 2.1 to 4 s by their ids (SQLite).
 */
const CASES_BY_SURVEY = 10_000;
/** Kept totals written per statement. */
const ROWS_PER_WRITE = 500;

const lit = (n: number) => sql.lit(Math.trunc(n));

/** An answer's score by its option: literals (the survey's own numbers, no parameters however many). */
const scoreOf = (options: ReadonlyMap<number, number>) =>
  sql<number>`(case qr.answer_option_id ${sql.join(
    [...options].map(([option, value]) => sql`when ${lit(option)} then ${lit(value)}`),
    sql` `,
  )} end)`;

/**
 * Case id → total in ten-thousandths of every case of the survey with a scored answer: one query per
 * question over its scored options' range of the option index (as the other passes read the survey), added
 * up by case.
 */
async function addUpSurvey(db: Executor, surveyId: number, scored: ScoredQuestions) {
  const one = ([questionId, options]: [number, ReadonlyMap<number, number>]) =>
    db
      .selectFrom("question_responses as qr")
      .select(["qr.patient_data_id", scoreOf(options).as("units")])
      .where("qr.survey_id", "=", surveyId)
      .where("qr.question_id", "=", questionId)
      .where("qr.answer_option_id", "in", [...options.keys()].map(lit));
  const [first, ...rest] = [...scored];
  let answers = one(first);
  for (const q of rest) answers = answers.unionAll(one(q));
  const rows = await readBeside(
    db,
    db
      .selectFrom(answers.as("a"))
      .select(["a.patient_data_id", (eb) => eb.fn.sum<number>("a.units").as("units")])
      .groupBy("a.patient_data_id"),
  );
  return new Map(rows.map((r) => [r.patient_data_id, Number(r.units)]));
}

/**
 * Case id → total in ten-thousandths, of some cases from their answers; a case none of whose answers has
 * a score is left out. Each score is looked up by its question first, so that a row meets its question's
 * few options only (one CASE over every option of the survey cost more than adding up by case itself).
 */
async function addUp(db: Executor, surveyId: number, scored: ScoredQuestions, ids: number[]) {
  const units = sql<number>`(case qr.question_id ${sql.join(
    [...scored].map(([questionId, options]) => sql`when ${lit(questionId)} then ${scoreOf(options)}`),
    sql` `,
  )} end)`;
  const options = [...scored.values()].flatMap((o) => [...o.keys()]).map(lit);
  // Through the per-case answer index: the unary plus keeps the planners off the statistics indexes.
  const rows = await readBeside(
    db,
    db
      .selectFrom("question_responses as qr")
      .select(["qr.patient_data_id", sql<number>`sum(${units})`.as("units")])
      .where(inIdList(db, "qr.patient_data_id", ids))
      .where(sql<SqlBool>`+qr.survey_id = ${surveyId}`)
      .where(sql<SqlBool>`+qr.question_id in (${sql.join([...scored.keys()].map(lit))})`)
      .where("qr.answer_option_id", "in", options)
      .groupBy("qr.patient_data_id"),
  );
  return new Map(rows.map((r) => [r.patient_data_id, Number(r.units)]));
}

/**
 * Keeps the totals just added up for the next figures; only an optimisation, like the export's kept lines:
 * a case removed meanwhile, or a database that refuses the write, leaves the figures as they are. Figures
 * read inside someone's transaction keep nothing: a refused write would end that transaction on PostgreSQL.
 */
async function keep(db: Executor, rows: CaseTotalsTable[]) {
  if (db.isTransaction) return;
  const write = async (trx: Executor) => {
    for (let i = 0; i < rows.length; i += ROWS_PER_WRITE) {
      await trx
        .insertInto("case_totals")
        .values(rows.slice(i, i + ROWS_PER_WRITE))
        .onConflict((oc) =>
          oc.column("patient_data_id").doUpdateSet((eb) => ({
            answers_version: eb.ref("excluded.answers_version"),
            scores_key: eb.ref("excluded.scores_key"),
            units: eb.ref("excluded.units"),
          })),
        )
        .execute();
    }
  };
  try {
    await db.transaction().execute(write);
  } catch (error) {
    log.info("statistics.totals_not_kept", { cases: rows.length, error: String(error) });
  }
}

/**
 * Total in ten-thousandths → the counted cases (Closed, passing the filters) with that total; a case none
 * of whose answers has a score has none. The kept totals that are current are counted in the database;
 * the others are added up from the cases' answers and kept. A case's answers version is read before its
 * answers, so a total added up from newer answers than its version says is added up again next time.
 */
export async function countedTotals(
  db: Executor,
  surveyId: number,
  scored: ScoredQuestions,
  filters: StatisticsFilters,
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (scored.size === 0) return out;
  const key = scoresKey(scored);
  const current = sql<SqlBool>`(t.answers_version = pd.answers_version and t.scores_key = ${key})`;
  // One pass over the counted cases: the current kept totals counted by total, the other cases one by one
  // (with the answers version they have now) to be added up.
  const read = await readBeside(
    db,
    db
      .selectFrom("patient_data as pd")
      .leftJoin("case_totals as t", "t.patient_data_id", "pd.id")
      .select([
        sql<number | null>`case when ${current} then t.units end`.as("units"),
        sql<number | null>`case when ${current} then null else pd.id end`.as("stale"),
        sql<number | null>`case when ${current} then null else pd.answers_version end`.as("version"),
        (eb) => eb.fn.countAll<number>().as("n"),
      ])
      .where("pd.survey_id", "=", surveyId)
      .where(countedCondition(db, filters))
      .groupBy([sql`1`, sql`2`, sql`3`]),
  );
  const kept = read.filter((r) => r.stale === null && r.units !== null);
  const stale = read
    .filter((r) => r.stale !== null)
    .map((r) => ({ id: Number(r.stale), answers_version: Number(r.version) }))
    .sort((a, b) => a.id - b.id);
  const add = (units: number, n: number) => out.set(units, (out.get(units) ?? 0) + n);
  for (const r of kept) add(Number(r.units), Number(r.n));
  if (stale.length === 0) return out;
  let added = new Map<number, number>();
  if (stale.length >= CASES_BY_SURVEY) added = await addUpSurvey(db, surveyId, scored);
  else {
    for (let i = 0; i < stale.length; i += CASES_PER_READ) {
      const ids = stale.slice(i, i + CASES_PER_READ).map((r) => r.id);
      for (const [id, units] of await addUp(db, surveyId, scored, ids)) added.set(id, units);
    }
  }
  for (const r of stale) {
    const units = added.get(r.id);
    if (units !== undefined) add(units, 1);
  }
  await keep(
    db,
    stale.map((r) => ({
      patient_data_id: r.id,
      answers_version: Number(r.answers_version),
      scores_key: key,
      units: added.get(r.id) ?? null,
    })),
  );
  return out;
}
