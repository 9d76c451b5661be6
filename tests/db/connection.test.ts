import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, createDb, dialectOf, getDb } from "~/server/db/db.server";
import { ensureMigrated } from "~/server/db/migrate.server";
import { parseEnv, setEnvForTests } from "~/server/env.server";
import { describeEachDialect, useTestDb } from "../support/databases";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "survey-conn-test-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("createDb on SQLite", () => {
  it("creates the data directory and the file, with WAL, foreign keys and a busy timeout", async () => {
    const dataDir = path.join(tmp, "nested", "data");
    const db = createDb({ dataDir });
    try {
      const pragma = async (name: string) =>
        Object.values((await sql.raw(`pragma ${name}`).execute(db)).rows[0] as object)[0];
      expect(await pragma("journal_mode")).toBe("wal");
      expect(await pragma("foreign_keys")).toBe(1);
      expect(await pragma("busy_timeout")).toBe(5000);
      expect(fs.existsSync(path.join(dataDir, "survey.sqlite"))).toBe(true);
    } finally {
      await db.destroy();
    }
    const named = createDb({ dataDir, filename: "other.sqlite" });
    await sql`select 1`.execute(named);
    await named.destroy();
    expect(fs.existsSync(path.join(dataDir, "other.sqlite"))).toBe(true);
  });
});

describe("the process database", () => {
  it("is opened lazily from the configuration, once, and opened again after closeDb", async () => {
    setEnvForTests(parseEnv({ DATA_DIR: path.join(tmp, "process") }));
    try {
      const db = getDb();
      expect(getDb()).toBe(db);
      expect(dialectOf(db)).toBe("sqlite");
      const migrated = await ensureMigrated();
      expect(migrated).toBe(db);
      expect(await ensureMigrated()).toBe(db);
      await db.insertInto("tags").values({ name: "x" }).execute();
      await closeDb();
      const reopened = getDb();
      expect(reopened).not.toBe(db);
      expect(await reopened.selectFrom("tags").select("name").execute()).toEqual([{ name: "x" }]);
    } finally {
      await closeDb();
      setEnvForTests(undefined);
    }
  });
});

describeEachDialect("dialectOf", (kind) => {
  const db = useTestDb(kind);

  it("names the database, also inside a transaction", async () => {
    expect(dialectOf(db())).toBe(kind);
    await db()
      .transaction()
      .execute(async (trx) => {
        expect(dialectOf(trx)).toBe(kind);
      });
  });

  it("a failed transaction leaves nothing behind", async () => {
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto("tags").values({ name: "rolled back" }).execute();
          await trx.insertInto("tags").values({ name: "rolled back" }).execute();
        }),
    ).rejects.toThrow();
    expect(await db().selectFrom("tags").selectAll().where("name", "=", "rolled back").execute()).toEqual([]);
  });
});
