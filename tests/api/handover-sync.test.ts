import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { caseRow, json, optionId, questionId, startCase, useFillWorld, type FillWorld } from "./fill-support";
import { ORIGIN, sessionCookie, sha256 } from "./handover-support";
import { payload, sync } from "./sync-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

/** Who an audit row of the case's answers names. */
async function answerActors(w: FillWorld, caseId: number) {
  return w.db
    .selectFrom("audit_log")
    .select(["actor_sub", "actor_user_id"])
    .where("patient_data_id", "=", caseId)
    .where("action", "=", "response.sync")
    .execute();
}

/** Answers made offline while the device was handed over are the patient's (docs/decisions/058-hand-over.md). */
describe("the offline sync of a hand-over's fill", () => {
  const world = useFillWorld("sqlite", () => idp);
  let survey: number;
  let question: number;
  let strong: number;
  beforeAll(async () => {
    survey = world().a.heart;
    question = await questionId(world().db, survey, "Wie stark ist die Atemnot bei Belastung?");
    strong = await optionId(world().db, question, "stark");
  });
  const answered = () => ({ QuestionAnswers: [{ QuestionId: question, AnswerOptionId: strong }] });

  it("records the case as answered by the patient on the staff member's device when the fill says so", async () => {
    const w = world();
    const { userId } = await sessionCookie(w);
    // The hand-over ended offline by the PIN: the staff member's own call syncs it later.
    const res = await sync(
      w,
      survey,
      await payload(w.db, survey, "HS_NEW", { ...answered(), Respondent: "handover" }),
      {
        key: "handover-sync-new",
      },
    );
    expect(res.status).toBe(200);
    const caseId = (await json<{ Data: number }>(res)).Data;
    expect(await caseRow(w.db, survey, "HS_NEW")).toMatchObject({
      respondent: "handover",
      respondent_user_id: userId,
      respondent_link_id: null,
    });
    const actors = await answerActors(w, caseId);
    expect(actors).toHaveLength(1);
    expect(actors[0]).toEqual({ actor_sub: `handover:${userId}`, actor_user_id: userId });

    // A case staff filled themselves stays theirs.
    const own = await sync(w, survey, await payload(w.db, survey, "HS_STAFF", answered()), {
      key: "handover-sync-staff",
    });
    expect(own.status).toBe(200);
    expect((await caseRow(w.db, survey, "HS_STAFF"))?.respondent).toBeNull();
    const ownActors = await answerActors(w, (await json<{ Data: number }>(own)).Data);
    expect(ownActors.map((a) => a.actor_sub)).not.toContain(`handover:${userId}`);
    expect(ownActors).toHaveLength(1);
  });

  it("continues an open case as the patient's, also while the session is still handed over", async () => {
    const w = world();
    const { cookie, userId } = await sessionCookie(w);
    const caseId = await startCase(w, survey, "HS_OPEN");
    expect((await caseRow(w.db, survey, "HS_OPEN"))?.respondent).toBeNull();
    const headers = { cookie, origin: ORIGIN };
    const token = "device-return-token";
    const started = await w.api.call("POST", "/handover/start", {
      body: { SurveyId: survey, PatientId: "HS_OPEN", ReturnHash: sha256(token) },
      headers,
    });
    expect(started.status).toBe(200);
    // The device came back online with the session still handed over: only this case's sync answers.
    const other = await w.api.call("POST", `/survey-offline-sync/${survey}`, {
      body: await payload(w.db, survey, "HS_ELSE", answered()),
      headers,
    });
    expect(other.status).toBe(403);
    const res = await w.api.call("POST", `/survey-offline-sync/${survey}`, {
      body: await payload(w.db, survey, "HS_OPEN", { ...answered(), BaseVersion: 0 }),
      headers: { ...headers, "Idempotency-Key": "handover-sync-open" },
    });
    expect(res.status).toBe(200);
    expect(await caseRow(w.db, survey, "HS_OPEN")).toMatchObject({
      respondent: "handover",
      respondent_user_id: userId,
    });
    expect(await answerActors(w, caseId)).toEqual([{ actor_sub: `handover:${userId}`, actor_user_id: userId }]);
    expect((await w.api.call("POST", "/handover/end", { body: { ReturnToken: token }, headers })).status).toBe(204);
  });
});
