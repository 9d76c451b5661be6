import { expect, it } from "vitest";
import { withRequestContext } from "~/server/log.server";
import { requireSurvey } from "~/server/services/survey-access.server";
import { describeEachDialect, useTestDb } from "../support/databases";

/**
 * A request that only reads (a page's GET and the API calls its loaders make) reads a survey's row and
 * teams once however often access to it is checked; a write, or a transaction, reads afresh.
 */
describeEachDialect("survey access read once per request that only reads", (kind) => {
  const db = useTestDb(kind);
  const editor = { roles: ["SsiEditor"], teamIds: [] };

  async function survey(title: string): Promise<number> {
    const row = await db().insertInto("surveys").values({ title }).returning("id").executeTakeFirstOrThrow();
    return row.id;
  }
  const rename = (id: number, title: string) =>
    db().updateTable("surveys").set({ title }).where("id", "=", id).execute();

  it("gives the first read to every check of the same request", async () => {
    const id = await survey("Before");
    const titles = await withRequestContext(
      "page-1",
      async () => {
        const first = await requireSurvey(db(), editor, id, "see");
        await rename(id, "After");
        const second = await requireSurvey(db(), editor, id, "edit");
        return [first.row.title, second.row.title];
      },
      true,
    );
    expect(titles).toEqual(["Before", "Before"]);
    // The next request reads what is there now.
    const next = await withRequestContext("page-2", () => requireSurvey(db(), editor, id, "see"), true);
    expect(next.row.title).toBe("After");
  });

  it("reads afresh in a request that writes and inside a transaction", async () => {
    const id = await survey("One");
    const inWrite = await withRequestContext("post-1", async () => {
      await requireSurvey(db(), editor, id, "see");
      await rename(id, "Two");
      return (await requireSurvey(db(), editor, id, "see")).row.title;
    });
    expect(inWrite).toBe("Two");
    const inTransaction = await withRequestContext(
      "page-3",
      async () => {
        await requireSurvey(db(), editor, id, "see");
        await rename(id, "Three");
        return db()
          .transaction()
          .execute(async (trx) => (await requireSurvey(trx, editor, id, "see")).row.title);
      },
      true,
    );
    expect(inTransaction).toBe("Three");
  });

  it("still refuses a survey that does not exist, every time", async () => {
    await withRequestContext(
      "page-4",
      async () => {
        await expect(requireSurvey(db(), editor, 999_999, "see")).rejects.toMatchObject({ type: "SURVEY_NOT_FOUND" });
        await expect(requireSurvey(db(), editor, 999_999, "see")).rejects.toMatchObject({ type: "SURVEY_NOT_FOUND" });
      },
      true,
    );
  });
});
