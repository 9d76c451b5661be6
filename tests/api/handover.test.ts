import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { caseRow, json, optionId, questionId, startCase, useFillWorld } from "./fill-support";
import { ORIGIN, sessionCookie, sha256 } from "./handover-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

/** The patient mode on the server (docs/decisions/058-hand-over.md). */
describe("a staff session handed to the patient", () => {
  const world = useFillWorld("sqlite", () => idp);
  let survey: number;
  let question: number;
  beforeAll(async () => {
    survey = world().a.heart;
    question = await questionId(world().db, survey, "Wie stark ist die Atemnot bei Belastung?");
  });

  const as = (cookie: string) => (method: string, path: string, body?: unknown) =>
    world().api.call(method, path, { body, headers: { cookie, origin: ORIGIN } });

  it("answers only its case's answer endpoints until the return token ends it", async () => {
    const w = world();
    const { cookie, userId } = await sessionCookie(w);
    const call = as(cookie);
    const caseId = await startCase(w, survey, "H_ONE");
    await startCase(w, survey, "H_OTHER");
    const token = "return-token-of-the-device";

    // Before: staff's calls answer.
    expect((await call("GET", "/surveys?take=5&skip=0")).status).toBe(200);
    expect((await call("GET", "/handover/current")).status).toBe(200);
    expect(await json(await call("GET", "/handover/current"))).toBeNull();

    const started = await call("POST", "/handover/start", {
      SurveyId: survey,
      PatientId: "H_ONE",
      ReturnHash: sha256(token),
    });
    expect(started.status).toBe(200);
    expect(await json(started)).toEqual({ SurveyId: survey, PatientId: "H_ONE", PatientDataId: caseId });
    expect(await json(await call("GET", "/handover/current"))).toEqual({ SurveyId: survey, PatientId: "H_ONE" });

    // Staff's calls are refused; another case of the same survey too.
    for (const [method, path] of [
      ["GET", "/surveys?take=5&skip=0"],
      ["GET", `/patients/latest?surveyId=${survey}&count=5`],
      ["GET", `/patients?surveyId=${survey}&patientId=H_OTHER`],
      ["GET", `/question-responses?surveyId=${survey}&patientId=H_OTHER`],
    ] as const) {
      expect((await call(method, path)).status, path).toBe(403);
    }
    const strong = await optionId(w.db, question, "stark");
    const other = await call("POST", "/question-responses/single-selection", {
      SurveyId: survey,
      PatientId: "H_OTHER",
      QuestionId: question,
      AnswerOptionId: strong,
    });
    expect(other.status).toBe(403);
    // A second hand-over cannot be started from within one.
    expect(
      (await call("POST", "/handover/start", { SurveyId: survey, PatientId: "H_OTHER", ReturnHash: sha256("x") }))
        .status,
    ).toBe(403);

    // The case's own answers are taken, and name the patient on this staff member's device.
    expect((await call("GET", `/patients?surveyId=${survey}&patientId=H_ONE`)).status).toBe(200);
    expect((await call("GET", `/attribute-responses?surveyId=${survey}&patientId=H_ONE`)).status).toBe(200);
    expect((await call("GET", `/attribute-responses?surveyId=${survey}&patientId=H_OTHER`)).status).toBe(403);
    const own = await call("POST", "/question-responses/single-selection", {
      SurveyId: survey,
      PatientId: "H_ONE",
      QuestionId: question,
      AnswerOptionId: strong,
    });
    expect(own.status).toBe(200);
    const row = await caseRow(w.db, survey, "H_ONE");
    expect(row).toMatchObject({ respondent: "handover", respondent_user_id: userId, respondent_link_id: null });
    expect((await caseRow(w.db, survey, "H_OTHER"))?.respondent).toBeNull();
    const trail = await w.db
      .selectFrom("audit_log")
      .select(["actor_sub", "actor_user_id"])
      .where("patient_data_id", "=", caseId)
      .where("action", "like", "response%")
      .execute();
    expect(trail.length).toBeGreaterThan(0);
    for (const entry of trail) expect(entry).toEqual({ actor_sub: `handover:${userId}`, actor_user_id: userId });

    // A wrong token is refused and changes nothing; the right one ends the mode.
    expect((await call("POST", "/handover/end", { ReturnToken: "guessed" })).status).toBe(403);
    expect((await call("GET", "/surveys?take=5&skip=0")).status).toBe(403);
    expect((await call("POST", "/handover/end", { ReturnToken: token })).status).toBe(204);
    expect((await call("GET", "/surveys?take=5&skip=0")).status).toBe(200);
    expect(await json(await call("GET", "/handover/current"))).toBeNull();
  });

  it("is started only on a signed-in session, for an Open case the person may fill", async () => {
    const w = world();
    const { cookie } = await sessionCookie(w);
    const call = as(cookie);
    const body = (patientId: string, s = survey) => ({ SurveyId: s, PatientId: patientId, ReturnHash: sha256("t") });
    expect((await call("POST", "/handover/start", body("H_NONE"))).status).toBe(404);
    expect((await call("POST", "/handover/start", body("H_NONE", w.a.draft))).status).toBe(409);
    await startCase(w, survey, "H_BEARER");
    expect((await w.call("user", "POST", "/handover/start", body("H_BEARER"))).status).toBe(403);
    expect((await w.call("nobody", "POST", "/handover/start", body("H_BEARER"))).status).toBe(401);
    expect((await call("POST", "/handover/start", { ...body("H_BEARER"), ReturnHash: "short" })).status).toBe(400);
    expect((await call("GET", "/surveys?take=5&skip=0")).status).toBe(200);
  });
});
