import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DB } from "~/server/db/db.server";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { chainKeys, verifyStoredChain } from "~/server/services/audit-verify.server";
import { surveyStatistics } from "~/server/services/statistics/statistics.server";
import { blobChecksum } from "~/server/storage/attachments.server";
import { databaseStore } from "~/server/storage/database-store.server";
import { read, useStatisticsWorld } from "../api/statistics-support";
import { createPostgresDatabase } from "../server/real-server";
import { dialects } from "../support/databases";
import { editorOf } from "../support/editor-of";

/**
 * The move docs/operations.md describes for a clinic that outgrows one machine, with its own commands: the
 * data from the SQLite file into an empty PostgreSQL database (npm run db:copy), then the attachments from
 * the folder into the database store (npm run attachments:move). Afterwards every row is the same, the
 * statistics are the same and every file's bytes are in PostgreSQL.
 */

const run = promisify(execFile);
const thresholds = { RedBelow: 50, YellowBelow: 75, MinResponses: 5 };

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

/**
 * Every row of a table in a form both databases give alike (bytes as hex), sorted. A case's answers version is left out: like the statistics counters,
 * it is moved by the target's own triggers as the answers arrive (migration 0014).
 */
async function rowsOf(db: DB, table: string): Promise<unknown[]> {
  const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db);
  const plain = rows.map((row) =>
    Object.fromEntries(
      Object.entries(row)
        .filter(([k]) => !(table === "patient_data" && k === "answers_version"))
        .map(([k, v]) => [k, Buffer.isBuffer(v) ? v.toString("hex") : v === null ? null : v]),
    ),
  );
  return plain.map((r) => JSON.stringify(r)).sort();
}

describe.skipIf(!dialects.includes("postgres"))("from SQLite and a folder to PostgreSQL", () => {
  const { world, fixture } = useStatisticsWorld("sqlite", () => idp);
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it("copies every row with its id and every file with its bytes, and the statistics stay the same", async () => {
    const w = world();
    const survey = fixture().survey;
    const files = Object.values(fixture().files).flat();
    expect(files.length).toBeGreaterThan(0);
    const before = await read(await w.call("editor", "POST", `/statistics/${survey}`, {}));

    const { rows } = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(
      w.db,
    );
    const target = await createPostgresDatabase();
    cleanups.push(target.drop);
    const env = { ...process.env, DATA_DIR: w.api.ctx.env.DATA_DIR, LOG_LEVEL: "error" };
    const copy = await run("npx", ["tsx", "scripts/db-copy.ts", "--sqlite", rows[0].file, "--to", target.url], {
      env,
    });
    expect(copy.stdout).toMatch(/Done: \d+ rows in \d+ tables/);
    const moved = await run("npx", ["tsx", "scripts/attachments-move.ts", "--from", "file", "--to", "database"], {
      env: { ...env, DATABASE_URL: target.url, ATTACHMENTS_DIR: w.api.ctx.env.attachmentsDir },
    });
    expect(moved.stdout).toContain(`Done: ${files.length} attachments, ${files.length} copied and verified`);

    const pg = createDb({ databaseUrl: target.url, dataDir: path.join(w.api.ctx.env.DATA_DIR, "pg") });
    cleanups.push(() => pg.destroy());
    const tables = (
      await sql<{
        name: string;
      }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%' and name not in ('leases', 'attachment_blobs', 'statistics_versions', 'response_words', 'response_words_pending', 'question_words', 'response_words_gone', 'case_export_rows', 'answer_counts', 'answer_count_changes', 'case_export_blocks')`.execute(
        w.db,
      )
    ).rows.map((r) => r.name);
    expect(tables.length).toBeGreaterThan(20);
    for (const table of tables) expect(await rowsOf(pg, table), table).toEqual(await rowsOf(w.db, table));

    const editor = await editorOf(w.db);
    expect(await surveyStatistics(pg, await editorOf(pg), survey, {}, thresholds)).toEqual(
      await surveyStatistics(w.db, editor, survey, {}, thresholds),
    );
    expect(before.NumSurveyResponses).toBe(6);

    const store = databaseStore(pg);
    for (const row of await w.db.selectFrom("file_attachments").select(["storage_key"]).execute()) {
      expect(await blobChecksum(store, row.storage_key)).toBe(
        await blobChecksum(w.api.ctx.attachments, row.storage_key),
      );
    }
    // The copy takes new rows after the highest id, and the audit log stays append-only.
    const maxSurvey = await w.db
      .selectFrom("surveys")
      .select((eb) => eb.fn.max("id").as("id"))
      .executeTakeFirstOrThrow();
    const team = await pg
      .insertInto("teams")
      .values({ name: "nach dem Umzug" })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect(team.id).toBeGreaterThan(0);
    const survey2 = await sql<{
      id: number;
    }>`select nextval(pg_get_serial_sequence('surveys', 'id'))::int as id`.execute(pg);
    expect(survey2.rows[0].id).toBeGreaterThan(Number(maxSurvey.id));
    await expect(pg.deleteFrom("audit_log").execute()).rejects.toThrow(/append-only/);
    // Every audit chain arrives whole, heads included (docs/decisions/027-audit-chain.md).
    const chains = await chainKeys(pg);
    expect(chains.length).toBeGreaterThan(0);
    for (const key of chains) expect(await verifyStoredChain(pg, key), key).toMatchObject({ ok: true });

    // A second copy into the same database is refused: it is no longer empty.
    await expect(
      run("npx", ["tsx", "scripts/db-copy.ts", "--sqlite", rows[0].file, "--to", target.url], { env }),
    ).rejects.toThrow(/not empty/);
  }, 180_000);
});
