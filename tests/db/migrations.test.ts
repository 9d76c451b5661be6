import os from "node:os";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createDb } from "~/server/db/db.server";
import { createMigrator, migrateToLatest, migrations } from "~/server/db/migrate.server";
import type { TableName } from "~/server/db/types.server";
import { describeEachDialect, openTestDb, type TestDb } from "../support/databases";

const expectedTables: TableName[] = [
  "users",
  "teams",
  "user_teams",
  "tags",
  "sessions",
  "audit_log",
  "surveys",
  "survey_tags",
  "survey_team_permissions",
  "categories",
  "questions",
  "question_dependence_options",
  "answer_options",
  "patient_forms",
  "patient_form_attributes",
  "patient_form_answer_options",
  "patient_data",
  "question_responses",
  "attribute_responses",
  "file_attachments",
  "dashboards",
  "charts",
  "sync_requests",
];

describeEachDialect("migrations", (kind) => {
  let handle: TestDb;
  beforeAll(async () => {
    handle = await openTestDb(kind, { migrate: false });
  });
  afterAll(async () => {
    await handle?.cleanup();
  });

  it("apply every migration in order to an empty database", async () => {
    const { error, results } = await createMigrator(handle.db).migrateToLatest();
    expect(error).toBeUndefined();
    expect(results?.map((r) => [r.migrationName, r.status])).toEqual(
      Object.keys(migrations).map((name) => [name, "Success"]),
    );
    const tables = (await handle.db.introspection.getTables()).map((t) => t.name);
    expect(tables).toEqual(expect.arrayContaining(expectedTables));
  });

  it("are a no-op when run again", async () => {
    const before = await sql<{ n: number }>`select count(*) as n from kysely_migration`.execute(handle.db);
    const { error, results } = await createMigrator(handle.db).migrateToLatest();
    expect(error).toBeUndefined();
    expect(results).toEqual([]);
    await migrateToLatest(handle.db);
    const after = await sql<{ n: number }>`select count(*) as n from kysely_migration`.execute(handle.db);
    expect(after.rows[0].n).toBe(Object.keys(migrations).length);
    expect(after.rows).toEqual(before.rows);
  });

  it.skipIf(kind !== "postgres")("run once when several servers start at the same time", async () => {
    const fresh = await openTestDb(kind, { migrate: false });
    const others = [1, 2, 3].map(() => createDb({ databaseUrl: fresh.url, dataDir: os.tmpdir() }));
    try {
      await Promise.all([fresh.db, ...others].map((db) => migrateToLatest(db)));
      const applied = await sql<{ n: number }>`select count(*) as n from kysely_migration`.execute(fresh.db);
      expect(applied.rows[0].n).toBe(Object.keys(migrations).length);
    } finally {
      await Promise.all(others.map((db) => db.destroy()));
      await fresh.cleanup();
    }
  });

  it("roll all the way down and up again", async () => {
    const migrator = createMigrator(handle.db);
    let down;
    do {
      down = await migrator.migrateDown();
      expect(down.error).toBeUndefined();
    } while (down.results && down.results.length > 0);
    const remaining = (await handle.db.introspection.getTables()).map((t) => t.name);
    expect(remaining.filter((t) => (expectedTables as string[]).includes(t))).toEqual([]);
    await migrateToLatest(handle.db);
    const tables = (await handle.db.introspection.getTables()).map((t) => t.name);
    expect(tables).toEqual(expect.arrayContaining(expectedTables));
  });

  it("report a failing migration with its name", async () => {
    // The last migration is forgotten but what it made stays, so making it again fails.
    const last = Object.keys(migrations).at(-1)!;
    await sql`delete from kysely_migration where name = ${last}`.execute(handle.db);
    await expect(migrateToLatest(handle.db)).rejects.toThrow(new RegExp(`${last} failed`));
  });
});
