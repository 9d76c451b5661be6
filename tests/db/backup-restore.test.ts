import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DB } from "~/server/db/db.server";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { surveyStatistics } from "~/server/services/statistics/statistics.server";
import { read, useStatisticsWorld } from "../api/statistics-support";
import { createPostgresDatabase } from "../server/real-server";
import { dialects } from "../support/databases";
import { editorOf } from "../support/editor-of";

/**
 * Backup and restore as docs/operations.md describes them, with the same commands: a database holding the
 * statistics fixtures is backed up while it is open, restored into a fresh database, and the restored one
 * gives the same statistics (and keeps the audit log append-only).
 */

const thresholds = { RedBelow: 50, YellowBelow: 75, MinResponses: 5 };

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

const run = (command: string, args: string[]) => execFileSync(command, args, { stdio: "pipe" }).toString();

for (const kind of ["sqlite", "postgres"] as const) {
  describe.skipIf(!dialects.includes(kind))(`backup and restore [${kind}]`, () => {
    const { world, fixture } = useStatisticsWorld(kind, () => idp);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "survey-backup-"));
    const cleanups: (() => Promise<unknown>)[] = [];

    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it("restores a database whose statistics equal the original's", async () => {
      const survey = fixture().survey;
      const original = world().db;
      const before = await read(await world().call("editor", "POST", `/statistics/${survey}`, {}));
      expect(before.NumSurveyResponses).toBe(6);

      let restored: DB;
      if (kind === "sqlite") {
        const { rows } = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(
          original,
        );
        const live = rows[0].file;
        const backup = path.join(dir, "survey-backup.sqlite");
        // docs/operations.md, "Backups", SQLite: an online copy while the server runs.
        run("sqlite3", [live, `VACUUM INTO '${backup}'`]);
        const target = path.join(dir, "restored");
        fs.mkdirSync(target);
        fs.copyFileSync(backup, path.join(target, "survey.sqlite"));
        restored = createDb({ dataDir: target });
      } else {
        const url = world().api.testDb.url!;
        const dump = path.join(dir, "survey.dump");
        // docs/operations.md, "Backups", PostgreSQL.
        run("pg_dump", ["--format=custom", `--file=${dump}`, url]);
        const fresh = await createPostgresDatabase();
        cleanups.push(fresh.drop);
        run("pg_restore", ["--no-owner", "--exit-on-error", `--dbname=${fresh.url}`, dump]);
        restored = createDb({ databaseUrl: fresh.url, dataDir: dir });
      }
      cleanups.unshift(() => restored.destroy());

      const caller = await editorOf(original);
      const fromOriginal = await surveyStatistics(original, caller, survey, {}, thresholds);
      const fromRestored = await surveyStatistics(restored, await editorOf(restored), survey, {}, thresholds);
      expect(fromRestored).toEqual(fromOriginal);
      expect(fromRestored.NumSurveyResponses).toBe(6);
      const count = async (db: DB) =>
        (
          await db
            .selectFrom("audit_log")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n;
      expect(Number(await count(restored))).toBe(Number(await count(original)));
      // The restored audit log is still append-only.
      await expect(restored.deleteFrom("audit_log").execute()).rejects.toThrow(/append-only/);
      // The restored database takes writes.
      const inserted = await restored
        .insertInto("teams")
        .values({ name: "after restore" })
        .returning("id")
        .executeTakeFirstOrThrow();
      expect(inserted.id).toBeGreaterThan(0);
    }, 120_000);
  });
}
