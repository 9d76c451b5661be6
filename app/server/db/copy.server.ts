import { sql } from "kysely";
import { dialectOf } from "./db.server";
import type { DB } from "./types.server";

export interface CopyReport {
  /** Rows copied, by table, in the order the tables were copied. */
  tables: { table: string; rows: number }[];
}

interface ForeignKey {
  column: string;
  table: string;
  nullable: boolean;
}

/**
 * Not copied: locks of the running copies; the statistics counters, which the target's triggers create
 * and move as the rows arrive; and the words counted per free text, which the target's triggers note for
 * counting again as the answers arrive; the answer counts, which the target's triggers note again as the
 * answers arrive; and the export's kept lines and blocks, written anew at the first export (the
 * migrator's own tables are not read either).
 */
const SKIPPED = new Set([
  "leases",
  "statistics_versions",
  "response_words",
  "response_words_pending",
  "question_words",
  "response_words_gone",
  "answer_counts",
  "answer_count_changes",
  "case_export_blocks",
]);

async function tablesOf(source: DB): Promise<Map<string, ForeignKey[]>> {
  const names = await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`.execute(
    source,
  );
  const tables = new Map<string, ForeignKey[]>();
  for (const { name } of names.rows) {
    if (SKIPPED.has(name) || name.startsWith("sqlite_") || name.startsWith("kysely_")) continue;
    const keys = await sql<{ from: string; table: string }>`select * from pragma_foreign_key_list(${name})`.execute(
      source,
    );
    const columns = await sql<{ name: string; notnull: number }>`select * from pragma_table_info(${name})`.execute(
      source,
    );
    const required = new Set(columns.rows.filter((c) => c.notnull).map((c) => c.name));
    tables.set(
      name,
      keys.rows.map((k) => ({ column: k.from, table: k.table, nullable: !required.has(k.from) })),
    );
  }
  return tables;
}

/**
 * Tables in an order where each comes after those its required references name. An optional reference to a
 * table that comes later, or to its own table (a sub-question's answer option, a survey's original), is
 * written as null first and set once every row is in.
 */
function copyOrder(tables: Map<string, ForeignKey[]>): { order: string[]; later: Map<string, string[]> } {
  const required = (table: string) => (tables.get(table) ?? []).filter((k) => !k.nullable).map((k) => k.table);
  const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
    from === to || required(from).some((next) => !seen.has(next) && (seen.add(next), reaches(next, to, seen)));
  // An optional reference is set later when its table needs this one first.
  const later = new Map<string, string[]>();
  for (const [table, keys] of tables) {
    const deferred = keys.filter((k) => k.nullable && reaches(k.table, table)).map((k) => k.column);
    if (deferred.length > 0) later.set(table, deferred);
  }
  const order: string[] = [];
  const visit = (table: string, path: string[]) => {
    if (order.includes(table)) return;
    if (path.includes(table)) throw new Error(`Required references run in a cycle: ${[...path, table].join(" > ")}`);
    for (const key of tables.get(table) ?? []) {
      if (key.table !== table && !later.get(table)?.includes(key.column)) visit(key.table, [...path, table]);
    }
    order.push(table);
  };
  for (const table of tables.keys()) visit(table, []);
  return { order, later };
}

/**
 * Copies every row of a SQLite database into an empty, migrated PostgreSQL database, keeping every id, in
 * one transaction: a failure leaves the target empty. References that run in a cycle (a sub-question's
 * answer option, a survey's original) are written as null first and set once every row is in. The
 * identity counters of the target continue after the highest copied id.
 */
export async function copySqliteToPostgres(
  source: DB,
  target: DB,
  onTable: (table: string, rows: number) => void = () => undefined,
): Promise<CopyReport> {
  if (dialectOf(source) !== "sqlite" || dialectOf(target) !== "postgres") {
    throw new Error("The copy reads a SQLite database and writes a PostgreSQL database");
  }
  const tables = await tablesOf(source);
  const { order, later } = copyOrder(tables);
  const report: CopyReport = { tables: [] };
  // The references that are set once every row is in.
  const pending: { table: string; column: string; id: unknown; value: unknown }[] = [];
  await target.transaction().execute(async (trx) => {
    for (const table of order) {
      const found = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(trx);
      if (found.rows[0].n > 0) throw new Error(`The target database is not empty: ${table} holds rows`);
    }
    for (const table of order) {
      const deferred = later.get(table) ?? [];
      const hasId = (
        await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(source)
      ).rows.some((c) => c.name === "id");
      let copied = 0;
      let offset = 0;
      for (;;) {
        const rows = (
          await sql<
            Record<string, unknown>
          >`select * from ${sql.table(table)} order by ${sql.raw(hasId ? "id" : "rowid")} limit 500 offset ${offset}`.execute(
            source,
          )
        ).rows;
        if (rows.length === 0) break;
        offset += rows.length;
        const values = rows.map((row) => ({ ...row, ...Object.fromEntries(deferred.map((c) => [c, null])) }));
        await trx
          .insertInto(table as never)
          .values(values as never)
          .execute();
        for (const row of rows) {
          for (const column of deferred) {
            if (row[column] !== null) pending.push({ table, column, id: row.id, value: row[column] });
          }
        }
        copied += rows.length;
      }
      if (hasId && copied > 0) {
        await sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.table(table)}))`.execute(
          trx,
        );
      }
      report.tables.push({ table, rows: copied });
      onTable(table, copied);
    }
    for (const p of pending) {
      await sql`update ${sql.table(p.table)} set ${sql.ref(p.column)} = ${p.value} where id = ${p.id}`.execute(trx);
    }
  });
  return report;
}
