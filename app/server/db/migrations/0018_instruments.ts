import { sql } from "kysely";
import { schemaHelpers, type MigrationDb } from "./helpers";

/**
 * Scored instruments (docs/decisions/051-instrument-scores.md):
 * - `answer_options.score`: the answer's score as the instrument defines it (null: no score), apart from the
 *   test weight; `answer_options.system`: the code system of the option's value;
 * - `questions.hint`: a help text shown under the question; `questions.codes` and `categories.codes`: the
 *   instrument's codes of the item or group, a JSON array of {System, Code, Display};
 * - `surveys.score_title`: set, the survey computes a total score per case under that title;
 *   `surveys.instrument`: the instrument's identity (name, identifiers, date, codes, copyright) as JSON;
 * - `case_totals`: each case's total as the statistics last added it up, with the case's answers version and
 *   the survey's scores it was added up with (as the export keeps its lines, migration 0014), so that a case
 *   is added up again only after its answers or the scores changed. `units` is the total in ten-thousandths
 *   of a point (a sum of many scores: 64 bits), null when none of the case's answers has a score.
 */
export async function up(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);
  await db.schema
    .alterTable("answer_options")
    .addColumn("score", h.float, (c) => c.check(sql`score between -9999 and 9999`))
    .execute();
  await db.schema.alterTable("answer_options").addColumn("system", "text").execute();
  await db.schema.alterTable("questions").addColumn("hint", "text").execute();
  for (const table of ["questions", "categories"]) {
    await db.schema
      .alterTable(table)
      .addColumn("codes", "text", (c) => c.notNull().defaultTo("[]"))
      .execute();
  }
  await db.schema.alterTable("surveys").addColumn("score_title", "text").execute();
  await db.schema.alterTable("surveys").addColumn("instrument", "text").execute();
  await db.schema
    .createTable("case_totals")
    .addColumn("patient_data_id", "integer", (c) => c.primaryKey().references("patient_data.id").onDelete("cascade"))
    .addColumn("answers_version", "integer", (c) => c.notNull())
    .addColumn("scores_key", "text", (c) => c.notNull())
    .addColumn("units", h.dialect === "postgres" ? "bigint" : "integer")
    .$call(h.strict)
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable("case_totals").execute();
  await db.schema.alterTable("surveys").dropColumn("instrument").execute();
  await db.schema.alterTable("surveys").dropColumn("score_title").execute();
  for (const table of ["categories", "questions"]) await db.schema.alterTable(table).dropColumn("codes").execute();
  await db.schema.alterTable("questions").dropColumn("hint").execute();
  await db.schema.alterTable("answer_options").dropColumn("system").execute();
  await db.schema.alterTable("answer_options").dropColumn("score").execute();
}
