import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it, onTestFinished } from "vitest";
import { createSessionStores } from "~/server/auth/session.server";
import { withRequestContext } from "~/server/log.server";
import { findCase, findCaseById } from "~/server/services/fill/cases.server";
import { describeEachDialect, useTestDb } from "../support/databases";

/**
 * A page's loaders ask the API for a case's record, answers, preliminary answers and files, and the root's
 * and the page's loaders each for the session: in a request that only reads, each is read once (as a
 * survey's access is, survey-access-once.test.ts); a write, a transaction or a lock reads afresh.
 */
describeEachDialect("cases and sessions read once per request that only reads", (kind) => {
  const db = useTestDb(kind);
  const now = new Date().toISOString();

  async function newCase(patientId: string): Promise<{ surveyId: number; caseId: number }> {
    const survey = await db().insertInto("surveys").values({ title: "Once" }).returning("id").executeTakeFirstOrThrow();
    const kase = await db()
      .insertInto("patient_data")
      .values({
        survey_id: survey.id,
        patient_id: patientId,
        team_id: null,
        created_by_user_id: null,
        created_at: now,
        modified_at: now,
        closed_at: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { surveyId: survey.id, caseId: kase.id };
  }
  const close = (caseId: number) =>
    db().updateTable("patient_data").set({ state: "Closed", closed_at: now }).where("id", "=", caseId).execute();

  it("gives a case's first read to every lookup of the same request, by patient id and by id", async () => {
    const { surveyId, caseId } = await newCase("ONCE1");
    const states = await withRequestContext(
      "page-1",
      async () => {
        const first = await findCase(db(), surveyId, "ONCE1");
        const firstById = await findCaseById(db(), caseId);
        await close(caseId);
        return [first, firstById, await findCase(db(), surveyId, "ONCE1"), await findCaseById(db(), caseId)].map(
          (c) => c?.state,
        );
      },
      true,
    );
    expect(states).toEqual(["Open", "Open", "Open", "Open"]);
    // The next request reads what is there now.
    const next = await withRequestContext("page-2", () => findCase(db(), surveyId, "ONCE1"), true);
    expect(next?.state).toBe("Closed");
  });

  it("reads a case afresh in a request that writes, in a transaction and when locking", async () => {
    const { surveyId, caseId } = await newCase("ONCE2");
    const inWrite = await withRequestContext("post-1", async () => {
      await findCase(db(), surveyId, "ONCE2");
      await close(caseId);
      return (await findCase(db(), surveyId, "ONCE2"))?.state;
    });
    expect(inWrite).toBe("Closed");

    const { surveyId: s3, caseId: c3 } = await newCase("ONCE3");
    const [inTransaction, locked] = await withRequestContext(
      "page-3",
      async () => {
        await findCase(db(), s3, "ONCE3");
        await findCaseById(db(), c3);
        await close(c3);
        return [
          await db()
            .transaction()
            .execute(async (trx) => (await findCaseById(trx, c3))?.state),
          (await findCase(db(), s3, "ONCE3", { lock: true }))?.state,
        ];
      },
      true,
    );
    expect([inTransaction, locked]).toEqual(["Closed", "Closed"]);
  });

  it("reads the session once per request that only reads, and afresh after its renewal is saved", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reads-once-"));
    onTestFinished(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const stores = createSessionStores({ db: db(), dataDir, secret: "s".repeat(32), ttlHours: 1 });
    const request = new Request("http://localhost/surveys");
    const storage = stores.forRequest(request);
    const session = await storage.getSession();
    session.set("accessToken", "first");
    const cookie = (await storage.commitSession(session)).split(";")[0];
    const id = (await stores.cookieSessionId(new Request("http://localhost/", { headers: { Cookie: cookie } })))!;
    const setToken = (token: string) =>
      db()
        .updateTable("sessions")
        .set({ data: JSON.stringify({ accessToken: token }) })
        .where("id", "=", id)
        .execute();

    const tokens = await withRequestContext(
      "page-6",
      async () => {
        const read = async () => (await storage.getSession(cookie)).get("accessToken");
        const first = await read();
        await setToken("changed behind its back");
        const second = await read();
        // A renewal this request saves is what its next read gives.
        await stores.saveRenewal(id, { accessToken: "renewed" } as never);
        return [first, second, await read()];
      },
      true,
    );
    expect(tokens).toEqual(["first", "first", "renewed"]);
    const inWrite = await withRequestContext("post-2", async () => {
      await storage.getSession(cookie);
      await setToken("written");
      return (await storage.getSession(cookie)).get("accessToken");
    });
    expect(inWrite).toBe("written");
  });
});
