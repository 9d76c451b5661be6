import { expect, it } from "vitest";
import { purgeSyncRequests, SYNC_REQUEST_KEEP_MS } from "~/server/services/sync/sync-requests.server";
import { describeEachDialect, useTestDb } from "../support/databases";
import { seedSurvey } from "./fixtures";

describeEachDialect("applied offline syncs", (kind) => {
  const db = useTestDb(kind);

  it("are forgotten after 30 days by the purge; newer ones stay", async () => {
    const s = await seedSurvey(db());
    const now = new Date();
    const row = (key: string, ageMs: number) => ({
      user_id: s.userId,
      idempotency_key: key,
      survey_id: s.surveyId,
      patient_data_id: s.patientDataId,
      request_hash: "f".repeat(64),
      created_at: new Date(now.getTime() - ageMs).toISOString(),
    });
    await db()
      .insertInto("sync_requests")
      .values([row("old-key-1", SYNC_REQUEST_KEEP_MS + 60_000), row("new-key-1", SYNC_REQUEST_KEEP_MS - 60_000)])
      .execute();
    expect(await purgeSyncRequests(db(), now)).toBe(1);
    const left = await db()
      .selectFrom("sync_requests")
      .select("idempotency_key")
      .where("survey_id", "=", s.surveyId)
      .orderBy("idempotency_key")
      .execute();
    // The fixture's own row was made just now.
    expect(left.map((r) => r.idempotency_key)).toEqual([expect.stringMatching(/^key-/), "new-key-1"]);
  });

  it("keep one key per person: the same key of another person is another row", async () => {
    const s = await seedSurvey(db());
    const t = await seedSurvey(db());
    const base = { idempotency_key: "shared-key-1", request_hash: "0".repeat(64) };
    await db()
      .insertInto("sync_requests")
      .values([
        { ...base, user_id: s.userId, survey_id: s.surveyId, patient_data_id: s.patientDataId },
        { ...base, user_id: t.userId, survey_id: t.surveyId, patient_data_id: t.patientDataId },
      ])
      .execute();
    const rows = await db().selectFrom("sync_requests").select("user_id").where("idempotency_key", "=", "shared-key-1");
    expect(await rows.execute()).toHaveLength(2);
  });
});
