import { sql, type SqlBool } from "kysely";
import { cloudWordCounts } from "~/domain/word-cloud";
import { dialectOf } from "~/server/db/db.server";
import type { DB } from "~/server/db/types.server";
import type { Executor } from "../survey-access.server";
import { inIdList } from "./passes.server";

/** Free texts counted per transaction: a few thousand rows of words, a short write. */
const BATCH = 2000;

/**
 * Counts the words of the survey's free texts written or changed since their words were last counted
 * (noted by the triggers of migration 0010), so that its word clouds are a grouped count over
 * `response_words`. Each batch is one transaction: its pending rows are read and locked, the answers'
 * words replaced and the notes removed. A text changed meanwhile is noted again by its trigger and counted
 * at the next call; on PostgreSQL a copy that finds another copy counting the same texts waits for it.
 * Returns how many texts were counted.
 */
export async function countPendingWords(db: Executor, surveyId: number): Promise<number> {
  let counted = 0;
  // Onwards from the last text counted: the notes just removed are still in the index until the database
  // cleans it, and reading past them again at every batch made a large count grow with its square.
  let after = 0;
  for (;;) {
    const done = await inTransaction(db, async (trx) => {
      const lock = dialectOf(trx) === "postgres" ? sql` for update of p` : sql``;
      const { rows } = await sql<{
        id: number;
        question_id: number;
        patient_data_id: number;
        text_response: string | null;
      }>`select qr.id, qr.question_id, qr.patient_data_id, qr.text_response
          from response_words_pending p join question_responses qr on qr.id = p.response_id
          where p.survey_id = ${surveyId} and p.response_id > ${after}
          order by p.response_id limit ${BATCH}${lock}`.execute(trx);
      if (rows.length === 0) return 0;
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
      return rows.length;
    });
    counted += done;
    if (done < BATCH) return counted;
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

async function inTransaction<T>(db: Executor, work: (trx: Executor) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db);
  return (db as DB).transaction().execute(work);
}
