import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { CASE_AUTO_CLOSE_MS, closeStaleCases, isStale } from "~/server/services/fill/cases.server";
import { dialects } from "../support/databases";
import { ageCase, caseRow, json, optionId, questionId, startCase, useFillWorld } from "./fill-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe("the auto-close rule", () => {
  const now = new Date("2026-05-10T12:00:00.000Z");
  it("an Open case is stale 24 hours after its last change, a Closed one never", () => {
    const at = (ms: number) => new Date(now.getTime() - ms).toISOString();
    expect(isStale({ state: "Open", modified_at: at(CASE_AUTO_CLOSE_MS) }, now)).toBe(true);
    expect(isStale({ state: "Open", modified_at: at(CASE_AUTO_CLOSE_MS - 1) }, now)).toBe(false);
    expect(isStale({ state: "Closed", modified_at: at(10 * CASE_AUTO_CLOSE_MS) }, now)).toBe(false);
  });
});

describe.each(dialects)("automatic closing of cases on %s", (kind) => {
  const world = useFillWorld(kind, () => idp);
  const q = (surveyId: number, patientId: string) => `patientId=${patientId}&surveyId=${surveyId}`;

  it("a case untouched for 24 hours reads as Closed, closed as of 24 hours after its last change", async () => {
    const w = world();
    const id = await startCase(w, w.a.heart, "STALE_1");
    await startCase(w, w.a.heart, "FRESH_1");
    const modified = await ageCase(w.db, w.a.heart, "STALE_1", 25);
    await ageCase(w.db, w.a.heart, "FRESH_1", 23);

    const record = await json<{ ClosedAt: string }>(
      await w.call("user", "GET", `/patients?${q(w.a.heart, "STALE_1")}`),
    );
    expect(record).toEqual({
      State: "Closed",
      PatientDataId: id,
      Version: 0,
      ClosedAt: expect.any(String),
      Signature: null,
      Language: "de",
    });
    // It says when it closed: 24 hours after its last change.
    expect(Date.parse(record.ClosedAt) - Date.parse(modified)).toBe(CASE_AUTO_CLOSE_MS);
    const row = await caseRow(w.db, w.a.heart, "STALE_1");
    expect(row).toMatchObject({ state: "Closed", modified_at: modified });
    expect(Date.parse(row!.closed_at!) - Date.parse(modified)).toBe(CASE_AUTO_CLOSE_MS);
    const audit = await w.db
      .selectFrom("audit_log")
      .select(["action", "actor_user_id"])
      .where("patient_data_id", "=", id)
      .where("action", "=", "case.autoClose")
      .execute();
    expect(audit).toEqual([{ action: "case.autoClose", actor_user_id: null }]);
    expect(await json(await w.call("user", "GET", `/patients?${q(w.a.heart, "FRESH_1")}`))).toMatchObject({
      State: "Open",
    });
  });

  it("an answer to a stale case is refused as closed, and the lists leave it out", async () => {
    const w = world();
    await startCase(w, w.a.heart, "STALE_2");
    await ageCase(w.db, w.a.heart, "STALE_2", 30);
    const question = await questionId(w.db, w.a.heart, "Wie stark ist die Atemnot bei Belastung?");
    const res = await w.call("user", "POST", "/question-responses/single-selection", {
      PatientId: "STALE_2",
      SurveyId: w.a.heart,
      QuestionId: question,
      AnswerOptionId: await optionId(w.db, question, "leicht"),
    });
    expect(res.status).toBe(409);
    expect((await json<{ Type: string }>(res)).Type).toBe("SURVEY_ALREADY_CLOSED");
    const latest = await json<{ PatientId: string }[]>(
      await w.call("user", "GET", `/patients/latest?surveyId=${w.a.heart}`),
    );
    expect(latest.map((r) => r.PatientId)).not.toContain("STALE_2");
    const lookup = await json(await w.call("user", "GET", `/patients/autocomplete?${q(w.a.heart, "STALE_2")}`));
    expect(lookup).toEqual({ OpenIds: [], IsClosed: true });
    expect((await caseRow(w.db, w.a.heart, "STALE_2"))!.state).toBe("Closed");
    expect((await w.call("user", "POST", `/patients/add?${q(w.a.heart, "STALE_2")}`)).status).toBe(409);
  });

  it("each change restarts the 24 hours", async () => {
    const w = world();
    await startCase(w, w.a.heart, "BUSY_1");
    await ageCase(w.db, w.a.heart, "BUSY_1", 23);
    const question = await questionId(w.db, w.a.heart, "Weitere Beschwerden");
    const res = await w.call("user", "POST", "/question-responses/free-text", {
      PatientId: "BUSY_1",
      SurveyId: w.a.heart,
      QuestionId: question,
      TextResponse: "Müdigkeit",
    });
    expect(res.status).toBe(200);
    const row = await caseRow(w.db, w.a.heart, "BUSY_1");
    expect(Date.now() - Date.parse(row!.modified_at)).toBeLessThan(60_000);
    await closeStaleCases(w.db, new Date(Date.now() + 23 * 3600_000), w.a.heart);
    expect((await caseRow(w.db, w.a.heart, "BUSY_1"))!.state).toBe("Open");
    await closeStaleCases(w.db, new Date(Date.now() + 25 * 3600_000), w.a.heart);
    expect((await caseRow(w.db, w.a.heart, "BUSY_1"))!.state).toBe("Closed");
  });

  it("closeStaleCases closes every stale case once, for one survey or for all", async () => {
    const w = world();
    await startCase(w, w.b.heart, "SWEEP_1");
    await startCase(w, w.b.heart, "SWEEP_2");
    await startCase(w, w.b.postop, "SWEEP_3");
    const later = new Date(Date.now() + CASE_AUTO_CLOSE_MS + 60_000);
    const open = async () =>
      (
        await w.db
          .selectFrom("patient_data")
          .select("patient_id")
          .where("state", "=", "Open")
          .where("patient_id", "like", "SWEEP%")
          .orderBy("patient_id")
          .execute()
      ).map((r) => r.patient_id);

    expect(await closeStaleCases(w.db, new Date())).toBe(0);
    expect(await open()).toEqual(["SWEEP_1", "SWEEP_2", "SWEEP_3"]);
    expect(await closeStaleCases(w.db, later, w.b.heart)).toBe(2);
    expect(await open()).toEqual(["SWEEP_3"]);
    expect(await closeStaleCases(w.db, later, w.b.heart)).toBe(0);
    expect(await closeStaleCases(w.db, later)).toBeGreaterThanOrEqual(1);
    expect(await open()).toEqual([]);
  });
});
