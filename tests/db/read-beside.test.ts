import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createDb, readBeside } from "~/server/db/db.server";
import { dialects, openTestDb } from "../support/databases";

/**
 * The queries the statistics run side by side: on SQLite through read-only connections in worker threads,
 * on PostgreSQL through the pool with one process per query; inside a transaction, in it.
 */
describe.each(dialects)("readBeside on %s", (kind) => {
  it("reads what was committed, many queries at once, each its own rows", async () => {
    const t = await openTestDb(kind);
    try {
      const names = ["Nord", "Süd", "Ost", "West", "Mitte", "Außen"];
      for (const name of names) await t.db.insertInto("teams").values({ name }).execute();
      const byName = (name: string) => t.db.selectFrom("teams").select("name").where("name", "=", name);
      const rows = await Promise.all(names.map((name) => readBeside(t.db, byName(name))));
      expect(rows).toEqual(names.map((name) => [{ name }]));
      const counted = await readBeside(
        t.db,
        t.db.selectFrom("teams").select((eb) => eb.fn.countAll<number>().as("n")),
      );
      const main = await t.db
        .selectFrom("teams")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .execute();
      expect(Number(counted[0].n)).toBe(Number(main[0].n));
      expect(Number(counted[0].n)).toBeGreaterThanOrEqual(names.length);
    } finally {
      await t.cleanup();
    }
  });

  it("reads inside a transaction what the transaction wrote", async () => {
    const t = await openTestDb(kind);
    try {
      await t.db.transaction().execute(async (trx) => {
        await trx.insertInto("teams").values({ name: "Ungespeichert" }).execute();
        const rows = await readBeside(trx, trx.selectFrom("teams").select("name").where("name", "=", "Ungespeichert"));
        expect(rows).toEqual([{ name: "Ungespeichert" }]);
      });
    } finally {
      await t.cleanup();
    }
  });

  it("fails a wrong query with the database's message and goes on reading", async () => {
    const t = await openTestDb(kind);
    try {
      await expect(readBeside(t.db, sql`select missing_column from no_such_table`.compile(t.db))).rejects.toThrow(
        /no_such_table/,
      );
      expect(await readBeside(t.db, sql<{ one: number }>`select 1 as one`.compile(t.db))).toEqual([{ one: 1 }]);
    } finally {
      await t.cleanup();
    }
  });

  if (kind === "sqlite") {
    it("reads through a read-only connection of its own, not the main one", async () => {
      const t = await openTestDb(kind);
      try {
        await expect(
          readBeside(t.db, sql`insert into teams (name) values ('Schreiben') returning id`.compile(t.db)),
        ).rejects.toThrow(/readonly/i);
        expect(await t.db.selectFrom("teams").select("name").where("name", "=", "Schreiben").execute()).toEqual([]);
      } finally {
        await t.cleanup();
      }
    });

    it("fails a read still running when the database is closed, rather than leaving it waiting", async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "read-beside-"));
      const db = createDb({ dataDir: dir });
      try {
        const long = sql<{
          n: number;
        }>`with recursive k(i) as (select 1 union all select i + 1 from k where i < 5000000)
          select count(*) as n from k`.compile(db);
        await sql`select 1`.execute(db); // the main connection opens on its first query
        const reading = readBeside(db, long);
        await db.destroy();
        await expect(reading).rejects.toThrow(/closed/);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  } else {
    it("keeps each query to one process, and the pool's setting as it was", async () => {
      const t = await openTestDb(kind);
      try {
        const inside = await readBeside(
          t.db,
          sql<{ max_parallel_workers_per_gather: string }>`show max_parallel_workers_per_gather`.compile(t.db),
        );
        expect(inside[0].max_parallel_workers_per_gather).toBe("0");
        const after = await sql<{
          max_parallel_workers_per_gather: string;
        }>`show max_parallel_workers_per_gather`.execute(t.db);
        expect(after.rows[0].max_parallel_workers_per_gather).not.toBe("0");
      } finally {
        await t.cleanup();
      }
    });
  }
});
