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
  // The blocks holding a case, from the triggers below.
  await db.schema.createIndex("case_export_blocks_last_idx").on("case_export_blocks").column("last_id").execute();

  if (postgres) {
    // Deflated already: PostgreSQL would try to compress each value again in vain.
    await sql`alter table case_export_blocks alter column bytes set storage external`.execute(db);
    for (const [fn, column] of [
      ["case_export_blocks_forget_cases", "id"],
      ["case_export_blocks_forget_lines", "patient_data_id"],
    ] as const) {
      await sql`create function ${sql.id(fn)}() returns trigger language plpgsql as $$
        begin
          delete from case_export_blocks b using (select distinct ${sql.id(column)} as id from gone) g
            where b.last_id >= g.id and b.first_id <= g.id;
          return null;
        end $$`.execute(db);
    }
    await sql`create trigger patient_data_forget_export_blocks after delete on patient_data
      referencing old table as gone for each statement execute function case_export_blocks_forget_cases()`.execute(db);
    for (const event of ["update", "delete"]) {
      await sql`create trigger ${sql.id(`case_export_rows_forget_blocks_${event}`)} after ${sql.raw(event)}
        on case_export_rows referencing old table as gone for each statement
        execute function case_export_blocks_forget_lines()`.execute(db);
    }
    return;
  }
  const forget = (id: string) =>
    sql.raw(`delete from case_export_blocks where last_id >= ${id} and first_id <= ${id};`);
  await sql`create trigger patient_data_forget_export_blocks after delete on patient_data
    begin ${forget("old.id")} end`.execute(db);
  for (const event of ["update", "delete"]) {
    await sql`create trigger ${sql.id(`case_export_rows_forget_blocks_${event}`)} after ${sql.raw(event)}
      on case_export_rows begin ${forget("old.patient_data_id")} end`.execute(db);
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
