import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Survey } from "~/domain/survey";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { casesErased } from "~/server/metrics.server";
import { verifyStoredChain } from "~/server/services/audit-verify.server";
import { erasureKey } from "~/server/services/erasure/keys.server";
import { eraseExpiredCases, monthsBefore } from "~/server/services/erasure/retention.server";
import type { RetentionPreview } from "~/domain/erasure";
import { dialects } from "../support/databases";
import { fullCase, leftOf } from "./erasure-support";
import { json, useFillWorld } from "./fill-support";

/**
 * Retention per survey (docs/decisions/042-retention-and-erasure.md): the setting through the survey API, and
 * the daily round erasing the closed cases past their period, and nothing else.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe("monthsBefore", () => {
  it("goes back whole months, to the month's last day where the day does not exist", () => {
    expect(monthsBefore(new Date("2026-11-27T10:00:00.000Z"), 6).toISOString()).toBe("2026-05-27T10:00:00.000Z");
    expect(monthsBefore(new Date("2026-03-31T00:00:00.000Z"), 1).toISOString()).toBe("2026-02-28T00:00:00.000Z");
    expect(monthsBefore(new Date("2026-01-15T00:00:00.000Z"), 24).toISOString()).toBe("2024-01-15T00:00:00.000Z");
  });
});

describe.each(dialects)("retention on %s", (kind) => {
  const world = useFillWorld(kind, () => idp);

  it("is set on a Draft survey's start tab as months, audited, and shown in the survey", async () => {
    const w = world();
    const put = await w.call("editor", "PUT", `/surveys/${w.a.draft}`, { RetentionMonths: 120 });
    expect(put.status).toBe(200);
    expect((await json<Survey>(put)).RetentionMonths).toBe(120);
    const row = await w.db
      .selectFrom("surveys")
      .select("retention_months")
      .where("id", "=", w.a.draft)
      .executeTakeFirst();
    expect(row?.retention_months).toBe(120);
    const none = await w.call("editor", "PUT", `/surveys/${w.a.draft}`, { RetentionMonths: 0 });
    expect((await json<Survey>(none)).RetentionMonths).toBe(0);
    const stored = await w.db
      .selectFrom("surveys")
      .select("retention_months")
      .where("id", "=", w.a.draft)
      .executeTakeFirst();
    expect(stored?.retention_months).toBeNull();
    const bad = await w.call("editor", "PUT", `/surveys/${w.a.draft}`, { RetentionMonths: -1 });
    expect(bad.status).toBe(400);
  });

  it("erases the closed cases past the period once a day, and leaves the others", async () => {
    const w = world();
    const survey = w.a.heart;
    // The survey is Active; its period is set in the database as an editor would have done in Draft.
    await w.db.updateTable("surveys").set({ retention_months: 12 }).where("id", "=", survey).execute();
    const old = await fullCase(w, survey, "RET_OLD");
    const recent = await fullCase(w, survey, "RET_NEW");
    const open = await fullCase(w, survey, "RET_OPEN", false);
    const other = await fullCase(w, w.b.heart, "RET_OTHER");
    const longAgo = new Date(Date.now() - 400 * 86_400_000).toISOString();
    await w.db
      .updateTable("patient_data")
      .set({ closed_at: longAgo })
      .where("id", "in", [old.caseId, other.caseId])
      .execute();
    const before = (await casesErased.get()).values.find((v) => v.labels.reason === "retention")?.value ?? 0;

    const erased = await eraseExpiredCases(w.db, w.api.ctx.attachments, erasureKey(w.api.ctx.env));
    expect(erased).toBe(1);
    expect((await leftOf(w.db, old.caseId)).patient_data).toBe(0);
    for (const kept of [recent, open, other]) expect((await leftOf(w.db, kept.caseId)).patient_data).toBe(1);
    const tombstone = await w.db
      .selectFrom("case_erasures")
      .selectAll()
      .where("patient_data_id", "=", old.caseId)
      .executeTakeFirstOrThrow();
    expect(tombstone).toMatchObject({ reason: "retention", erased_by_user_id: null, erased_by_sub: null });
    const after = (await casesErased.get()).values.find((v) => v.labels.reason === "retention")?.value ?? 0;
    expect(after - before).toBe(1);
    expect(await verifyStoredChain(w.db, String(survey))).toMatchObject({ ok: true, erased: expect.any(Number) });
    // A second round the same day finds nothing left to do.
    expect(await eraseExpiredCases(w.db, w.api.ctx.attachments, erasureKey(w.api.ctx.env))).toBe(0);
  });

  it("says how many closed cases a shorter period would have the next round erase, to the survey's editors", async () => {
    const w = world();
    const survey = w.a.heart;
    const old = await fullCase(w, survey, "PRE_OLD");
    const older = await fullCase(w, survey, "PRE_OLDER");
    await fullCase(w, survey, "PRE_NEW");
    await fullCase(w, survey, "PRE_OPEN", false);
    const at = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    await w.db
      .updateTable("patient_data")
      .set({ closed_at: at(200) })
      .where("id", "=", old.caseId)
      .execute();
    await w.db
      .updateTable("patient_data")
      .set({ closed_at: at(800) })
      .where("id", "=", older.caseId)
      .execute();
    const preview = async (months: number) => {
      const res = await w.call("editor", "GET", `/erasures/retention-preview?surveyId=${survey}&months=${months}`);
      expect(res.status).toBe(200);
      return json<RetentionPreview>(res);
    };
    expect(await preview(6)).toMatchObject({ Months: 6, Cases: 2, Before: expect.any(String) });
    expect((await preview(12)).Cases).toBe(1);
    expect((await preview(120)).Cases).toBe(0);
    // The round erases what the preview said.
    await w.db.updateTable("surveys").set({ retention_months: 6 }).where("id", "=", survey).execute();
    expect(await eraseExpiredCases(w.db, w.api.ctx.attachments, erasureKey(w.api.ctx.env))).toBe(2);
    expect((await preview(6)).Cases).toBe(0);
    // Approvers and participants do not set the period; a period out of range is refused.
    expect((await w.call("approver", "GET", `/erasures/retention-preview?surveyId=${survey}&months=6`)).status).toBe(
      403,
    );
    expect((await w.call("user", "GET", `/erasures/retention-preview?surveyId=${survey}&months=6`)).status).toBe(403);
    expect((await w.call("editor", "GET", `/erasures/retention-preview?surveyId=${survey}&months=0`)).status).toBe(400);
  });
});
