import { expect, it } from "vitest";
import { inTransaction } from "~/server/db/transaction.server";
import { describeEachDialect, useTestDb } from "../support/databases";

const teamCount = async (db: Parameters<typeof inTransaction>[0], name: string) =>
  Number(
    (
      await db
        .selectFrom("teams")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("name", "=", name)
        .executeTakeFirstOrThrow()
    ).n,
  );

describeEachDialect("inTransaction", (kind) => {
  const db = useTestDb(kind);

  it("commits its work together, or none of it when the work fails", async () => {
    await inTransaction(db(), (trx) => trx.insertInto("teams").values({ name: "kept" }).execute());
    expect(await teamCount(db(), "kept")).toBe(1);
    await expect(
      inTransaction(db(), async (trx) => {
        await trx.insertInto("teams").values({ name: "undone" }).execute();
        throw new Error("fails after the write");
      }),
    ).rejects.toThrow("fails after the write");
    expect(await teamCount(db(), "undone")).toBe(0);
  });

  it("runs inside the caller's transaction instead of starting another", async () => {
    await expect(
      db()
        .transaction()
        .execute(async (outer) => {
          await inTransaction(outer, async (inner) => {
            expect(inner).toBe(outer);
            await inner.insertInto("teams").values({ name: "inner" }).execute();
          });
          throw new Error("the caller gives up");
        }),
    ).rejects.toThrow("the caller gives up");
    expect(await teamCount(db(), "inner")).toBe(0);
  });
});
