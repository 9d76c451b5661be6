import { sql } from "kysely";
import { schemaHelpers, type MigrationDb } from "./helpers";

/**
 * A survey's texts in several languages (docs/decisions/054-content-languages.md):
 * - `surveys.source_language`: the language the editors write the survey's texts in (ISO 639-1, "de" for
 *   every survey written before); `surveys.languages`: the languages offered besides it, a JSON array;
 * - `survey_translations`: one row per language and text, the text's key naming the item by its id
 *   ("question:12", "answer:40:…"), with the digest of the source text the translation was made from;
 * - `patient_data.language`: the language a case is filled in (null: the survey's source language).
 */
export async function up(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);
  await db.schema
    .alterTable("surveys")
    .addColumn("source_language", "text", (c) => c.notNull().defaultTo("de"))
    .execute();
  await db.schema
    .alterTable("surveys")
    .addColumn("languages", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
  await db.schema
    .createTable("survey_translations")
    .addColumn("survey_id", "integer", (c) => c.notNull().references("surveys.id").onDelete("cascade"))
    .addColumn("language", "text", (c) => c.notNull().check(sql`length(language) between 2 and 12`))
    .addColumn("text_key", "text", (c) => c.notNull().check(sql`length(text_key) between 1 and 100`))
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("source_digest", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("survey_translations_pk", ["survey_id", "language", "text_key"])
    .$call(h.strict)
    .execute();
  await db.schema.alterTable("patient_data").addColumn("language", "text").execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable("patient_data").dropColumn("language").execute();
  await db.schema.dropTable("survey_translations").execute();
  await db.schema.alterTable("surveys").dropColumn("languages").execute();
  await db.schema.alterTable("surveys").dropColumn("source_language").execute();
}
