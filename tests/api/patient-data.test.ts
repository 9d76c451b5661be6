import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PatientData } from "~/domain/patient-data";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { verifyStoredChain } from "~/server/services/audit-verify.server";
import { dialects } from "../support/databases";
import { erase, fullCase } from "./erasure-support";
import { json, useFillWorld } from "./fill-support";

/**
 * Showing a patient their data (docs/decisions/042-retention-and-erasure.md, GDPR Art. 15): the case, its
 * answers, files, history and signatures for the survey's approvers; each access audited, and erased with the
 * case.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe.each(dialects)("patient data on %s", (kind) => {
  const world = useFillWorld(kind, () => idp);

  it("answers the case with its answers, files and history, and logs the access", async () => {
    const w = world();
    const survey = w.a.heart;
    await fullCase(w, survey, "DATA_1");
    const res = await w.call("approver", "GET", `/patient-data?surveyId=${survey}&patientId=DATA_1`);
    expect(res.status).toBe(200);
    const data = await json<PatientData>(res);
    expect(data).toMatchObject({
      SurveyId: survey,
      PatientId: "DATA_1",
      State: "Closed",
      ClosedAt: expect.any(String),
    });
    expect(data.Preliminary).toEqual([{ Title: expect.any(String), Value: { Options: ["weiblich"] } }]);
    expect(data.Answers).toContainEqual({
      Title: "Weitere Beschwerden",
      Value: { Text: "Übelkeit und Schwindel bei DATA_1" },
    });
    expect(data.Attachments).toEqual([
      { Question: "Zeitpunkt der Messung", FileName: "befund-DATA_1.png", Size: expect.any(Number) },
    ]);
    expect(data.History.Questions.length).toBeGreaterThan(0);
    const logged = await w.db
      .selectFrom("audit_log")
      .select(["action", "after", "actor_user_id"])
      .where("survey_id", "=", survey)
      .where("action", "=", "case.data.view")
      .execute();
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0].after!)).toEqual({ PatientId: "DATA_1" });
  });

  it("refuses editors and participants, a missing case, and another survey's unknown id", async () => {
    const w = world();
    for (const who of ["editor", "user"] as const) {
      expect((await w.call(who, "GET", `/patient-data?surveyId=${w.a.heart}&patientId=DATA_1`)).status).toBe(403);
    }
    const missing = await w.call("approver", "GET", `/patient-data?surveyId=${w.a.heart}&patientId=NOBODY`);
    expect(missing.status).toBe(404);
    expect((await w.call("approver", "GET", `/patient-data?surveyId=999999&patientId=DATA_1`)).status).toBe(404);
  });

  it("is gone with the erasure, its reading rows erased too, and the chain verifies", async () => {
    const w = world();
    const erased = await erase(w, w.a.heart, "DATA_1");
    expect(erased.status).toBe(200);
    const { ErasedAt } = await json<{ ErasedAt: string }>(erased);
    // Asked again, the data page and the case history learn when and why the data went.
    const after = await w.call("approver", "GET", `/patient-data?surveyId=${w.a.heart}&patientId=DATA_1`);
    expect(after.status).toBe(409);
    expect(await json(after)).toMatchObject({ Type: "CASE_ALREADY_ERASED", ErasedAt, Reason: "consent" });
    const history = await w.call("approver", "GET", `/audit-log/case-history?surveyId=${w.a.heart}&patientId=DATA_1`);
    expect(history.status).toBe(409);
    expect(await json(history)).toMatchObject({ Type: "CASE_ALREADY_ERASED", ErasedAt, Reason: "consent" });
    // A patient id that never had a case is still not found.
    const never = await w.call("approver", "GET", `/audit-log/case-history?surveyId=${w.a.heart}&patientId=NEVER_1`);
    expect(never.status).toBe(404);
    const rows = await w.db
      .selectFrom("audit_log")
      .select(["after", "erased_at"])
      .where("survey_id", "=", w.a.heart)
      .where("action", "in", ["case.data.view", "case.history.view"])
      .execute();
    for (const row of rows) expect(row).toMatchObject({ after: null, erased_at: expect.any(String) });
    expect(await verifyStoredChain(w.db, String(w.a.heart))).toMatchObject({ ok: true });
  });
});
