import { sql } from "kysely";
import type { MigrationDb } from "./helpers";

/**
 * Indexes for the statistics passes that 0003's covering indexes did not serve (docs/decisions/011): the
 * cases that chose any option of a question (each case once, read in case order) and a question's latest
 * free texts, newest first. Partial: each holds only the rows of its kind, so answers of other kinds cost
 * nothing more to write. The texts themselves are not indexed: PostgreSQL refuses B-tree entries over about
 * 2,700 bytes, and an answer may have 10,000 characters.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createIndex("question_responses_case_stats_idx")
    .on("question_responses")
    .columns(["survey_id", "question_id", "patient_data_id", "answer_option_id"])
    .where(sql.ref("answer_option_id"), "is not", null)
    .execute();
  await db.schema
    .createIndex("question_responses_latest_text_idx")
    .on("question_responses")
    .columns(["survey_id", "question_id", "updated_at", "id"])
    .where(sql.ref("text_response"), "is not", null)
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  for (const name of ["question_responses_latest_text_idx", "question_responses_case_stats_idx"]) {
    await db.schema.dropIndex(name).execute();
  }
}
