import { sql } from "kysely";
import { schemaHelpers, type MigrationDb } from "./helpers";

/**
 * A counter per survey that every write changing its statistics moves, in the write's own transaction
 * (docs/decisions/011-statistics.md, "Results kept"): a case that is or was Closed, and the answers and
 * preliminary answers of a Closed case. Triggers keep it, so no write path can forget it, on either database
 * and from any copy of the server.
 */
export async function up(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);
  await db.schema
    .createTable("statistics_versions")
    .addColumn("survey_id", "integer", (c) => c.primaryKey().references("surveys.id").onDelete("cascade"))
    .addColumn("version", h.dialect === "postgres" ? "bigint" : "integer", (c) => c.notNull().defaultTo(0))
    .$call(h.strict)
    .execute();
  await sql`insert into statistics_versions (survey_id) select id from surveys`.execute(db);

  if (h.dialect === "postgres") {
    await sql`create function statistics_versions_add() returns trigger language plpgsql as $$
      begin insert into statistics_versions (survey_id) values (new.id); return null; end $$`.execute(db);
    await sql`create trigger surveys_statistics_version after insert on surveys
      for each row execute function statistics_versions_add()`.execute(db);
    // Once per statement: a bulk write moves each survey's counter once.
    await sql`create function statistics_bump_cases() returns trigger language plpgsql as $$
      begin
        update statistics_versions set version = version + 1 where survey_id in (
          select survey_id from changed where state = 'Closed');
        return null;
      end $$`.execute(db);
    await sql`create function statistics_bump_answers() returns trigger language plpgsql as $$
      begin
        update statistics_versions set version = version + 1 where survey_id in (
          select c.survey_id from changed c join patient_data pd on pd.id = c.patient_data_id
          where pd.state = 'Closed');
        return null;
      end $$`.execute(db);
    for (const [table, fn] of [
      ["patient_data", "statistics_bump_cases"],
      ["question_responses", "statistics_bump_answers"],
      ["attribute_responses", "statistics_bump_answers"],
    ] as const) {
      for (const [event, tables] of [
        ["insert", sql`new table as changed`],
        ["delete", sql`old table as changed`],
        ["update", sql`new table as changed`],
      ] as const) {
        await sql`create trigger ${sql.id(`${table}_statistics_${event}`)} after ${sql.raw(event)} on ${sql.table(table)}
          referencing ${tables} for each statement execute function ${sql.id(fn)}()`.execute(db);
      }
    }
    // An update that ends a case's Closed state (reopened) counts too: its old rows are read.
    await sql`create trigger patient_data_statistics_reopen after update on patient_data
      referencing old table as changed for each statement execute function statistics_bump_cases()`.execute(db);
    return;
  }

  await sql`create trigger surveys_statistics_version after insert on surveys
    begin insert into statistics_versions (survey_id) values (new.id); end`.execute(db);
  const bump = (survey: string) =>
    sql.raw(`update statistics_versions set version = version + 1 where survey_id = ${survey};`);
  await sql`create trigger patient_data_statistics_insert after insert on patient_data when new.state = 'Closed'
    begin ${bump("new.survey_id")} end`.execute(db);
  await sql`create trigger patient_data_statistics_update after update on patient_data
    when old.state = 'Closed' or new.state = 'Closed'
    begin ${bump("old.survey_id")} ${bump("new.survey_id")} end`.execute(db);
  await sql`create trigger patient_data_statistics_delete after delete on patient_data when old.state = 'Closed'
    begin ${bump("old.survey_id")} end`.execute(db);
  const closed = (row: string) =>
    sql.raw(`exists (select 1 from patient_data where id = ${row}.patient_data_id and state = 'Closed')`);
  for (const table of ["question_responses", "attribute_responses"]) {
    await sql`create trigger ${sql.id(`${table}_statistics_insert`)} after insert on ${sql.table(table)}
      when ${closed("new")} begin ${bump("new.survey_id")} end`.execute(db);
    await sql`create trigger ${sql.id(`${table}_statistics_update`)} after update on ${sql.table(table)}
      when ${closed("new")} or ${closed("old")} begin ${bump("old.survey_id")} ${bump("new.survey_id")} end`.execute(
      db,
    );
    await sql`create trigger ${sql.id(`${table}_statistics_delete`)} after delete on ${sql.table(table)}
      when ${closed("old")} begin ${bump("old.survey_id")} end`.execute(db);
  }
}

export async function down(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);
  if (h.dialect === "postgres") {
    for (const fn of ["statistics_versions_add", "statistics_bump_cases", "statistics_bump_answers"]) {
      await sql`drop function if exists ${sql.id(fn)}() cascade`.execute(db);
    }
  } else {
    const triggers = ["surveys_statistics_version"];
    for (const table of ["patient_data", "question_responses", "attribute_responses"])
      for (const event of ["insert", "update", "delete"]) triggers.push(`${table}_statistics_${event}`);
    for (const t of triggers) await sql`drop trigger if exists ${sql.id(t)}`.execute(db);
  }
  await db.schema.dropTable("statistics_versions").execute();
}
