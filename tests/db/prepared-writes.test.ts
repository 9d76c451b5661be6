import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { AppError } from "~/domain/errors";
import { writeTransaction } from "~/server/db/group-commit.server";
import { prepared } from "~/server/db/prepared.server";
import { describeEachDialect, useTestDb } from "../support/databases";

const insertTag = prepared<[string], { id: number }>((db, $) =>
  db
    .insertInto("tags")
    .values({ name: $(0) })
    .returning("id"),
);
const tagsLike = prepared<[string, number], { name: string }>((db, $) =>
  db
    .selectFrom("tags")
    .select("name")
    .where("name", "like", $(0))
    .where("id", ">", $(1))
    .where("name", "!=", "constant")
    .orderBy("name"),
);
const renameTag = prepared<[string, string], never>((db, $) =>
  db
    .updateTable("tags")
    .set({ name: $(0) })
    .where("name", "=", $(1)),
);

describeEachDialect("prepared queries", (kind) => {
  const db = useTestDb(kind);

  it("run with new values each time, constants kept, in the dialect's own SQL", async () => {
    const first = await insertTag.first(db(), "p-alpha");
    await insertTag.first(db(), "p-beta");
    await insertTag.first(db(), "constant");
    expect(first?.id).toBeGreaterThan(0);
    expect(await tagsLike.all(db(), "p-%", 0)).toEqual([{ name: "p-alpha" }, { name: "p-beta" }]);
    expect(await tagsLike.all(db(), "p-%", first!.id)).toEqual([{ name: "p-beta" }]);
    expect(await tagsLike.all(db(), "%", 0)).not.toContainEqual({ name: "constant" });
    expect(await renameTag.affected(db(), "p-gamma", "p-beta")).toBe(1);
    expect(await renameTag.affected(db(), "x", "nothing-like-this")).toBe(0);
    expect(await tagsLike.first(db(), "p-g%", 0)).toEqual({ name: "p-gamma" });
  });

  it("run inside a transaction and roll back with it", async () => {
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await insertTag.first(trx, "p-rolled-back");
          expect(await tagsLike.all(trx, "p-rolled%", 0)).toHaveLength(1);
          throw new Error("undo");
        }),
    ).rejects.toThrow("undo");
    expect(await tagsLike.all(db(), "p-rolled%", 0)).toEqual([]);
  });
});

describeEachDialect("writeTransaction", (kind) => {
  const db = useTestDb(kind);
  const names = async (prefix: string) => (await tagsLike.all(db(), `${prefix}%`, 0)).map((r) => r.name);

  it("applies writes that arrive together, each completely or not at all, each with its own outcome", async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        writeTransaction(db(), async (trx) => {
          await insertTag.first(trx, `g-${String(i).padStart(2, "0")}-a`);
          if (i % 3 === 1) throw new AppError("VALIDATION_ERROR", `write ${i} refused`);
          await insertTag.first(trx, `g-${String(i).padStart(2, "0")}-b`);
          return i;
        }),
      ),
    );
    outcomes.forEach((outcome, i) => {
      if (i % 3 === 1) {
        expect(outcome.status).toBe("rejected");
        expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(AppError);
        expect((outcome as PromiseRejectedResult).reason.message).toBe(`write ${i} refused`);
      } else {
        expect(outcome).toEqual({ status: "fulfilled", value: i });
      }
    });
    const expected = Array.from({ length: 12 }, (_, i) => i)
      .filter((i) => i % 3 !== 1)
      .flatMap((i) => [`g-${String(i).padStart(2, "0")}-a`, `g-${String(i).padStart(2, "0")}-b`]);
    expect(await names("g-")).toEqual(expected);
  });

  it("sees the writes committed before it and those of earlier writes in the same commit", async () => {
    await writeTransaction(db(), (trx) => insertTag.first(trx, "s-first"));
    const seen = await Promise.all(
      ["s-second", "s-third"].map((name) =>
        writeTransaction(db(), async (trx) => {
          await insertTag.first(trx, name);
          return (await tagsLike.all(trx, "s-%", 0)).length;
        }),
      ),
    );
    // On SQLite the two share a commit and run one after the other; on PostgreSQL they run side by side.
    if (kind === "sqlite") expect(seen).toEqual([2, 3]);
    else expect(seen.every((n) => n >= 2)).toBe(true);
    expect(await names("s-")).toEqual(["s-first", "s-second", "s-third"]);
  });

  it("refuses every write of a commit that fails, and applies none of them", async () => {
    if (kind !== "sqlite") return; // only SQLite shares commits; on PostgreSQL each write commits alone
    // Foreign keys checked at the commit: a dangling reference written by one write fails the commit of all.
    const outcomes = await Promise.allSettled([
      writeTransaction(db(), (trx) => insertTag.first(trx, "c-kept-out")),
      writeTransaction(db(), async (trx) => {
        await sql`pragma defer_foreign_keys = on`.execute(trx);
        await trx.insertInto("survey_tags").values({ survey_id: 999_999, tag_id: 999_999 }).execute();
      }),
      writeTransaction(db(), (trx) => insertTag.first(trx, "c-also-out")),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(await names("c-")).toEqual([]);
    // The next writes commit as usual.
    await writeTransaction(db(), (trx) => insertTag.first(trx, "c-after"));
    expect(await names("c-")).toEqual(["c-after"]);
  });
});

describe("writeTransaction on SQLite under load", () => {
  const db = useTestDb("sqlite");
  it("keeps every one of many concurrent writes", async () => {
    await Promise.all(
      Array.from({ length: 500 }, (_, i) => writeTransaction(db(), (trx) => insertTag.first(trx, `l-${i}`))),
    );
    expect(await tagsLike.all(db(), "l-%", 0)).toHaveLength(500);
  });
});
