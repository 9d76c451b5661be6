import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import pg from "pg";
import { expect, it } from "vitest";
import { createDb } from "~/server/db/db.server";
import { writeTransaction } from "~/server/db/group-commit.server";
import { createMigrator, migrateToLatest } from "~/server/db/migrate.server";
import type { DB } from "~/server/db/types.server";
import { audit, auditAll, type Actor } from "~/server/services/audit.server";
import { chainKeys, verifyStoredChain } from "~/server/services/audit-verify.server";
import { describeEachDialect, openTestDb, useTestDb } from "../support/databases";

/** The audit chain under concurrent writers, and the chain a migration gives the rows already written. */

const actor: Actor = { surveyUserDataId: 1, sub: "idp|erika" };

async function expectAllChainsOk(db: DB) {
  for (const key of await chainKeys(db)) expect(await verifyStoredChain(db, key), key).toMatchObject({ ok: true });
}

async function countOf(db: DB, key: string): Promise<number> {
  const head = await db.selectFrom("audit_chain_heads").select("count").where("chain_key", "=", key).executeTakeFirst();
  return Number(head?.count ?? 0);
}

class Refused extends Error {}

describeEachDialect("the audit chain with concurrent writers", (kind) => {
  const db = useTestDb(kind);

  it("stays whole when 60 audited writes across 3 surveys and the global chain run at once", async () => {
    const surveys = [101, 102, 103];
    const writes = Array.from({ length: 60 }, (_, i) => {
      const surveyId = surveys[i % 3];
      if (i % 10 === 9) {
        // Several surveys and the global chain in one statement.
        return writeTransaction(db(), (trx) =>
          auditAll(trx, actor, [
            { action: "bulk", entity: "survey", surveyId: surveys[0], after: { i } },
            { action: "bulk", entity: "user", after: { i } },
            { action: "bulk", entity: "survey", surveyId: surveys[2], after: { i, text: "Übelkeit" } },
            { action: "bulk", entity: "survey", surveyId: surveys[0], after: { i, second: true } },
          ]),
        );
      }
      if (i % 7 === 6) {
        // A write that fails after its audit row: undone with it, the chain must not keep its hash.
        return writeTransaction(db(), async (trx) => {
          await audit(trx, actor, { action: "refused", entity: "survey", surveyId, after: { i } });
          throw new Refused();
        }).catch((error: unknown) => {
          if (!(error instanceof Refused)) throw error;
        });
      }
      return writeTransaction(db(), (trx) =>
        audit(trx, actor, { action: "response.save", entity: "question_response", surveyId, after: { i } }),
      );
    });
    await Promise.all(writes);
    await expectAllChainsOk(db());
    // 60 writes: 6 bulk (4 rows each), 8 refused (i % 7 === 6 and not a bulk one), the rest one row each.
    const refused = Array.from({ length: 60 }, (_, i) => i).filter((i) => i % 10 !== 9 && i % 7 === 6).length;
    const total = (await chainKeys(db())).reduce<Promise<number>>(
      async (sum, key) => (await sum) + (await countOf(db(), key)),
      Promise.resolve(0),
    );
    expect(await total).toBe(6 * 4 + (60 - 6 - refused));
    const rows = await db().selectFrom("audit_log").select("id").execute();
    expect(rows.length).toBe(await total);
  });

  it("an audit call outside a transaction makes its own", async () => {
    await audit(db(), actor, { action: "login", entity: "user" });
    await auditAll(db(), actor, [{ action: "login", entity: "user", surveyId: 104 }]);
    await expectAllChainsOk(db());
    expect(await countOf(db(), "104")).toBe(1);
  });

  it.skipIf(kind !== "postgres")(
    "with several server processes on PostgreSQL: one survey's writers queue, other surveys' do not wait",
    async () => {
      const handle = await openTestDb(kind);
      const db = () => handle.db;
      const others = [1, 2].map(() => createDb({ databaseUrl: handle.url, dataDir: os.tmpdir() }));
      try {
        // A transaction holds survey 201's head.
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let locked!: () => void;
        const isLocked = new Promise<void>((resolve) => (locked = resolve));
        const holder = db()
          .transaction()
          .execute(async (trx) => {
            await audit(trx, actor, { action: "hold", entity: "survey", surveyId: 201 });
            locked();
            await held;
          });
        await isLocked;
        let sameDone = false;
        const same = others[0]
          .transaction()
          .execute((trx) => audit(trx, actor, { action: "wait", entity: "survey", surveyId: 201 }))
          .then(() => (sameDone = true));
        // Another survey's write goes through while 201's head is held.
        await others[1]
          .transaction()
          .execute((trx) => audit(trx, actor, { action: "free", entity: "survey", surveyId: 202 }));
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(sameDone).toBe(false);
        release();
        await holder;
        await same;
        expect(sameDone).toBe(true);

        // Then many writes from three processes at once, each with its own pool.
        const all = [db(), ...others];
        await Promise.all(
          Array.from({ length: 90 }, (_, i) =>
            all[i % 3]
              .transaction()
              .execute((trx) =>
                audit(trx, actor, { action: "burst", entity: "survey", surveyId: 201 + (i % 3), after: { i } }),
              ),
          ),
        );
        await expectAllChainsOk(db());
        expect(await countOf(db(), "201")).toBe(2 + 30);
      } finally {
        await Promise.all(others.map((other) => other.destroy()));
        await handle.cleanup();
      }
    },
  );
});

