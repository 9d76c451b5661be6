import { sql } from "kysely";
import { schemaHelpers, type MigrationDb } from "./helpers";

/**
 * The export's lines kept compressed, a block of cases at a time (docs/decisions/061-export-blocks.md): the
 * raw deflate of one run of consecutive counted cases' whole lines, ending in a sync flush, so that blocks
 * follow one another in one zip entry and an export of unchanged cases copies bytes instead of deflating them.
 * A block covers the case ids `first_id` to `last_id` of its survey and holds, in `fingerprint`, a digest of
 * those cases' ids, answers versions and own cells as they were written; the export uses it only while the
 * same digest comes out of the cases as they are. A block is made from the cases' kept lines
 * (case_export_rows): when a kept line is changed or removed, or a case goes (an erasure), triggers remove
 * every block whose range holds it, in the same transaction, so no block outlives what it was made from.
 */
export async function up(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);
  const postgres = h.dialect === "postgres";
  await db.schema
    .createTable("case_export_blocks")
    .addColumn("survey_id", "integer", (c) => c.notNull().references("surveys.id").onDelete("cascade"))
    .addColumn("first_id", "integer", (c) => c.notNull())
    .addColumn("last_id", "integer", (c) => c.notNull())
    .addColumn("layout", "text", (c) => c.notNull())
    .addColumn("fingerprint", "text", (c) => c.notNull())
    .addColumn("size", "integer", (c) => c.notNull())
    // The CRC-32 of the block's bytes before compression: up to 2^32 - 1, beyond PostgreSQL's integer.
    .addColumn("crc", postgres ? "bigint" : "integer", (c) => c.notNull())
    .$call(h.flag("breaks"))
    .addColumn("bytes", postgres ? "bytea" : "blob", (c) => c.notNull())
    .addPrimaryKeyConstraint("case_export_blocks_pkey", ["survey_id", "first_id"])
    .$call(h.strict)
    .execute();
  if (postgres) {
    // Deflated already: PostgreSQL would try to compress each value again in vain.
    await sql`alter table case_export_blocks alter column bytes set storage external`.execute(db);
    // The block of a case: its survey's block that starts last at or before it, if it reaches the case (the
    // blocks of a survey do not overlap). One step back along the primary key per case, also for a million.
    const forget = (cases: ReturnType<typeof sql>) => sql`
      delete from case_export_blocks b using (${cases}) g
        cross join lateral (select x.first_id from case_export_blocks x where x.survey_id = g.survey_id
          and x.first_id <= g.id order by x.first_id desc limit 1) f
        where b.survey_id = g.survey_id and b.first_id = f.first_id and b.last_id >= g.id;`;
    await sql`create function case_export_blocks_forget_cases() returns trigger language plpgsql as $$
      begin ${forget(sql`select distinct survey_id, id from gone`)} return null; end $$`.execute(db);
    // A line whose case is gone too: the case's own trigger above finds its block.
    await sql`create function case_export_blocks_forget_lines() returns trigger language plpgsql as $$
      begin
        ${forget(sql`select distinct pd.survey_id, pd.id from gone join patient_data pd on pd.id = gone.patient_data_id`)}
        return null;
      end $$`.execute(db);
    await sql`create trigger patient_data_forget_export_blocks after delete on patient_data
      referencing old table as gone for each statement execute function case_export_blocks_forget_cases()`.execute(db);
    for (const event of ["update", "delete"]) {
      await sql`create trigger ${sql.id(`case_export_rows_forget_blocks_${event}`)} after ${sql.raw(event)}
        on case_export_rows referencing old table as gone for each statement
        execute function case_export_blocks_forget_lines()`.execute(db);
    }
    return;
  }
  const forget = (survey: string, id: string) =>
    sql.raw(`delete from case_export_blocks where survey_id = ${survey} and last_id >= ${id} and first_id = (
      select max(first_id) from case_export_blocks where survey_id = ${survey} and first_id <= ${id});`);
  await sql`create trigger patient_data_forget_export_blocks after delete on patient_data
    begin ${forget("old.survey_id", "old.id")} end`.execute(db);
  const surveyOf = "(select survey_id from patient_data where id = old.patient_data_id)";
  for (const event of ["update", "delete"]) {
    await sql`create trigger ${sql.id(`case_export_rows_forget_blocks_${event}`)} after ${sql.raw(event)}
      on case_export_rows begin ${forget(surveyOf, "old.patient_data_id")} end`.execute(db);
  }
}

export async function down(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);
  if (h.dialect === "postgres") {
    for (const fn of ["case_export_blocks_forget_cases", "case_export_blocks_forget_lines"])
      await sql`drop function if exists ${sql.id(fn)}() cascade`.execute(db);
  } else {
    for (const t of [
      "patient_data_forget_export_blocks",
      "case_export_rows_forget_blocks_update",
      "case_export_rows_forget_blocks_delete",
    ])
      await sql`drop trigger if exists ${sql.id(t)}`.execute(db);
  }
  await db.schema.dropTable("case_export_blocks").execute();
}
