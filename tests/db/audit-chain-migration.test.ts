import { spawn } from "node:child_process";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { dialectOf } from "~/server/db/db.server";
import { createMigrator } from "~/server/db/migrate.server";
import type { DB } from "~/server/db/types.server";
import { audit } from "~/server/services/audit.server";
import { auditRowHash, ERASE_ACTION, type AuditRowContent } from "~/server/services/audit-chain.server";
import { verifyStoredChain } from "~/server/services/audit-verify.server";
import { describeEachDialect, openTestDb, type TestDb } from "../support/databases";

/**
 * Migration 0017 (docs/decisions/042-retention-and-erasure.md): chains written by the first recipe are hashed
 * anew over their values' digests without a gap; a row changed before the migration is still found after it;
 * a migrated row can be erased and its chain still verifies, and `npm run audit:verify` says so.
 */

/** Writes a chain by the first recipe, as the writer did before migration 0017, with its head. */
async function firstRecipeChain(
  db: DB,
  surveyId: number | null,
  n: number,
): Promise<{ ids: number[]; hashes: string[] }> {
  const key = surveyId === null ? "global" : String(surveyId);
  const ids: number[] = [];
  const hashes: string[] = [];
  let prev: string | null = null;
  for (let i = 0; i < n; i++) {
    const row: AuditRowContent = {
      at: new Date(Date.UTC(2026, 10, 20, 8, i)).toISOString(),
      actor_user_id: 7,
      actor_sub: "idp|erika",
      action: "response.save",
      entity: "question_response",
      entity_id: String(100 + i),
      survey_id: surveyId,
      patient_data_id: surveyId === null ? null : 40 + (i % 2),
      before: i === 0 ? null : JSON.stringify({ Text: `Wert ${i - 1}` }),
      after: JSON.stringify({ Text: `Wert ${i} – Übelkeit` }),
    };
    const hash = auditRowHash(row, prev);
    const inserted = await db
      .insertInto("audit_log")
      .values({ ...row, hash, prev_hash: prev } as never)
      .returning("id")
      .executeTakeFirstOrThrow();
    ids.push(inserted.id);
    hashes.push(hash);
    prev = hash;
  }
  await sql`insert into audit_chain_heads (chain_key, last_id, last_hash, count)
    values (${key}, ${ids[n - 1]}, ${prev}, ${n})`.execute(db);
  return { ids, hashes };
}

describeEachDialect("the audit chain across migration 0017", (kind) => {
  let handle: TestDb;
  let whole: { ids: number[]; hashes: string[] };
  let tamperedId = 0;
  beforeAll(async () => {
    handle = await openTestDb(kind, { migrate: false });
    const db = handle.db;
    const before = await createMigrator(db).migrateTo("0016_sync_request_versions");
    expect(before.error).toBeUndefined();
    whole = await firstRecipeChain(db, 5, 6);
    await firstRecipeChain(db, null, 2);
    const tampered = await firstRecipeChain(db, 6, 4);
    tamperedId = tampered.ids[2];
    // Changed by hand before the upgrade, as an administrator could (triggers dropped for the change).
    if (dialectOf(db) === "postgres") {
      await sql`alter table audit_log disable trigger audit_log_no_update_delete`.execute(db);
      await sql`update audit_log set after = '{"Text":"anders"}' where id = ${tamperedId}`.execute(db);
      await sql`alter table audit_log enable trigger audit_log_no_update_delete`.execute(db);
    } else {
      await sql`drop trigger audit_log_no_update`.execute(db);
      await sql`update audit_log set after = '{"Text":"anders"}' where id = ${tamperedId}`.execute(db);
      await sql`create trigger audit_log_no_update before update on audit_log
        begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
    }
    const after = await createMigrator(db).migrateToLatest();
    expect(after.error).toBeUndefined();
  });
  afterAll(async () => {
    await handle?.cleanup();
  });

  it("hashes every chain anew without a gap and keeps the first recipe's hashes", async () => {
    const db = handle.db;
    expect(await verifyStoredChain(db, "5")).toEqual({ ok: true, rows: 6 });
    expect(await verifyStoredChain(db, "global")).toEqual({ ok: true, rows: 2 });
    const rows = await db
      .selectFrom("audit_log")
      .select(["id", "hash", "legacy_hash", "values_hash", "prev_hash"])
      .where("survey_id", "=", 5)
      .orderBy("id")
      .execute();
    expect(rows.map((r) => r.legacy_hash)).toEqual(whole.hashes);
    for (const row of rows) expect(row.values_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows.map((r) => r.hash)).not.toEqual(whole.hashes);
    const head = await db
      .selectFrom("audit_chain_heads")
      .selectAll()
      .where("chain_key", "=", "5")
      .executeTakeFirstOrThrow();
    expect(head).toMatchObject({ last_id: rows[5].id, last_hash: rows[5].hash, count: 6 });
  });

  it("still finds a row changed before the migration", async () => {
    expect(await verifyStoredChain(handle.db, "6")).toMatchObject({
      ok: false,
      firstBad: { id: tamperedId, kind: "changed" },
    });
  });

  it("erases a migrated row's values, and the chain and the command still verify it", async () => {
    const db = handle.db;
    const victim = whole.ids[1];
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable("audit_log")
        .set({ before: null, after: null, erased_at: new Date().toISOString() })
        .where("id", "=", victim)
        .execute();
      await audit(
        trx,
        { surveyUserDataId: null, sub: null },
        {
          action: ERASE_ACTION,
          entity: "case_erasure",
          entityId: 1,
          surveyId: 5,
          after: { Reason: "consent", ErasedRows: [victim] },
        },
      );
    });
    expect(await verifyStoredChain(db, "5")).toEqual({ ok: true, rows: 7, erased: 1 });

    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "silent" };
    delete env.DATABASE_URL;
    if (kind === "postgres") env.DATABASE_URL = handle.url;
    else {
      const files = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(db);
      env.DATA_DIR = path.dirname(files.rows[0].file);
    }
    const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", "scripts/audit-verify.ts", "--all"], { env });
      let text = "";
      child.stdout.on("data", (d: Buffer) => (text += d.toString()));
      child.on("error", reject);
      child.on("close", (c) => resolve({ code: c, out: text }));
    });
    expect(out).toContain("survey 5: ok, 7 rows, 1 of them erased");
    expect(out).toContain(`survey 6: BROKEN at row ${tamperedId} (changed)`);
    expect(code).toBe(1);
  }, 60_000);
});
