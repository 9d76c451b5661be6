import { sql, type SqlBool } from "kysely";
import { cloudWordCounts } from "~/domain/word-cloud";
import { dialectOf } from "~/server/db/db.server";
import type { Executor } from "~/server/db/types.server";

import { inIdList } from "./passes.server";
import { inTransaction } from "~/server/db/transaction.server";

/** Free texts counted per transaction: a few thousand rows of words, a short write. */
const BATCH = 2000;

/**
 * Counts the words of the survey's free texts written or changed since their words were last counted
 * (noted by the triggers of migration 0010), so that its word clouds are a grouped count over
 * `question_words` (migration 0013). Each batch is one transaction: its pending rows are read and locked,
 * the answers' words replaced, the notes removed, and the words added and those gone since (noted by
 * migration 0013's trigger) carried into the question's totals. A text changed meanwhile is noted again by
 * its trigger and counted at the next call; on PostgreSQL a copy that finds another copy counting the same
 * texts waits for it. Returns how many texts were counted.
 */
export async function countPendingWords(db: Executor, surveyId: number, signal?: AbortSignal): Promise<number> {
  let counted = 0;
  // Onwards from the last text counted: the notes just removed are still in the index until the database
  // cleans it, and reading past them again at every batch made a large count grow with its square.
  let after = 0;
  for (;;) {
    // Told to stop (the server stopping): the batches counted so far are kept, the rest waits for the next call.
    signal?.throwIfAborted();
    const done = await inTransaction(db, async (trx) => {
      // The answer before its note, in the order of a writer removing the answer (its row, then by cascade
      // the note): taken the other way round, the two waited on each other (PostgreSQL ended one).
      const lock = dialectOf(trx) === "postgres" ? sql` for key share of qr for update of p` : sql``;
      const { rows } = await sql<{
        id: number;
        question_id: number;
        patient_data_id: number;
        text_response: string | null;
      }>`select qr.id, qr.question_id, qr.patient_data_id, qr.text_response
          from response_words_pending p join question_responses qr on qr.id = p.response_id
          where p.survey_id = ${surveyId} and p.response_id > ${after}
          order by p.response_id limit ${BATCH}${lock}`.execute(trx);
      if (rows.length === 0) {
        await foldTotals(trx, surveyId, []);
        return 0;
      }
      after = rows[rows.length - 1].id;
      const ids = rows.map((r) => r.id);
      // Every word row of the batch as one JSON parameter: one statement, parsed by the database.
      const words: [number, number, number, string, number][] = [];
      for (const r of rows) {
        for (const [word, n] of cloudWordCounts(r.text_response ?? "")) {
          words.push([r.id, r.question_id, r.patient_data_id, word, n]);
        }
      }
      await trx.deleteFrom("response_words").where(idIn(trx, ids)).execute();
      if (words.length > 0) await insertWords(trx, surveyId, JSON.stringify(words));
      await trx.deleteFrom("response_words_pending").where(idIn(trx, ids)).execute();
      await foldTotals(trx, surveyId, words);
      return rows.length;
    });
    counted += done;
    if (done < BATCH) return counted;
    // Between batches the server answers what arrived meanwhile (a SQLite batch holds its thread), and hears a
    // signal to stop.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * `response_id` among the batch's ids, as one parameter: an array on PostgreSQL, whose planner then reads
 * the primary key for each (a JSON list it took for a hundred rows and scanned the table), a JSON list on
 * SQLite.
 */
function idIn(trx: Executor, ids: number[]) {
  return dialectOf(trx) === "postgres"
    ? sql<SqlBool>`response_id = any(${ids}::int[])`
    : inIdList(trx, "response_id", ids);
}

/** Inserts word rows given as a JSON array of [response, question, case, word, n]. */
async function insertWords(trx: Executor, surveyId: number, json: string) {
  if (dialectOf(trx) === "postgres") {
    await sql`insert into response_words (response_id, survey_id, question_id, patient_data_id, word, n)
      select (w->>0)::int, ${surveyId}, (w->>1)::int, (w->>2)::int, w->>3, (w->>4)::int
      from jsonb_array_elements(${json}::jsonb) as w`.execute(trx);
  } else {
    await sql`insert into response_words (response_id, survey_id, question_id, patient_data_id, word, n)
      select value->>0, ${surveyId}, value->>1, value->>2, value->>3, value->>4 from json_each(${json})`.execute(trx);
  }
}

/**
 * Carries into the survey's `question_words` the word rows just inserted and those noted as gone (the notes
 * are taken with DELETE … RETURNING, so two copies never fold the same note). The changes go in as one
 * upsert in the order of question and word, so that two copies lock the totals' rows in the same order.
 */
async function foldTotals(trx: Executor, surveyId: number, added: [number, number, number, string, number][]) {
  const gone = await trx
    .deleteFrom("response_words_gone")
    .where("survey_id", "=", surveyId)
    .returning(["question_id", "word", "n"])
    .execute();
  if (added.length === 0 && gone.length === 0) return;
  const change = new Map<string, [number, string, number]>();
  const add = (question: number, word: string, n: number) => {
    const key = `${question}\u0000${word}`;
    const row = change.get(key);
    if (row) row[2] += n;
    else change.set(key, [question, word, n]);
  };
  for (const [, question, , word, n] of added) add(question, word, n);
  for (const r of gone) add(r.question_id, r.word, -Number(r.n));
  const rows = [...change.values()]
    .filter((r) => r[2] !== 0)
    .sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  if (rows.length === 0) return;
  const json = JSON.stringify(rows);
  if (dialectOf(trx) === "postgres") {
    await sql`insert into question_words (survey_id, question_id, word, n)
      select ${surveyId}, (w->>0)::int, w->>1, (w->>2)::int
      from jsonb_array_elements(${json}::jsonb) with ordinality as t(w, i) order by i
      on conflict (survey_id, question_id, word) do update set n = question_words.n + excluded.n`.execute(trx);
  } else {
    await sql`insert into question_words (survey_id, question_id, word, n)
      select ${surveyId}, value->>0, value->>1, value->>2 from json_each(${json}) where true
      on conflict (survey_id, question_id, word) do update set n = question_words.n + excluded.n`.execute(trx);
  }
  if (gone.length > 0)
    await trx.deleteFrom("question_words").where("survey_id", "=", surveyId).where("n", "<=", 0).execute();
}
