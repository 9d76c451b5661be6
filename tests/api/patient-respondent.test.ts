import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CaseHistory, SurveyTrail } from "~/domain/audit-reading";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { audit } from "~/server/services/audit.server";
import { dialects } from "../support/databases";
import { asPatient } from "./link-caller";
import { json, questionId, useFillWorld } from "./fill-support";

/**
 * The patient named as the author of their writes (docs/decisions/057-patient-links.md): in a case's history
 * (answers, submit to review, staff's close) and in the survey's trail, and the case waiting for review listed
 * as such among the open cases.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe.each(dialects)("the patient as respondent in staff's pages on %s", (kind) => {
  const world = useFillWorld(kind, () => idp);

  it("the history names the patient's saves and submit, the list says the case waits for review", async () => {
    const w = world();
    const survey = w.a.heart;
    await w.db.updateTable("surveys").set({ patient_submit_review: 1 }).where("id", "=", survey).execute();
    try {
      const made = await json<{ Link: { Id: number }; Token: string }>(
        await w.call("user", "POST", "/patient-links", { SurveyId: survey, PatientId: "RESP_1" }),
      );
      const linkId = made.Link.Id;
      const patient = await asPatient(w, made.Token, "10.0.1.1");
      const notes = await questionId(w.db, survey, "Weitere Beschwerden");
      const saved = await patient("POST", "/question-responses/free-text", {
        SurveyId: survey,
        PatientId: "RESP_1",
        QuestionId: notes,
        TextResponse: "Husten",
      });
      expect(saved.status, await saved.clone().text()).toBe(200);
      expect((await patient("POST", `/patients/close?surveyId=${survey}&patientId=RESP_1`)).status).toBe(204);

      const latest = await json<{ PatientId: string; ToReview?: boolean }[]>(
        await w.call("user", "GET", `/patients/latest?surveyId=${survey}&count=50`),
      );
      expect(latest.find((c) => c.PatientId === "RESP_1")).toMatchObject({ ToReview: true });
      expect(latest.filter((c) => c.PatientId !== "RESP_1").every((c) => c.ToReview === undefined)).toBe(true);

      expect((await w.call("user", "POST", `/patients/close?surveyId=${survey}&patientId=RESP_1`)).status).toBe(204);
      const history = await json<CaseHistory>(
        await w.call("approver", "GET", `/audit-log/case-history?surveyId=${survey}&patientId=RESP_1`),
      );
      const entries = history.Questions.find((q) => q.QuestionId === notes)!.Entries;
      expect(entries).toHaveLength(1);
      expect(entries[0].Actor).toEqual({ UserId: null, Name: null, Respondent: { Kind: "link", Id: linkId } });
      expect(entries[0].Value).toEqual({ Text: "Husten" });
      expect(history.Events!.map((e) => [e.Action, e.Actor.Respondent ?? null])).toEqual([
        ["case.patientSubmit", { Kind: "link", Id: linkId }],
        ["case.close", null],
      ]);
      // Staff's close names the staff member.
      expect(history.Events![1].Actor.UserId).not.toBeNull();
      expect(history.Events![1].Actor.Name).toBeTruthy();
    } finally {
      await w.db.updateTable("surveys").set({ patient_submit_review: 0 }).where("id", "=", survey).execute();
    }
  });

  it("the trail names a row written on a staff member's device handed over to the patient", async () => {
    const w = world();
    const survey = w.a.heart;
    const user = await json<{ SurveyUserDataId: number }>(await w.call("user", "GET", "/users/current"));
    // A hand-over's row: the staff member's account, and the actor saying the patient holds the device.
    await audit(
      w.db,
      { surveyUserDataId: user.SurveyUserDataId, sub: `handover:${user.SurveyUserDataId}` },
      { action: "case.language", entity: "survey", entityId: survey, surveyId: survey },
    );
    const trail = await json<SurveyTrail>(
      await w.call("approver", "GET", `/audit-log/trail?surveyId=${survey}&action=case.language`),
    );
    expect(trail.Entries[0].Actor).toMatchObject({
      UserId: user.SurveyUserDataId,
      Respondent: { Kind: "handover", Id: user.SurveyUserDataId },
    });
    expect(trail.Entries[0].Actor.Name).toBeTruthy();
    // Staff's own rows name no respondent.
    const all = await json<SurveyTrail>(await w.call("approver", "GET", `/audit-log/trail?surveyId=${survey}`));
    const own = all.Entries.filter((e) => e.Action !== "case.language");
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((e) => e.Actor.Respondent === null)).toBe(true);
  });
});
