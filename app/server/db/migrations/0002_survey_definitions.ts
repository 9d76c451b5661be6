import { sql } from "kysely";
import { schemaHelpers, type MigrationDb } from "./helpers";

/**
 * Surveys and everything an editor builds: tags, team permissions, categories, questions (sub-questions hang
 * under an answer option), answer options, the patient form with its preliminary questions, and question
 * dependences. Deleting a survey removes all of it.
 *
 * The unique (survey_id, id) keys let the response tables reference questions and options together with
 * their survey, so that a response can only name an option of its own question and survey, and so that
 * those references are checked through the response tables' statistics indexes.
 */
export async function up(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);

  await db.schema
    .createTable("surveys")
    .$call(h.id)
    .addColumn("title", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("status", "integer", (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`status between 0 and 5`),
    )
    .addColumn("status_before_archive", "integer", (c) => c.check(sql`status_before_archive between 0 and 5`))
    .addColumn("start_date", "text")
    .addColumn("end_date", "text")
    .addColumn("intro_text", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("outro_text", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("target_responses", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`target_responses between 0 and 9999`),
    )
    .$call(h.flag("patient_id_auto_generation"))
    .$call(h.flag("patient_form_enabled"))
    .addColumn("hash", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("source_survey_id", "integer", (c) => c.references("surveys.id").onDelete("set null"))
    .addColumn("created_by_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .$call(h.timestamp("created_at"))
    .$call(h.timestamp("updated_at"))
    .addColumn("archived_at", "text")
    .$call(h.strict)
    .execute();

  await db.schema
    .createTable("survey_tags")
    .addColumn("survey_id", "integer", (c) => c.notNull().references("surveys.id").onDelete("cascade"))
    .addColumn("tag_id", "integer", (c) => c.notNull().references("tags.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("survey_tags_pk", ["survey_id", "tag_id"])
    .$call(h.strict)
    .execute();
  await db.schema.createIndex("survey_tags_tag_idx").on("survey_tags").column("tag_id").execute();

  await db.schema
    .createTable("survey_team_permissions")
    .addColumn("survey_id", "integer", (c) => c.notNull().references("surveys.id").onDelete("cascade"))
    .addColumn("team_id", "integer", (c) => c.notNull().references("teams.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('user', 'editor', 'approver')`))
    .addPrimaryKeyConstraint("survey_team_permissions_pk", ["survey_id", "team_id", "kind"])
    .$call(h.strict)
    .execute();
  await db.schema
    .createIndex("survey_team_permissions_team_idx")
    .on("survey_team_permissions")
    .column("team_id")
    .execute();

  await db.schema
    .createTable("categories")
    .$call(h.id)
    .addColumn("survey_id", "integer", (c) => c.notNull().references("surveys.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("sort", "integer", (c) => c.notNull().defaultTo(0))
    .$call(h.strict)
    .execute();
  await db.schema.createIndex("categories_survey_idx").on("categories").columns(["survey_id", "sort"]).execute();

  // questions and answer_options reference each other (sub-questions). SQLite accepts a reference to a table
  // created later; PostgreSQL gets that foreign key once answer_options exists.
  await db.schema
    .createTable("questions")
    .$call(h.id)
    .addColumn("survey_id", "integer", (c) => c.notNull().references("surveys.id").onDelete("cascade"))
    .addColumn("category_id", "integer", (c) => c.notNull().references("categories.id").onDelete("cascade"))
    .addColumn("parent_answer_option_id", "integer", (c) =>
      h.dialect === "sqlite" ? c.references("answer_options.id").onDelete("cascade") : c,
    )
    .addColumn("title", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("type", "integer", (c) => c.notNull().check(sql`type between 1 and 7`))
    .addColumn("sort", "integer", (c) => c.notNull().defaultTo(0))
    .$call(h.flag("allow_file_attachments"))
    .$call(h.flag("allow_multiple_answers"))
    .addColumn("unit", "text")
    .$call(h.flag("is_test_question"))
    .addColumn("image_src", "text")
    .addColumn("dependence_type", "text", (c) => c.check(sql`dependence_type in ('SHOW', 'HIDE')`))
    .addUniqueConstraint("questions_survey_id_id_key", ["survey_id", "id"])
    .$call(h.strict)
    .execute();
  await db.schema.createIndex("questions_category_idx").on("questions").columns(["category_id", "sort"]).execute();
  await db.schema
    .createIndex("questions_parent_idx")
    .on("questions")
    .columns(["parent_answer_option_id", "sort"])
    .execute();

  await db.schema
    .createTable("answer_options")
    .$call(h.id)
    .addColumn("survey_id", "integer", (c) => c.notNull().references("surveys.id").onDelete("cascade"))
    .addColumn("question_id", "integer", (c) => c.notNull().references("questions.id").onDelete("cascade"))
    .addColumn("text", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("value", "text")
    .$call(h.flag("is_exit_answer"))
    .addColumn("weight", "integer", (c) => c.check(sql`weight between 1 and 3`))
    .addColumn("weighting_state", "integer", (c) =>
      c
        .notNull()
        .defaultTo(2)
        .check(sql`weighting_state in (0, 1, 2)`),
    )
    .addColumn("sort", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("pos_x", h.float)
    .addColumn("pos_y", h.float)
    .addUniqueConstraint("answer_options_survey_question_id_key", ["survey_id", "question_id", "id"])
    .$call(h.strict)
    .execute();
  await db.schema
    .createIndex("answer_options_question_idx")
    .on("answer_options")
    .columns(["question_id", "sort"])
    .execute();
  if (h.dialect === "postgres") {
    await db.schema
      .alterTable("questions")
      .addForeignKeyConstraint("questions_parent_answer_option_fkey", ["parent_answer_option_id"], "answer_options", [
        "id",
      ])
      .onDelete("cascade")
      .execute();
  }

  await db.schema
    .createTable("patient_forms")
    .$call(h.id)
    .addColumn("survey_id", "integer", (c) => c.notNull().unique().references("surveys.id").onDelete("cascade"))
    .$call(h.strict)
    .execute();

  await db.schema
    .createTable("patient_form_attributes")
    .$call(h.id)
    .addColumn("patient_form_id", "integer", (c) => c.notNull().references("patient_forms.id").onDelete("cascade"))
    .addColumn("survey_id", "integer", (c) => c.notNull().references("surveys.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull().defaultTo(""))
    .$call(h.flag("enabled", 1))
    .$call(h.flag("pre_selected"))
    .addColumn("sort", "integer", (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint("patient_form_attributes_survey_id_id_key", ["survey_id", "id"])
    .$call(h.strict)
    .execute();
  await db.schema
    .createIndex("patient_form_attributes_form_idx")
    .on("patient_form_attributes")
    .columns(["patient_form_id", "sort"])
    .execute();

  await db.schema
    .createTable("patient_form_answer_options")
    .$call(h.id)
    .addColumn("attribute_id", "integer", (c) =>
      c.notNull().references("patient_form_attributes.id").onDelete("cascade"),
    )
    .addColumn("survey_id", "integer", (c) => c.notNull().references("surveys.id").onDelete("cascade"))
    .addColumn("text", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("value", "text")
    .$call(h.flag("is_exit_answer"))
    .addColumn("sort", "integer", (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint("patient_form_answer_options_survey_attribute_id_key", ["survey_id", "attribute_id", "id"])
    .$call(h.strict)
    .execute();
  await db.schema
    .createIndex("patient_form_answer_options_attribute_idx")
    .on("patient_form_answer_options")
    .columns(["attribute_id", "sort"])
    .execute();

  await db.schema
    .createTable("question_dependence_options")
    .addColumn("question_id", "integer", (c) => c.notNull().references("questions.id").onDelete("cascade"))
    .addColumn("patient_form_answer_option_id", "integer", (c) =>
      c.notNull().references("patient_form_answer_options.id").onDelete("cascade"),
    )
    .addPrimaryKeyConstraint("question_dependence_options_pk", ["question_id", "patient_form_answer_option_id"])
    .$call(h.strict)
    .execute();
  await db.schema
    .createIndex("question_dependence_options_option_idx")
    .on("question_dependence_options")
    .column("patient_form_answer_option_id")
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  if (schemaHelpers(db).dialect === "postgres") {
    await db.schema.alterTable("questions").dropConstraint("questions_parent_answer_option_fkey").execute();
  }
  const tables = [
    "question_dependence_options",
    "patient_form_answer_options",
    "patient_form_attributes",
    "patient_forms",
    "answer_options",
    "questions",
    "categories",
    "survey_team_permissions",
    "survey_tags",
    "surveys",
  ];
  for (const table of tables) await db.schema.dropTable(table).execute();
}
