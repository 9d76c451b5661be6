import { sql } from "kysely";
import { schemaHelpers, type MigrationDb } from "./helpers";

/**
 * Each case's line of the CSV export, kept once written (docs/decisions/031-export-rows.md).
 * `patient_data.answers_version` moves with every write to the case's answers or preliminary answers, by
 * trigger in the write's own transaction, so no write path can forget it; `case_export_rows` keeps the line
 * with the version and the survey layout (questions, options, separator) it was written for. The export
 * uses a kept line only when both still match, and writes the others anew.
 */
export async function up(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);
  await db.schema
    .alterTable("patient_data")
    .addColumn("answers_version", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable("case_export_rows")
    .addColumn("patient_data_id", "integer", (c) => c.primaryKey().references("patient_data.id").onDelete("cascade"))
    .addColumn("answers_version", "integer", (c) => c.notNull())
    .addColumn("layout", "text", (c) => c.notNull())
    .addColumn("line", "text", (c) => c.notNull())
    .$call(h.strict)
    .execute();

  if (h.dialect === "postgres") {
    // Once per statement; the cases in the order of their ids, so two bulk writers lock them in one order.
    await sql`create function case_answers_bump() returns trigger language plpgsql as $$
      begin
        update patient_data set answers_version = answers_version + 1 where id in (
          select id from patient_data where id in (select patient_data_id from changed)
          order by id for no key update);
        return null;
      end $$`.execute(db);
    for (const table of ["question_responses", "attribute_responses"]) {
      for (const [event, rows] of [
        ["insert", sql`new table as changed`],
        ["delete", sql`old table as changed`],
        ["update", sql`new table as changed`],
      ] as const) {
        await sql`create trigger ${sql.id(`${table}_case_version_${event}`)} after ${sql.raw(event)}
          on ${sql.table(table)} referencing ${rows} for each statement execute function case_answers_bump()`.execute(
          db,
        );
      }
    }
    return;
  }
  const bump = (row: string) =>
    sql.raw(`update patient_data set answers_version = answers_version + 1 where id = ${row}.patient_data_id;`);
  for (const table of ["question_responses", "attribute_responses"]) {
    await sql`create trigger ${sql.id(`${table}_case_version_insert`)} after insert on ${sql.table(table)}
      begin ${bump("new")} end`.execute(db);
    await sql`create trigger ${sql.id(`${table}_case_version_update`)} after update on ${sql.table(table)}
      begin ${bump("old")} ${bump("new")} end`.execute(db);
    await sql`create trigger ${sql.id(`${table}_case_version_delete`)} after delete on ${sql.table(table)}
      begin ${bump("old")} end`.execute(db);
  }
}

export async function down(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);
  if (h.dialect === "postgres") {
    await sql`drop function if exists case_answers_bump() cascade`.execute(db);
  } else {
    for (const table of ["question_responses", "attribute_responses"])
      for (const event of ["insert", "update", "delete"])
        await sql`drop trigger if exists ${sql.id(`${table}_case_version_${event}`)}`.execute(db);
  }
  await db.schema.dropTable("case_export_rows").execute();
  await db.schema.alterTable("patient_data").dropColumn("answers_version").execute();
}
