import { spawn } from "node:child_process";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialectOf } from "~/server/db/db.server";
import { dropAppendOnly, makeAppendOnly, type MigrationDb } from "~/server/db/migrations/helpers";
import type { DB } from "~/server/db/types.server";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { auditRowHash, chainedRowHash, valuesDigest } from "~/server/services/audit-chain.server";
import { chainKeys, verifyStoredChain, type StoredChainVerdict } from "~/server/services/audit-verify.server";
import { dialects } from "../support/databases";
import { json, questionId, startCase, useFillWorld, type FillWorld } from "./fill-support";
import { payload, sync } from "./sync-support";

/**
 * The audit log's hash chain (docs/decisions/027-audit-chain.md): written through the services, broken by
 * hand as a database administrator could, and each break named by the verifier, the API and the command.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

class Rollback extends Error {}

/** Tampers inside a transaction that is rolled back afterwards, and verifies the chain as it was then. */
async function tampered(db: DB, key: string, tamper: (trx: DB) => Promise<void>): Promise<StoredChainVerdict> {
  let verdict: StoredChainVerdict | undefined;
  await db
    .transaction()
    .execute(async (trx) => {
      // What an administrator would do: drop the append-only triggers, then change the rows.
      await dropAppendOnly(trx as unknown as MigrationDb, "audit_log");
      await tamper(trx);
      verdict = await verifyStoredChain(trx, key);
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
  return verdict!;
}

async function chainIds(db: DB, surveyId: number): Promise<number[]> {
  const rows = await db.selectFrom("audit_log").select("id").where("survey_id", "=", surveyId).orderBy("id").execute();
  return rows.map((r) => r.id);
}

/** Runs the verify command against the test database and returns its exit code and output. */
function runVerify(w: FillWorld, args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "silent" };
    delete env.DATABASE_URL;
    if (dialectOf(w.db) === "postgres") env.DATABASE_URL = w.api.testDb.url;
    else env.DATA_DIR = sqliteDir;
    const child = spawn(path.resolve("node_modules/.bin/tsx"), ["scripts/audit-verify.ts", ...args], {
      env,
      cwd: process.cwd(),
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

let sqliteDir = "";

describe.each(dialects)("the audit chain on %s", (kind) => {
  const world = useFillWorld(
    kind,
    () => idp,
    async (w) => {
      // Writes through the services: a new survey edited twice, cases started and answered.
      const created = await w.call("editor", "POST", "/surveys", { Title: "Kette" });
      expect(created.status).toBe(201);
      const id = (await json<{ Id: number }>(created)).Id;
      for (const Title of ["Anamnese", "Befund"]) {
        expect((await w.call("editor", "POST", "/categories", { SurveyId: id, Title })).status).toBe(201);
      }
      const notes = await questionId(w.db, w.a.heart, "Weitere Beschwerden");
      await startCase(w, w.a.heart, "CHAIN_0");
      await startCase(w, w.b.heart, "CHAIN_0");
      for (const patientId of ["CHAIN_1", "CHAIN_2"]) {
        const body = await payload(w.db, w.a.heart, patientId, {
          QuestionAnswers: [{ QuestionId: notes, TextResponse: `Notiz ${patientId} – Übelkeit` }],
        });
        expect((await sync(w, w.a.heart, body, { key: `chain-${patientId}` })).status).toBe(200);
      }
      if (kind === "sqlite") {
        const files = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(
          w.db,
        );
        sqliteDir = files.rows[0].file.replace(/\/[^/]+$/, "");
      }
    },
  );

  it("every chain written through the services verifies", async () => {
    const keys = await chainKeys(world().db);
    expect(keys).toContain(String(world().a.heart));
    for (const key of keys) expect(await verifyStoredChain(world().db, key), key).toMatchObject({ ok: true });
    const ids = await chainIds(world().db, world().a.heart);
    expect(ids.length).toBeGreaterThan(4);
    const verdict = await verifyStoredChain(world().db, String(world().a.heart));
    expect(verdict).toEqual({ ok: true, rows: ids.length });
  });

  it("names a changed row", async () => {
    const ids = await chainIds(world().db, world().a.heart);
    const victim = ids[2];
    const verdict = await tampered(world().db, String(world().a.heart), (trx) =>
      trx.updateTable("audit_log").set({ after: '{"Text":"anders"}' }).where("id", "=", victim).execute().then(),
    );
    expect(verdict).toEqual({ ok: false, rows: ids.length, firstBad: { id: victim, kind: "changed" } });
  });

  it("names the row after one removed in the middle", async () => {
    const ids = await chainIds(world().db, world().a.heart);
    const verdict = await tampered(world().db, String(world().a.heart), (trx) =>
      trx.deleteFrom("audit_log").where("id", "=", ids[3]).execute().then(),
    );
    expect(verdict).toMatchObject({ ok: false, firstBad: { id: ids[4], kind: "removed" } });
  });

  it("sees a removed first row", async () => {
    const ids = await chainIds(world().db, world().a.heart);
    const verdict = await tampered(world().db, String(world().a.heart), (trx) =>
      trx.deleteFrom("audit_log").where("id", "=", ids[0]).execute().then(),
    );
    expect(verdict).toMatchObject({ ok: false, firstBad: { id: ids[1], kind: "removed" } });
  });

  it("sees a removed last row through the head", async () => {
    const ids = await chainIds(world().db, world().a.heart);
    const last = ids.at(-1)!;
    const verdict = await tampered(world().db, String(world().a.heart), (trx) =>
      trx.deleteFrom("audit_log").where("id", "=", last).execute().then(),
    );
    expect(verdict).toEqual({ ok: false, rows: ids.length - 1, firstBad: { id: last, kind: "removed" } });
  });

  it("names a forged row, linked or not", async () => {
    const key = String(world().a.heart);
    const forge = async (trx: DB, prev: string) => {
      const row = {
        at: new Date().toISOString(),
        actor_user_id: null,
        actor_sub: "forger",
        action: "case.sync",
        entity: "patient_data",
        entity_id: "1",
        survey_id: world().a.heart,
        patient_data_id: null,
        before: null,
        after: '{"Text":"gefälscht"}',
      };
      const inserted = await trx
        .insertInto("audit_log")
        .values({ ...row, hash: auditRowHash(row, prev), prev_hash: prev })
        .returning("id")
        .executeTakeFirstOrThrow();
      return inserted.id;
    };
    let forged = 0;
    // Linked to nothing.
    let verdict = await tampered(world().db, key, async (trx) => {
      forged = await forge(trx, "0".repeat(64));
    });
    expect(verdict).toMatchObject({ ok: false, firstBad: { id: forged, kind: "inserted" } });
    // Linked to the last row, as a writer would, but without moving the head.
    verdict = await tampered(world().db, key, async (trx) => {
      const head = await trx
        .selectFrom("audit_chain_heads")
        .select("last_hash")
        .where("chain_key", "=", key)
        .executeTakeFirstOrThrow();
      forged = await forge(trx, head.last_hash!);
    });
    expect(verdict).toMatchObject({ ok: false, firstBad: { id: forged, kind: "inserted" } });
    // A row inserted by hand without a hash.
    verdict = await tampered(world().db, key, async (trx) => {
      forged = (
        await trx
          .insertInto("audit_log")
          .values({ action: "case.sync", entity: "patient_data", survey_id: world().a.heart })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
    });
    expect(verdict).toMatchObject({ ok: false, firstBad: { id: forged, kind: "inserted" } });
  });

  it("the tampering leaves the append-only triggers in place once rolled back", async () => {
    await expect(world().db.deleteFrom("audit_log").execute()).rejects.toThrow(/append-only/);
  });

  it("GET /audit-log/verify answers the survey's approvers, and 403 to others", async () => {
    const path = `/audit-log/verify?surveyId=${world().a.heart}`;
    const ids = await chainIds(world().db, world().a.heart);
    const res = await world().call("approver", "GET", path);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ Ok: true, Rows: ids.length });
    for (const who of ["editor", "user"] as const) expect((await world().call(who, "GET", path)).status).toBe(403);
    expect((await world().call("nobody", "GET", path)).status).toBe(401);
    expect((await world().call("approver", "GET", "/audit-log/verify?surveyId=999999")).status).toBe(404);
  });

  it("the export carries each row's hash and prev_hash, enough to check it offline", async () => {
    const res = await world().call("approver", "GET", `/audit-log?surveyId=${world().a.heart}`);
    const entries = await json<
      {
        At: string;
        ActorUserId: number | null;
        ActorSub: string | null;
        Action: string;
        Entity: string;
        EntityId: string | null;
        SurveyId: number | null;
        PatientDataId: number | null;
        Before: string | null;
        After: string | null;
        ValuesHash: string | null;
        Hash: string;
        PrevHash: string | null;
      }[]
    >(res);
    let prev: string | null = null;
    for (const e of entries) {
      expect(e.PrevHash).toBe(prev);
      const content = {
        at: e.At,
        actor_user_id: e.ActorUserId,
        actor_sub: e.ActorSub,
        action: e.Action,
        entity: e.Entity,
        entity_id: e.EntityId,
        survey_id: e.SurveyId,
        patient_data_id: e.PatientDataId,
        before: e.Before,
        after: e.After,
      };
      // The second recipe (docs/decisions/042-retention-and-erasure.md): the hash covers the values' digest.
      expect(valuesDigest(e.Before, e.After)).toBe(e.ValuesHash);
      expect(chainedRowHash(content, e.ValuesHash!, e.PrevHash)).toBe(e.Hash);
      prev = e.Hash;
    }
    const csv = await world().call("approver", "GET", `/audit-log/csv?surveyId=${world().a.heart}`);
    expect((await csv.text()).replace(/^\uFEFF/, "").split("\r\n")[0]).toMatch(/[;,]Hash[;,]PrevHash$/);
  });

  it("the command prints one line per chain and exits 1 on a break", async () => {
    const whole = await runVerify(world(), ["--all"]);
    expect(whole.out).toContain(`survey ${world().a.heart}: ok`);
    expect(whole.code, whole.out + whole.err).toBe(0);
    const one = await runVerify(world(), ["--survey", String(world().b.heart)]);
    expect(one.out.trim().split("\n")).toEqual([expect.stringMatching(/^survey \d+: ok, \d+ rows$/)]);
    expect(one.code).toBe(0);
    expect((await runVerify(world(), [])).code).toBe(2);

    // Committed this time: an administrator changes a row and puts the trigger back.
    const ids = await chainIds(world().db, world().b.heart);
    await world()
      .db.transaction()
      .execute(async (trx) => {
        await dropAppendOnly(trx as unknown as MigrationDb, "audit_log");
        await trx.updateTable("audit_log").set({ actor_sub: "someone-else" }).where("id", "=", ids[1]).execute();
        await makeAppendOnly(trx as unknown as MigrationDb, "audit_log");
      });
    const broken = await runVerify(world(), ["--all"]);
    expect(broken.out).toContain(`survey ${world().b.heart}: BROKEN at row ${ids[1]} (changed)`);
    expect(broken.out).toContain(`survey ${world().a.heart}: ok`);
    expect(broken.code).toBe(1);
    const res = await world().call("approver", "GET", `/audit-log/verify?surveyId=${world().b.heart}`);
    expect(await res.json()).toEqual({ Ok: false, Rows: ids.length, FirstBad: { Id: ids[1], Kind: "changed" } });
  }, 60_000);
});
