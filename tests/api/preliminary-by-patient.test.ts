import { beforeAll, describe, expect, it } from "vitest";
import type { CaseHistory, SurveyTrail } from "~/domain/audit-reading";
import type { Survey } from "~/domain/survey";
import { dialects } from "../support/databases";
import { caseRow, json, preliminaryOption, startCase, type FillWorld, useFillWorld } from "./fill-support";
import { ORIGIN, sessionCookie, sha256 } from "./handover-support";
import { asPatient, linkTestProvider } from "./link-caller";

const idp = linkTestProvider();

/**
 * The survey's setting "preliminary questions answered by the patient" (docs/decisions/058-hand-over.md): a
 * patient's link and a handed-over session write preliminary answers only where it is on (else 403
 * PRELIMINARY_BY_STAFF), and a hand-over's start and end are rows of the case's history and the survey's trail.
 */
describe.each(dialects)("preliminary questions answered by the patient on %s", (kind) => {
  const world = useFillWorld(kind, idp);
  let survey: number;
  let female: { attributeId: number; optionId: number };
  const setting = (w: FillWorld, on: boolean) =>
    w.db
      .updateTable("surveys")
      .set({ preliminary_by_patient: on ? 1 : 0 })
      .where("id", "=", survey)
      .execute();
  const answer = (patientId: string) => ({
    SurveyId: survey,
    PatientId: patientId,
    PatientFormAttributeId: female.attributeId,
    PatientFormAnswerOptionId: female.optionId,
  });
  const errorType = async (res: Response) => (await json<{ Type: string }>(res)).Type;
  const stored = (w: FillWorld, caseId: number) =>
    w.db.selectFrom("attribute_responses").select("answer_option_id").where("patient_data_id", "=", caseId).execute();

  beforeAll(async () => {
    survey = world().a.heart;
    female = await preliminaryOption(world().db, survey, "weiblich");
  });

  it("is saved with the survey's settings, off by default, named in the trail and copied with the survey", async () => {
    const w = world();
    const draft = w.a.draft;
    expect((await json<Survey>(await w.call("editor", "GET", `/surveys/${draft}`))).PreliminaryByPatient).toBe(false);
    expect((await w.call("editor", "PUT", `/surveys/${draft}`, { PreliminaryByPatient: true })).status).toBe(200);
    const read = await json<Survey>(await w.call("editor", "GET", `/surveys/${draft}`));
    expect(read.PreliminaryByPatient).toBe(true);
    const change = await w.db
      .selectFrom("audit_log")
      .select(["before", "after"])
      .where("survey_id", "=", draft)
      .where("action", "=", "survey.update")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(change.after!)).toEqual({ PreliminaryByPatient: 1 });
    const cloned = await json<{ Id: number } | number>(await w.call("editor", "POST", `/surveys/${draft}/clone`));
    const cloneId = typeof cloned === "number" ? cloned : cloned.Id;
    expect((await json<Survey>(await w.call("editor", "GET", `/surveys/${cloneId}`))).PreliminaryByPatient).toBe(true);
    // The Hash changes with it, as with every setting: an offline copy knows the survey changed.
    const hash = read.Hash;
    expect((await w.call("editor", "PUT", `/surveys/${draft}`, { PreliminaryByPatient: false })).status).toBe(200);
    expect((await json<Survey>(await w.call("editor", "GET", `/surveys/${draft}`))).Hash).not.toBe(hash);
  });

  it("lets a link answer the preliminary questions only when the survey says so", async () => {
    const w = world();
    await setting(w, false);
    const made = await json<{ Token: string; Link: { Id: number; PatientDataId: number } }>(
      await w.call("user", "POST", "/patient-links", { SurveyId: survey, PatientId: "PBP_LINK" }),
    );
    await w.call("user", "POST", "/patient-links", { SurveyId: survey, PatientId: "PBP_LINK_OTHER" });
    const patient = await asPatient(w, made.Token);
    // Off: the link's survey holds no preliminary questions, and their answers are staff's.
    const off = await json<Survey>(await patient("GET", `/surveys/${survey}`));
    expect(off.PatientForm).toEqual([]);
    expect(off.PreliminaryByPatient).toBe(false);
    const read = await patient("GET", `/attribute-responses?surveyId=${survey}&patientId=PBP_LINK`);
    expect(read.status).toBe(403);
    expect(await errorType(read)).toBe("PRELIMINARY_BY_STAFF");
    const refused = await patient("POST", "/attribute-responses", answer("PBP_LINK"));
    expect(refused.status).toBe(403);
    expect(await errorType(refused)).toBe("PRELIMINARY_BY_STAFF");
    expect(await stored(w, made.Link.PatientDataId)).toEqual([]);
    expect((await caseRow(w.db, survey, "PBP_LINK"))?.respondent).toBeNull();

    // On: the link's survey shows them, and the patient's answer is saved as theirs.
    await setting(w, true);
    const on = await json<Survey>(await patient("GET", `/surveys/${survey}`));
    expect(on.IsPatientFormEnabled).toBe(true);
    expect(on.PatientForm.map((a) => a.Id)).toContain(female.attributeId);
    const saved = await patient("POST", "/attribute-responses", answer("PBP_LINK"));
    expect(saved.status, JSON.stringify(await saved.clone().json())).toBe(200);
    expect(await stored(w, made.Link.PatientDataId)).toEqual([{ answer_option_id: female.optionId }]);
    expect(await json(await patient("GET", `/attribute-responses?surveyId=${survey}&patientId=PBP_LINK`))).toEqual([
      { PatientFormAttributeId: female.attributeId, PatientFormAnswerOptionId: female.optionId },
    ]);
    expect(await caseRow(w.db, survey, "PBP_LINK")).toMatchObject({
      respondent: "link",
      respondent_link_id: made.Link.Id,
    });
    const row = await w.db
      .selectFrom("audit_log")
      .select(["actor_sub", "actor_user_id"])
      .where("patient_data_id", "=", made.Link.PatientDataId)
      .where("action", "=", "attributeResponse.record")
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ actor_sub: `link:${made.Link.Id}`, actor_user_id: null });
    // Another case's preliminary answers stay out of the link's reach, the setting on or not.
    expect((await patient("POST", "/attribute-responses", answer("PBP_LINK_OTHER"))).status).toBe(403);
    expect((await patient("GET", `/attribute-responses?surveyId=${survey}&patientId=PBP_LINK_OTHER`)).status).toBe(403);
    expect((await caseRow(w.db, survey, "PBP_LINK_OTHER"))?.respondent).toBeNull();
    await setting(w, false);
  });

  it("lets a handed-over session answer them only when the survey says so; staff's own answers as before", async () => {
    const w = world();
    await setting(w, false);
    const { cookie, userId } = await sessionCookie(w);
    const call = (method: string, path: string, body?: unknown) =>
      w.api.call(method, path, { body, headers: { cookie, origin: ORIGIN } });
    const caseId = await startCase(w, survey, "PBP_HAND");
    // Staff answer the preliminary questions themselves, the setting on or off.
    expect((await w.call("user", "POST", "/attribute-responses", answer("PBP_HAND"))).status).toBe(200);
    await w.call("user", "POST", "/attribute-responses", { ...answer("PBP_HAND"), PatientFormAnswerOptionId: null });
    const start = { SurveyId: survey, PatientId: "PBP_HAND", ReturnHash: sha256("first") };
    expect((await call("POST", "/handover/start", start)).status).toBe(200);
    const refused = await call("POST", "/attribute-responses", answer("PBP_HAND"));
    expect(refused.status).toBe(403);
    expect(await errorType(refused)).toBe("PRELIMINARY_BY_STAFF");
    expect(await stored(w, caseId)).toEqual([]);
    // The staff's preliminary answers are still read on the patient's page.
    expect((await call("GET", `/attribute-responses?surveyId=${survey}&patientId=PBP_HAND`)).status).toBe(200);
    expect((await call("POST", "/handover/end", { ReturnToken: "first" })).status).toBe(204);

    await setting(w, true);
    expect((await call("POST", "/handover/start", { ...start, ReturnHash: sha256("second") })).status).toBe(200);
    expect((await call("POST", "/attribute-responses", answer("PBP_HAND"))).status).toBe(200);
    expect(await stored(w, caseId)).toEqual([{ answer_option_id: female.optionId }]);
    expect(await caseRow(w.db, survey, "PBP_HAND")).toMatchObject({
      respondent: "handover",
      respondent_user_id: userId,
    });
    // Still only its own case.
    await startCase(w, survey, "PBP_HAND_OTHER");
    expect((await call("POST", "/attribute-responses", answer("PBP_HAND_OTHER"))).status).toBe(403);
    // The right PIN typed offline: its end is sent later and says so.
    expect((await call("POST", "/handover/end", { ReturnToken: "second", Offline: true })).status).toBe(204);
    await setting(w, false);
  });

  it("writes the hand-over's start and end to the case's history and the survey's trail", async () => {
    const w = world();
    const { cookie, userId } = await sessionCookie(w);
    const call = (method: string, path: string, body?: unknown) =>
      w.api.call(method, path, { body, headers: { cookie, origin: ORIGIN } });
    const caseId = await startCase(w, survey, "PBP_TRAIL");
    expect(
      (await call("POST", "/handover/start", { SurveyId: survey, PatientId: "PBP_TRAIL", ReturnHash: sha256("t") }))
        .status,
    ).toBe(200);
    // A wrong token ends nothing, and writes no end.
    expect((await call("POST", "/handover/end", { ReturnToken: "wrong" })).status).toBe(403);
    expect((await call("POST", "/handover/end", { ReturnToken: "t" })).status).toBe(204);
    const rows = await w.db
      .selectFrom("audit_log")
      .select(["action", "actor_user_id", "entity", "after"])
      .where("patient_data_id", "=", caseId)
      .where("action", "like", "handover.%")
      .orderBy("id")
      .execute();
    expect(rows.map((r) => [r.action, r.actor_user_id, r.entity, r.after && JSON.parse(r.after)])).toEqual([
      ["handover.start", userId, "handover", null],
      ["handover.end", userId, "handover", { EndedBy: "pin" }],
    ]);

    const history = await json<CaseHistory>(
      await w.call("admin", "GET", `/audit-log/case-history?surveyId=${survey}&patientId=PBP_TRAIL`),
    );
    const events = (history.Events ?? []).map((e) => [e.Action, e.EndedBy ?? null, e.Actor.UserId]);
    expect(events).toEqual([
      ["handover.start", null, userId],
      ["handover.end", "pin", userId],
    ]);
    // The offline end of the case before is named so in its history.
    const earlier = await json<CaseHistory>(
      await w.call("admin", "GET", `/audit-log/case-history?surveyId=${survey}&patientId=PBP_HAND`),
    );
    expect((earlier.Events ?? []).map((e) => e.EndedBy ?? null)).toEqual([null, "pin", null, "offline"]);

    const trail = await json<SurveyTrail>(
      await w.call("admin", "GET", `/audit-log/trail?surveyId=${survey}&action=handover.end`),
    );
    expect(trail.Actions).toEqual(expect.arrayContaining(["handover.start", "handover.end"]));
    expect(trail.Entries.map((e) => JSON.parse(e.After ?? "null"))).toEqual([
      { EndedBy: "pin" },
      { EndedBy: "offline" },
      { EndedBy: "pin" },
    ]);
    // The trail still holds no other rows of a case.
    const all = await json<SurveyTrail>(await w.call("admin", "GET", `/audit-log/trail?surveyId=${survey}`));
    expect(all.Actions).not.toContain("attributeResponse.record");
  });
});
