import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { openLeanReader } from "~/server/db/db.server";
import { dialects, openTestDb } from "../support/databases";

/** The connection long scans (the CSV export) read through: small in memory, and only for reading. */

describe.each(dialects)("openLeanReader on %s", (kind) => {
  it("reads what the main connection wrote, and is closed without closing the main one", async () => {
    const t = await openTestDb(kind);
    try {
      await t.db.insertInto("teams").values({ name: "Lesen" }).execute();
      const reader = openLeanReader(t.db);
      const rows = await reader.db.selectFrom("teams").select("name").where("name", "=", "Lesen").execute();
      expect(rows).toEqual([{ name: "Lesen" }]);
      if (kind === "sqlite") {
        expect(reader.db).not.toBe(t.db);
        const map = await sql<{ mmap_size: number }>`pragma mmap_size`.execute(reader.db);
        expect(map.rows[0].mmap_size).toBe(0);
        const cache = await sql<{ cache_size: number }>`pragma cache_size`.execute(reader.db);
        expect(cache.rows[0].cache_size).toBe(-8192);
        await expect(reader.db.insertInto("teams").values({ name: "Schreiben" }).execute()).rejects.toThrow(
          /readonly/i,
        );
      } else {
        expect(reader.db).toBe(t.db);
      }
      await reader.close();
      expect(await t.db.selectFrom("teams").select("name").where("name", "=", "Lesen").execute()).toHaveLength(1);
    } finally {
      await t.cleanup();
    }
  });
});
