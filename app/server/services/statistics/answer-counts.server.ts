import { sql } from "kysely";
import { dialectOf, readBeside } from "~/server/db/db.server";
import { inTransaction } from "~/server/db/transaction.server";
import type { Executor } from "~/server/db/types.server";

import { emptyCounts, type Counts, type QuestionKinds } from "./passes.server";

const COLUMNS = sql.raw("question_id, kind, option_id, value, day");

/**
 * Folds the survey's noted answer changes into its kept counts (migration 0022, decision 062), in one
 * transaction: the notes are taken and their sums added to the counts, and counts that fell to nothing are
 * removed. On PostgreSQL the notes are taken with DELETE … RETURNING, so two copies never fold the same
 * note (the second waits for the first and finds them gone), and the counts are written in the order of
 * their keys, so two copies lock them in one order; SQLite has one writer, whose read and removal of the
 * notes nothing comes between.
 */
export async function foldAnswerCounts(db: Executor, surveyId: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    if (dialectOf(trx) === "postgres") {
      const folded = await sql`with taken as (
          delete from answer_count_changes where survey_id = ${surveyId}
          returning question_id, kind, option_id, value, day, n, minutes)
        insert into answer_counts (survey_id, question_id, kind, option_id, value, day, n, minutes)
        select ${surveyId}::int, ${COLUMNS}, sum(n), sum(minutes) from taken
        group by ${COLUMNS} order by ${COLUMNS}
        on conflict (survey_id, question_id, kind, option_id, value, day) do update
        set n = answer_counts.n + excluded.n, minutes = answer_counts.minutes + excluded.minutes`.execute(trx);
      if (Number(folded.numAffectedRows ?? 0) === 0) return;
    } else {
      const noted = await trx
        .selectFrom("answer_count_changes")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("survey_id", "=", surveyId)
        .executeTakeFirstOrThrow();
      if (Number(noted.n) === 0) return;
      await sql`insert into answer_counts (survey_id, question_id, kind, option_id, value, day, n, minutes)
        select ${surveyId}, ${COLUMNS}, sum(n), sum(minutes) from answer_count_changes where survey_id = ${surveyId}
        group by ${COLUMNS}
        on conflict (survey_id, question_id, kind, option_id, value, day) do update
        set n = answer_counts.n + excluded.n, minutes = answer_counts.minutes + excluded.minutes`.execute(trx);
      await trx.deleteFrom("answer_count_changes").where("survey_id", "=", surveyId).execute();
    }
    await trx.deleteFrom("answer_counts").where("survey_id", "=", surveyId).where("n", "=", 0).execute();
  });
}

/**
 * The survey's counts over all its answer rows, as `countsOf` over the survey gives them, from the kept
 * counts once the noted changes are folded in: a few hundred rows however many answers. The date-times' ends
 * are not kept (the statistics read them over the counted cases); the word clouds' and the files' counts
 * are read as `countsOf` reads them and passed in.
 */
export async function keptCounts(
  db: Executor,
  surveyId: number,
  kinds: QuestionKinds,
  rest: Pick<Counts, "words" | "files">,
): Promise<Counts> {
  await foldAnswerCounts(db, surveyId);
  const rows = await readBeside(
    db,
    db
      .selectFrom("answer_counts")
      .select(["question_id", "kind", "option_id", "value", "day", "n", "minutes"])
      .where("survey_id", "=", surveyId),
  );
  const wanted = {
    o: new Set(kinds.options),
    c: new Set(kinds.multiple),
    n: new Set(kinds.numbers),
    d: new Set(kinds.dates),
    t: new Set(kinds.texts),
  };
  const out = { ...emptyCounts(), ...rest };
  const inner = <K>(map: Map<number, Map<K, number>>, question: number) => {
    let values = map.get(question);
    if (!values) map.set(question, (values = new Map()));
    return values;
  };
  for (const r of rows) {
    if (!wanted[r.kind].has(r.question_id)) continue;
    const n = Number(r.n);
    if (r.kind === "o") inner(out.options, r.question_id).set(r.option_id, n);
    else if (r.kind === "c") out.optionCases.set(r.question_id, n);
    else if (r.kind === "n") inner(out.numbers, r.question_id).set(Number(r.value), n);
    else if (r.kind === "t") out.textRows.set(r.question_id, n);
    else {
      inner(out.dates, r.question_id).set(r.day, n);
      // Seconds since 1970: the day's start for each answer, and each answer's minutes into its day.
      const seconds = (Date.parse(`${r.day}T00:00:00Z`) / 1000) * n + Number(r.minutes) * 60;
      out.dateSeconds.set(r.question_id, (out.dateSeconds.get(r.question_id) ?? 0) + seconds);
    }
  }
  return out;
}