describeEachDialect("migration 0011", (kind) => {
  it("chains the rows already written, in id order, and keeps the log append-only", async () => {
    const handle = await openTestDb(kind, { migrate: false });
    try {
      const db = handle.db;
      const migrated = await createMigrator(db).migrateTo("0009_statistics_versions");
      expect(migrated.error).toBeUndefined();
      const old = [5, null, 6, 5, null, 5, 6].map((surveyId, i) => ({
        at: `2026-01-0${i + 1}T10:00:00.000Z`,
        actor_user_id: i,
        actor_sub: `sub-${i}`,
        action: "survey.update",
        entity: "survey",
        entity_id: String(surveyId),
        survey_id: surveyId,
        patient_data_id: null,
        before: JSON.stringify({ Title: "Ä" }),
        after: JSON.stringify({ Title: `B ${i}` }),
      }));
      // Written when the table had no hash columns yet.
      await db.insertInto("audit_log").values(old).execute();
      await migrateToLatest(db);
      expect(await chainKeys(db)).toEqual(["global", "5", "6"]);
      expect(await verifyStoredChain(db, "5")).toEqual({ ok: true, rows: 3 });
      expect(await verifyStoredChain(db, "6")).toEqual({ ok: true, rows: 2 });
      expect(await verifyStoredChain(db, "global")).toEqual({ ok: true, rows: 2 });
      const first = await db
        .selectFrom("audit_log")
        .select(["hash", "prev_hash"])
        .where("survey_id", "=", 5)
        .orderBy("id")
        .execute();
      expect(first[0].prev_hash).toBeNull();
      expect(first[1].prev_hash).toBe(first[0].hash);
      await expect(db.deleteFrom("audit_log").execute()).rejects.toThrow(/append-only/);
      // New rows continue the backfilled chains.
      await audit(db, actor, { action: "survey.update", entity: "survey", surveyId: 5 });
      expect(await verifyStoredChain(db, "5")).toEqual({ ok: true, rows: 4 });
    } finally {
      await handle.cleanup();
    }
  });
});

/** The SQL blocks of docs/operations.md, "Archiving old rows": PostgreSQL's, then SQLite's. */
function archivingSql(): { postgres: string; sqlite: string } {
  const text = fs.readFileSync(path.resolve("docs/operations.md"), "utf8");
  const section = text.slice(text.indexOf("### Archiving old rows"), text.indexOf("## Upgrades"));
  const blocks = [...section.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1].replace(/^ {3}/gm, ""));
  expect(blocks).toHaveLength(2);
  return { postgres: blocks[0], sqlite: blocks[1] };
}

describeEachDialect("archiving old audit rows by the documented procedure", (kind) => {
  it("keeps the rest of the chain verifiable, and the log append-only", async () => {
    const handle = await openTestDb(kind);
    try {
      const db = handle.db;
      // Survey 12 as in the procedure, with other chains around it.
      for (let i = 0; i < 12; i++) {
        await audit(db, actor, {
          action: "survey.update",
          entity: "survey",
          surveyId: i % 3 === 2 ? 13 : 12,
          after: { i },
        });
        if (i % 4 === 0) await audit(db, actor, { action: "user.update", entity: "user", after: { i } });
      }
      const ids = (
        await db.selectFrom("audit_log").select("id").where("survey_id", "=", 12).orderBy("id").execute()
      ).map((r) => r.id);
      const upTo = ids[4];
      const block = archivingSql()[kind].replaceAll("5000", String(upTo));
      if (kind === "postgres") {
        const client = new pg.Client({ connectionString: handle.url });
        await client.connect();
        try {
          await client.query(block);
        } finally {
          await client.end();
        }
      } else {
        const file = (
          await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(db)
        ).rows[0].file;
        const other = new SQLite(file);
        try {
          other.exec(block);
        } finally {
          other.close();
        }
      }
      expect(await verifyStoredChain(db, "12")).toEqual({ ok: true, rows: ids.length - 5 });
      const head = await db
        .selectFrom("audit_chain_heads")
        .selectAll()
        .where("chain_key", "=", "12")
        .executeTakeFirstOrThrow();
      expect(Number(head.archived_count)).toBe(5);
      expect(Number(head.count)).toBe(ids.length);
      await expectAllChainsOk(db);
      await expect(db.deleteFrom("audit_log").execute()).rejects.toThrow(/append-only/);
      // The chain goes on after the archiving.
      await audit(db, actor, { action: "survey.update", entity: "survey", surveyId: 12 });
      expect(await verifyStoredChain(db, "12")).toEqual({ ok: true, rows: ids.length - 4 });
    } finally {
      await handle.cleanup();
    }
  });
});
