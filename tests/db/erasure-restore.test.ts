import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DB } from "~/server/db/db.server";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { verifyStoredChain } from "~/server/services/audit-verify.server";
import { erasureKey } from "~/server/services/erasure/keys.server";
import { exportTombstones, reapplyErasures } from "~/server/services/erasure/reapply.server";
import { erase, fullCase } from "../api/erasure-support";
import { useFillWorld } from "../api/fill-support";
import { createPostgresDatabase } from "../server/real-server";
import { dialects } from "../support/databases";

/**
 * A backup taken before an erasure still holds the erased case; restored, it is erased again from the
 * tombstones exported from the live database (docs/operations.md, "Backups and restore"; decision 042).
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

const run = (command: string, args: string[]) => execFileSync(command, args, { stdio: "pipe" }).toString();

describe.each(dialects)("a restored backup erased again on %s", (kind) => {
  const world = useFillWorld(kind, () => idp);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "survey-erasure-backup-"));
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The backup as docs/operations.md takes it, restored into a fresh database. */
  async function backupAndRestorer(db: DB): Promise<() => Promise<DB>> {
    if (kind === "sqlite") {
      const { rows } = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(
        db,
      );
      const backup = path.join(dir, "survey-backup.sqlite");
      run("sqlite3", [rows[0].file, `VACUUM INTO '${backup}'`]);
      return async () => {
        const target = path.join(dir, "restored");
        fs.mkdirSync(target);
        fs.copyFileSync(backup, path.join(target, "survey.sqlite"));
        return createDb({ dataDir: target });
      };
    }
    const dump = path.join(dir, "survey.dump");
    run("pg_dump", ["--format=custom", `--file=${dump}`, world().api.testDb.url!]);
    return async () => {
      const fresh = await createPostgresDatabase();
      cleanups.push(fresh.drop);
      run("pg_restore", ["--no-owner", "--exit-on-error", `--dbname=${fresh.url}`, dump]);
      return createDb({ databaseUrl: fresh.url, dataDir: dir });
    };
  }

  it("finds the erased case in the restored backup and erases it again, the chain verifying", async () => {
    const w = world();
    const survey = w.a.heart;
    await fullCase(w, survey, "BACKUP_1");
    await fullCase(w, survey, "BACKUP_2");
    const restore = await backupAndRestorer(w.db);
    expect((await erase(w, survey, "BACKUP_1")).status).toBe(200);
    const tombstones = await exportTombstones(w.db);
    expect(tombstones).toHaveLength(1);
    expect(JSON.stringify(tombstones)).not.toContain("BACKUP_1");

    const restored = await restore();
    cleanups.unshift(() => restored.destroy());
    const patients = async () =>
      (await restored.selectFrom("patient_data").select("patient_id").where("survey_id", "=", survey).execute()).map(
        (r) => r.patient_id,
      );
    expect(await patients()).toContain("BACKUP_1");

    const key = erasureKey(w.api.ctx.env);
    expect(await reapplyErasures(restored, w.api.ctx.attachments, key, tombstones)).toBe(1);
    expect(await patients()).not.toContain("BACKUP_1");
    expect(await patients()).toContain("BACKUP_2");
    const rows = await restored.selectFrom("audit_log").selectAll().where("survey_id", "=", survey).execute();
    expect(JSON.stringify(rows)).not.toContain("BACKUP_1");
    expect(await verifyStoredChain(restored, String(survey))).toMatchObject({ ok: true });
    // Applying the same tombstones again changes nothing.
    expect(await reapplyErasures(restored, w.api.ctx.attachments, key, tombstones)).toBe(0);
  }, 120_000);
});
