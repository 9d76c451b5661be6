import { sql } from "kysely";
import { schemaHelpers, type MigrationDb } from "./helpers";

/**
 * The word cloud's words, counted once per free-text answer (docs/decisions/011-statistics.md, "Word
 * clouds"). `response_words` holds each answer's cloud words with how often it uses each; the statistics
 * group them like any other answer rows. A database cannot split text into words the way the page does,
 * so triggers only note each new or changed free text in `response_words_pending` in the write's own
 * transaction, and the statistics count the noted texts' words before they read the cloud. No write path
 * can forget a text, and an answer that goes takes its words with it (foreign keys).
 */
export async function up(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);
  await db.schema
    .createTable("response_words")
    .addColumn("response_id", "integer", (c) => c.notNull().references("question_responses.id").onDelete("cascade"))
    .addColumn("survey_id", "integer", (c) => c.notNull())
    .addColumn("question_id", "integer", (c) => c.notNull())
    .addColumn("patient_data_id", "integer", (c) => c.notNull())
    .addColumn("word", "text", (c) => c.notNull())
    .addColumn("n", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("response_words_pkey", ["response_id", "word"])
    .$call(h.strict)
    .execute();
  // The survey's cloud: each question's words in order, their counts in the index (nothing read beside it).
  await db.schema
    .createIndex("response_words_stats_idx")
    .on("response_words")
    .columns(["survey_id", "question_id", "word", "n"])
    .execute();
  // The words of some cases (those taken away from the survey's figures, or the few that count).
  await db.schema
    .createIndex("response_words_case_idx")
    .on("response_words")
    .columns(["patient_data_id", "question_id"])
    .execute();
  await db.schema
    .createTable("response_words_pending")
    .addColumn("response_id", "integer", (c) => c.primaryKey().references("question_responses.id").onDelete("cascade"))
    .addColumn("survey_id", "integer", (c) => c.notNull())
    .$call(h.strict)
    .execute();
  await db.schema
    .createIndex("response_words_pending_survey_idx")
    .on("response_words_pending")
    .column("survey_id")
    .execute();

  if (h.dialect === "postgres") {
    await sql`create function response_words_note() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' then delete from response_words where response_id = new.id; end if;
        if new.text_response is not null then
          insert into response_words_pending (response_id, survey_id) values (new.id, new.survey_id)
            on conflict do nothing;
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger question_responses_words_insert after insert on question_responses
      for each row when (new.text_response is not null) execute function response_words_note()`.execute(db);
    await sql`create trigger question_responses_words_update after update of text_response on question_responses
      for each row when (old.text_response is distinct from new.text_response)
      execute function response_words_note()`.execute(db);
  } else {
    await sql`create trigger question_responses_words_insert after insert on question_responses
      when new.text_response is not null
      begin insert or ignore into response_words_pending (response_id, survey_id) values (new.id, new.survey_id); end`.execute(
      db,
    );
    await sql`create trigger question_responses_words_update after update of text_response on question_responses
      when old.text_response is not new.text_response
      begin
        delete from response_words where response_id = new.id;
        insert or ignore into response_words_pending (response_id, survey_id)
          select new.id, new.survey_id where new.text_response is not null;
      end`.execute(db);
  }
  // The texts written before: counted by the first statistics that show their cloud.
  await sql`insert into response_words_pending (response_id, survey_id)
    select id, survey_id from question_responses where text_response is not null`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);
  if (h.dialect === "postgres") {
    await sql`drop function if exists response_words_note() cascade`.execute(db);
  } else {
    for (const t of ["question_responses_words_insert", "question_responses_words_update"]) {
      await sql`drop trigger if exists ${sql.id(t)}`.execute(db);
    }
  }
  await db.schema.dropTable("response_words_pending").execute();
  await db.schema.dropTable("response_words").execute();
}
