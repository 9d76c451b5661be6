import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DB } from "~/server/db/db.server";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { blobChecksum, type AttachmentStore } from "~/server/storage/attachments.server";
import { databaseStore } from "~/server/storage/database-store.server";
import { fileStore } from "~/server/storage/file-store.server";
import { form, text } from "../api/fill-files";
import { questionId, startCase, useFillWorld } from "../api/fill-support";
import { createPostgresDatabase } from "../server/real-server";
import { storeSetups, useStoreEnv } from "../support/stores";

/**
 * Backups taken while people upload, by the procedure docs/operations.md gives for each store, restore with
 * the bytes of every attachment row: the database store's rows and bytes are in one dump; the file and
 * object stores are copied after the database, and their blobs are written before their rows commit.
 */

const run = promisify(execFile);

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe.each(storeSetups)("a backup during uploads, $name", (setup) => {
  const stores = useStoreEnv(setup);
  const world = useFillWorld(setup.db, () => idp, undefined, stores.env);
  const dir = path.join(os.tmpdir(), `survey-backup-${process.pid}-${setup.store}-${setup.db}`);
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("restores every attachment row with its bytes", async () => {
    const w = world();
    await fs.mkdir(dir, { recursive: true });
    const question = await questionId(w.db, w.a.heart, "Zeitpunkt der Messung");
    const cases: number[] = [];
    for (let i = 0; i < 10; i++) cases.push(await startCase(w, w.a.heart, `BACKUP_${i}`));

    // 50 uploads, three at a time, while the backup is taken.
    let sent = 0;
    let done = 0;
    let tenDone = () => {};
    const tenStored = new Promise<void>((resolve) => (tenDone = resolve));
    const uploads = async () => {
      while (sent < 50) {
        const i = sent++;
        const query = `questionId=${question}&patientDataId=${cases[i % 10]}&surveyId=${w.a.heart}`;
        const res = await w.raw("user", "POST", `/file-attachments/upload?${query}`, {
          body: form([`datei-${i}.txt`, text(`Inhalt ${i} `.repeat(2000))]),
        });
        expect(res.status).toBe(200);
        if (++done === 10) tenDone();
      }
    };
    const uploading = Promise.all([uploads(), uploads(), uploads()]);
    await tenStored;
    // The backup starts while uploads are under way, and they go on while it runs.
    const doneBefore = done;
    expect(doneBefore).toBeLessThan(45);

    let restoredDb: DB;
    let restoredStore: AttachmentStore;
    if (setup.db === "postgres") {
      // docs/operations.md, "Backups", PostgreSQL: one dump.
      const dump = path.join(dir, "survey.dump");
      await run("pg_dump", ["--format=custom", `--file=${dump}`, w.api.testDb.url!]);
      await uploading;
      const fresh = await createPostgresDatabase();
      cleanups.push(fresh.drop);
      await run("pg_restore", ["--no-owner", "--exit-on-error", `--dbname=${fresh.url}`, dump]);
      restoredDb = createDb({ databaseUrl: fresh.url, dataDir: dir });
    } else {
      // docs/operations.md, "Backups", SQLite: an online copy, then (file store) the attachments folder.
      const { rows } = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(
        w.db,
      );
      const target = path.join(dir, "restored");
      await fs.mkdir(target, { recursive: true });
      await run("sqlite3", [rows[0].file, `VACUUM INTO '${path.join(target, "survey.sqlite")}'`]);
      if (setup.store === "file") {
        await run("cp", ["-a", w.api.ctx.env.attachmentsDir, path.join(target, "attachments")]);
      }
      await uploading;
      restoredDb = createDb({ dataDir: target });
    }
    cleanups.push(() => restoredDb.destroy());
    if (setup.store === "database") restoredStore = databaseStore(restoredDb);
    else if (setup.store === "file") restoredStore = fileStore(path.join(dir, "restored", "attachments"));
    // The object store: the bucket itself (versioned in production), whose objects outlive the backup.
    else restoredStore = w.api.ctx.attachments;

    const restoredRows = await restoredDb
      .selectFrom("file_attachments")
      .select(["id", "storage_key", "size"])
      .orderBy("id")
      .execute();
    expect(restoredRows.length).toBeGreaterThanOrEqual(doneBefore);
    const live = await w.db.selectFrom("file_attachments").select(["id", "storage_key"]).execute();
    expect(live).toHaveLength(50);
    const liveKeys = new Map(live.map((r) => [r.id, r.storage_key]));
    const missing: number[] = [];
    for (const row of restoredRows) {
      const restored = await blobChecksum(restoredStore, row.storage_key);
      if (restored === null) missing.push(row.id);
      else expect(restored).toBe(await blobChecksum(w.api.ctx.attachments, liveKeys.get(row.id)!));
    }
    expect(missing).toEqual([]);
  }, 120_000);
});
