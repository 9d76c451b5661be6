import { sql } from "kysely";
import { schemaHelpers, type MigrationDb } from "./helpers";

/**
 * Cases (patient_data) and what is recorded in them: question and attribute (preliminary) responses, file
 * attachments, and receipts of offline syncs. Deleting a survey or a case removes its responses; a question,
 * answer option or preliminary question that has responses cannot be deleted on its own (the foreign key
 * refuses it), so recorded clinical data is never dropped by an edit.
 *
 * Indexes are laid out for the statistics aggregates (per-question counts per answer option, min/max/avg
 * of numbers and dates), which then read covering indexes only; the same indexes serve the foreign-key
 * checks on deletes.
 */
export async function up(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);

  await db.schema
    .createTable("patient_data")
    .$call(h.id)
    .addColumn("survey_id", "integer", (c) => c.notNull().references("surveys.id").onDelete("cascade"))
    .addColumn("patient_id", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) =>
      c
        .notNull()
        .defaultTo("Open")
        .check(sql`state in ('Open', 'Closed')`),
    )
    .addColumn("team_id", "integer", (c) => c.references("teams.id").onDelete("set null"))
    .addColumn("created_by_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .$call(h.timestamp("created_at"))
    .$call(h.timestamp("modified_at"))
    .addColumn("closed_at", "text")
    .addUniqueConstraint("patient_data_survey_patient_key", ["survey_id", "patient_id"])
    .$call(h.strict)
    .execute();
  await db.schema
    .createIndex("patient_data_survey_state_idx")
    .on("patient_data")
    .columns(["survey_id", "state", "modified_at"])
    .execute();

  await db.schema
    .createTable("question_responses")
    .$call(h.id)
    .addColumn("survey_id", "integer", (c) => c.notNull().references("surveys.id").onDelete("cascade"))
    .addColumn("patient_data_id", "integer", (c) => c.notNull().references("patient_data.id").onDelete("cascade"))
    .addColumn("question_id", "integer", (c) => c.notNull())
    .addColumn("answer_option_id", "integer")
    .addColumn("text_response", "text")
    .addColumn("numerical_response", h.float)
    .addColumn("date_time_response", "text")
    .$call(h.timestamp("created_at"))
    .$call(h.timestamp("updated_at"))
    .addForeignKeyConstraint("question_responses_question_fkey", ["survey_id", "question_id"], "questions", [
      "survey_id",
      "id",
    ])
    .addForeignKeyConstraint(
      "question_responses_answer_option_fkey",
      ["survey_id", "question_id", "answer_option_id"],
      "answer_options",
      ["survey_id", "question_id", "id"],
    )
    .$call(h.strict)
    .execute();
  // One row per question and case, or per chosen option of a selection; also how a case's answers are read.
  await sql`create unique index question_responses_answer_key
    on question_responses (patient_data_id, question_id, coalesce(answer_option_id, 0))`.execute(db);
  await db.schema
    .createIndex("question_responses_option_stats_idx")
    .on("question_responses")
    .columns(["survey_id", "question_id", "answer_option_id", "patient_data_id"])
    .execute();
  await db.schema
    .createIndex("question_responses_numerical_stats_idx")
    .on("question_responses")
    .columns(["survey_id", "question_id", "numerical_response", "patient_data_id"])
    .execute();
  await db.schema
    .createIndex("question_responses_date_time_stats_idx")
    .on("question_responses")
    .columns(["survey_id", "question_id", "date_time_response", "patient_data_id"])
    .execute();

  await db.schema
    .createTable("attribute_responses")
    .$call(h.id)
    .addColumn("survey_id", "integer", (c) => c.notNull().references("surveys.id").onDelete("cascade"))
    .addColumn("patient_data_id", "integer", (c) => c.notNull().references("patient_data.id").onDelete("cascade"))
    .addColumn("attribute_id", "integer", (c) => c.notNull())
    .addColumn("answer_option_id", "integer", (c) => c.notNull())
    .$call(h.timestamp("created_at"))
    .addUniqueConstraint("attribute_responses_case_attribute_key", ["patient_data_id", "attribute_id"])
    .addForeignKeyConstraint(
      "attribute_responses_attribute_fkey",
      ["survey_id", "attribute_id"],
      "patient_form_attributes",
      ["survey_id", "id"],
    )
    .addForeignKeyConstraint(
      "attribute_responses_answer_option_fkey",
      ["survey_id", "attribute_id", "answer_option_id"],
      "patient_form_answer_options",
      ["survey_id", "attribute_id", "id"],
    )
    .$call(h.strict)
    .execute();
  await db.schema
    .createIndex("attribute_responses_stats_idx")
    .on("attribute_responses")
    .columns(["survey_id", "attribute_id", "answer_option_id", "patient_data_id"])
    .execute();

  await db.schema
    .createTable("file_attachments")
    .$call(h.id)
    .addColumn("survey_id", "integer", (c) => c.notNull().references("surveys.id").onDelete("cascade"))
    .addColumn("patient_data_id", "integer", (c) => c.notNull().references("patient_data.id").onDelete("cascade"))
    .addColumn("question_id", "integer", (c) => c.notNull())
    .addColumn("file_name", "text", (c) => c.notNull())
    .addColumn("file_extension", "text", (c) => c.notNull())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("size", "integer", (c) => c.notNull().check(sql`size >= 0`))
    .addColumn("storage_key", "text", (c) => c.notNull())
    .addColumn("uploaded_by_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .$call(h.timestamp("created_at"))
    .addUniqueConstraint("file_attachments_case_question_name_key", ["patient_data_id", "question_id", "file_name"])
    .addForeignKeyConstraint("file_attachments_question_fkey", ["survey_id", "question_id"], "questions", [
      "survey_id",
      "id",
    ])
    .$call(h.strict)
    .execute();
  await db.schema
    .createIndex("file_attachments_question_idx")
    .on("file_attachments")
    .columns(["survey_id", "question_id"])
    .execute();

  await db.schema
    .createTable("sync_receipts")
    .addColumn("idempotency_key", "text", (c) => c.notNull().primaryKey())
    .addColumn("survey_id", "integer", (c) => c.notNull().references("surveys.id").onDelete("cascade"))
    .addColumn("patient_data_id", "integer", (c) => c.notNull().references("patient_data.id").onDelete("cascade"))
    .$call(h.timestamp("created_at"))
    .$call(h.strict)
    .execute();
  await db.schema.createIndex("sync_receipts_survey_idx").on("sync_receipts").column("survey_id").execute();
  await db.schema.createIndex("sync_receipts_case_idx").on("sync_receipts").column("patient_data_id").execute();
}

export async function down(db: MigrationDb): Promise<void> {
  const tables = ["sync_receipts", "file_attachments", "attribute_responses", "question_responses", "patient_data"];
  for (const table of tables) await db.schema.dropTable(table).execute();
}
