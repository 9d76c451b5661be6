// Copies the data of the SQLite database (DATA_DIR/survey.sqlite, or --sqlite) into an empty PostgreSQL
// database (--to), keeping every id (docs/operations.md, "From SQLite to PostgreSQL").
//   npm run db:copy -- --to postgres://survey@db-host/survey
import path from "node:path";
import { parseArgs } from "node:util";
import { copySqliteToPostgres } from "~/server/db/copy.server";
import { createDb } from "~/server/db/db.server";
import { migrateToLatest } from "~/server/db/migrate.server";
import { getEnv } from "~/server/env.server";

const { values } = parseArgs({ options: { sqlite: { type: "string" }, to: { type: "string" } } });
if (!values.to || !/^postgres(ql)?:\/\//.test(values.to)) {
  console.error("Usage: npm run db:copy -- --to postgres://… [--sqlite path/to/survey.sqlite]");
  process.exit(2);
}
const env = getEnv();
const file = path.resolve(values.sqlite ?? path.join(env.DATA_DIR, "survey.sqlite"));
const source = createDb({ dataDir: path.dirname(file), filename: path.basename(file) });
const target = createDb({ dataDir: env.DATA_DIR, databaseUrl: values.to });
try {
  await migrateToLatest(source);
  await migrateToLatest(target);
  const report = await copySqliteToPostgres(source, target, (table, rows) => console.log(`${table}: ${rows} rows`));
  const total = report.tables.reduce((sum, t) => sum + t.rows, 0);
  console.log(`Done: ${total} rows in ${report.tables.length} tables copied from ${file}.`);
} finally {
  await source.destroy();
  await target.destroy();
}
