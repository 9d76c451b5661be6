import type { MigrationDb } from "./helpers";

/**
 * The word counting walks a survey's pending texts in id order, a batch at a time (words.server.ts). With an
 * index on the survey alone, PostgreSQL read and sorted every pending text of the survey for each batch when
 * its statistics of the table were stale (after a bulk import: 2.5 M pending texts, 8 s per batch of 2,000);
 * on (survey, text) it reads the batch in order and stops (24 ms). The index on the survey alone is covered.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createIndex("response_words_pending_survey_response_idx")
    .on("response_words_pending")
    .columns(["survey_id", "response_id"])
    .execute();
  await db.schema.dropIndex("response_words_pending_survey_idx").execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema
    .createIndex("response_words_pending_survey_idx")
    .on("response_words_pending")
    .column("survey_id")
    .execute();
  await db.schema.dropIndex("response_words_pending_survey_response_idx").execute();
}
