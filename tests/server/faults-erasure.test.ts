import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialectOf } from "~/server/db/db.server";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { verifyStoredChain } from "~/server/services/audit-verify.server";
import { eraseCase } from "~/server/services/erasure/erase.server";
import { erasureKey } from "~/server/services/erasure/keys.server";
import { readBlob } from "~/server/storage/attachments.server";
import { erase, fullCase, leftOf } from "../api/erasure-support";
import { useFillWorld, type FillWorld } from "../api/fill-support";
import { storeSetups, useStoreEnv } from "../support/stores";
import { adminQuery } from "./real-server";

/**
 * An erasure interrupted before its commit (docs/decisions/042-retention-and-erasure.md): by a copy killed
 * (SIGKILL) while it holds the erasure's transaction, and on PostgreSQL by every connection dropped at that
 * moment. Either way the whole case is left (answers, file row and bytes, values in the trail, no tombstone)
 * and the chain verifies; a second try erases it. On both databases and every attachment store.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

/** Everything of the case still there, and nothing of an erasure. */
async function expectWhole(w: FillWorld, caseId: number, storageKey: string, surveyId: number) {
  const left = await leftOf(w.db, caseId);
  expect(left).toMatchObject({ patient_data: 1, question_responses: 1, attribute_responses: 1, file_attachments: 1 });
  expect(await readBlob(w.api.ctx.attachments, storageKey)).not.toBeNull();
  const rows = await w.db
    .selectFrom("audit_log")
    .select(["after", "erased_at"])
    .where("patient_data_id", "=", caseId)
    .execute();
  expect(rows.length).toBeGreaterThan(3);
  for (const row of rows) expect(row.erased_at).toBeNull();
  expect(await w.db.selectFrom("case_erasures").selectAll().where("patient_data_id", "=", caseId).execute()).toEqual(
    [],
  );
  expect(await w.db.selectFrom("erased_blobs").selectAll().execute()).toEqual([]);
  expect(await verifyStoredChain(w.db, String(surveyId))).toMatchObject({ ok: true });
}

describe.each(storeSetups)("an erasure interrupted, $name", (setup) => {
  const stores = useStoreEnv(setup);
  const world = useFillWorld(setup.db, () => idp, undefined, stores.env);
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill("SIGKILL");
  });

  it("leaves the whole case when the copy erasing it is killed before the commit", async () => {
    const w = world();
    const survey = w.a.heart;
    const { caseId, storageKey } = await fullCase(w, survey, "KILL_1");
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      LOG_LEVEL: "silent",
      DATA_DIR: w.api.ctx.env.DATA_DIR,
      ...stores.env(),
    };
    delete env.DATABASE_URL;
    // Node itself with tsx as its loader: killing it kills the erasing process, not a wrapper around it.
    const args = [
      "--import",
      "tsx",
      path.resolve("tests/server/erase-child.ts"),
      String(caseId),
      String(survey),
      "KILL_1",
    ];
    if (dialectOf(w.db) === "postgres") env.DATABASE_URL = w.api.testDb.url;
    else {
      const files = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(
        w.db,
      );
      args.push(files.rows[0].file);
    }
    child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let err = "";
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
    await new Promise<void>((resolve, reject) => {
      child!.stdout!.on("data", (d: Buffer) => d.toString().includes("paused") && resolve());
      child!.on("exit", (code) => reject(new Error(`the erasing copy ended (${code}) before pausing: ${err}`)));
      setTimeout(() => reject(new Error(`the erasing copy did not pause: ${err}`)), 20_000);
    });
    const exited = new Promise((resolve) => child!.on("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    child = undefined;
    await expectWhole(w, caseId, storageKey, survey);
    // Tried again, the erasure goes through (SQLite may first recover the killed copy's journal).
    await expect.poll(async () => (await erase(w, survey, "KILL_1")).status, { timeout: 10_000 }).toBe(200);
    expect((await leftOf(w.db, caseId)).patient_data).toBe(0);
    expect(await readBlob(w.api.ctx.attachments, storageKey)).toBeNull();
    expect(await verifyStoredChain(w.db, String(survey))).toMatchObject({ ok: true, erased: expect.any(Number) });
  }, 60_000);

  it("leaves the whole case when the database connection goes before the commit", async () => {
    const w = world();
    const survey = w.a.heart;
    const { caseId, storageKey } = await fullCase(w, survey, "DROP_1");
    const postgres = dialectOf(w.db) === "postgres";
    const name = postgres ? new URL(w.api.testDb.url!).pathname.slice(1) : "";
    const attempt = eraseCase(
      w.db,
      w.api.ctx.attachments,
      erasureKey(w.api.ctx.env),
      { surveyUserDataId: null, sub: "fault-test" },
      { caseId, surveyId: survey, patientId: "DROP_1", reason: "consent" },
      {
        beforeCommit: async () => {
          // PostgreSQL: every connection of the database cut, the erasure's among them. SQLite has no
          // connection to lose: the transaction fails there the same way, by an error before its commit.
          if (!postgres) throw new Error("connection lost");
          await adminQuery(
            "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
            [name],
          );
        },
      },
    );
    await expect(attempt).rejects.toThrow();
    // The pool makes new connections for the checks.
    await expect
      .poll(async () => (await leftOf(w.db, caseId).catch(() => null))?.patient_data, { timeout: 10_000 })
      .toBe(1);
    await expectWhole(w, caseId, storageKey, survey);
    expect((await erase(w, survey, "DROP_1")).status).toBe(200);
    expect((await leftOf(w.db, caseId)).patient_data).toBe(0);
  }, 60_000);
});
