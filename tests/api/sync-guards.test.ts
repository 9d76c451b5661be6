import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { dialects } from "../support/databases";
import { ageCase, json, questionId, restrictParticipants, startCase, useFillWorld } from "./fill-support";
import { casesWith, countsOf, errorType, payload, sync } from "./sync-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe.each(dialects)("offline sync: outcomes, idempotency and permissions on %s", (kind) => {
  const world = useFillWorld(
    kind,
    () => idp,
    async (w) => {
      await restrictParticipants(w.db, w.b.postop, "Studienzentrum");
      await restrictParticipants(w.db, w.b.heart, "Station 3A");
    },
  );
  let survey: number;
  let notes: number;
  beforeAll(async () => {
    survey = world().a.heart;
    notes = await questionId(world().db, survey, "Weitere Beschwerden");
  });
  const fill = (patientId: string, text = "Husten", rest = {}) =>
    payload(world().db, survey, patientId, { QuestionAnswers: [{ QuestionId: notes, TextResponse: text }], ...rest });

  it("SYNC_SURVEY_INVALID_STATUS for a survey that is not Active, also once unpublished", async () => {
    const w = world();
    for (const other of [w.a.ended, w.a.archived, w.a.draft]) {
      const res = await sync(w, other, await payload(w.db, other, "S_STATUS"), { who: "admin" });
      expect(res.status).toBe(409);
      expect(await errorType(res)).toBe("SYNC_SURVEY_INVALID_STATUS");
    }
    const body = await payload(w.db, w.b.postop, "S_UNPUB", { Close: true });
    expect((await w.call("approver", "PUT", `/surveys/${w.b.postop}/change-status?newStatusId=1`)).status).toBe(204);
    const res = await sync(w, w.b.postop, body, { who: "editor" });
    expect(res.status).toBe(409);
    expect(await errorType(res)).toBe("SYNC_SURVEY_INVALID_STATUS");
    expect(await casesWith(w.db, w.b.postop, "S_UNPUB")).toEqual([]);
  });

  it("SYNC_FILL_OTHER_AUTHOR for a fill another person made, whoever sends it; its author syncs it", async () => {
    const w = world();
    const body = await fill("S_AUTHOR", "von user", { AuthorId: "user" });
    for (const who of ["editor", "admin"] as const) {
      const res = await sync(w, survey, body, { who, key: `author${who}1` });
      expect(res.status).toBe(403);
      expect(await errorType(res)).toBe("SYNC_FILL_OTHER_AUTHOR");
    }
    expect(await casesWith(w.db, survey, "S_AUTHOR")).toEqual([]);
    const own = await sync(w, survey, body, { who: "user", key: "authoruser1" });
    expect(own.status).toBe(200);
    expect((await casesWith(w.db, survey, "S_AUTHOR")).length).toBe(1);
  });

  it("SYNC_SURVEY_OUTDATED_HASH when the survey changed since the fill was made", async () => {
    const w = world();
    const res = await sync(w, survey, { ...(await fill("S_HASH")), SurveyHash: "0123456789abcdef01234567" });
    expect(res.status).toBe(409);
    expect(await errorType(res)).toBe("SYNC_SURVEY_OUTDATED_HASH");
    expect(await casesWith(w.db, survey, "S_HASH")).toEqual([]);
  });

  it("SYNC_SURVEY_ALREADY_CLOSED for a submitted case and one closed by the 24-hour rule, even with Overwrite", async () => {
    const w = world();
    await startCase(w, survey, "S_DONE");
    await w.call("user", "POST", `/patients/close?patientId=S_DONE&surveyId=${survey}`);
    await startCase(w, survey, "S_STALE");
    await ageCase(w.db, survey, "S_STALE", 25);
    for (const patientId of ["S_DONE", "S_STALE"]) {
      const res = await sync(w, survey, await fill(patientId, "spät", { Overwrite: true }));
      expect(res.status).toBe(409);
      expect(await errorType(res)).toBe("SYNC_SURVEY_ALREADY_CLOSED");
    }
  });

  it("SYNC_SURVEY_PATIENTID_CLASH for an Open case without Overwrite; the case stays as it was", async () => {
    const w = world();
    const caseId = await startCase(w, survey, "S_CLASH");
    const res = await sync(w, survey, await fill("S_CLASH"));
    expect(res.status).toBe(409);
    expect(await errorType(res)).toBe("SYNC_SURVEY_PATIENTID_CLASH");
    expect(await countsOf(w.db, caseId)).toEqual({ answerRows: 0, preliminary: 0, audits: 0 });
  });

  it("a repeated request answers the same case and applies nothing twice, even after it closed the case", async () => {
    const w = world();
    const body = await fill("S_TWICE", "einmal", { Close: true });
    const first = await sync(w, survey, body, { key: "key-twice-0001" });
    expect(first.status).toBe(200);
    const answered = await json<{ Data: number; Version: number }>(first);
    const { Data } = answered;
    expect(answered.Version).toEqual(expect.any(Number));
    for (let i = 0; i < 2; i++) {
      const again = await sync(w, survey, body, { key: "key-twice-0001" });
      expect(again.status).toBe(200);
      expect(await json(again)).toEqual(answered);
    }
    expect(await casesWith(w.db, survey, "S_TWICE")).toHaveLength(1);
    expect(await countsOf(w.db, Data)).toEqual({ answerRows: 1, preliminary: 0, audits: 1 });
    expect(await countsOf(w.db, Data, "case.close")).toMatchObject({ audits: 1 });
    // Without the key the same fill meets its own, now closed, case.
    const unkeyed = await sync(w, survey, body);
    expect(await errorType(unkeyed)).toBe("SYNC_SURVEY_ALREADY_CLOSED");
  });

  it("a repeated request still answers its case after the survey was unpublished; a new fill is refused", async () => {
    const w = world();
    const body = await payload(w.db, w.b.heart, "S_LATE", { Close: true });
    const first = await sync(w, w.b.heart, body, { key: "key-late-0001" });
    expect(first.status).toBe(200);
    expect((await w.call("approver", "PUT", `/surveys/${w.b.heart}/change-status?newStatusId=1`)).status).toBe(204);
    const again = await sync(w, w.b.heart, body, { key: "key-late-0001" });
    expect(again.status).toBe(200);
    expect(await json(again)).toEqual(await json(first));
    const fresh = await sync(w, w.b.heart, { ...body, PatientId: "S_LATE_2" }, { key: "key-late-0002" });
    expect(await errorType(fresh)).toBe("SYNC_SURVEY_INVALID_STATUS");
  });

  it("refuses a key reused for another fill (422); each person has their own keys", async () => {
    const w = world();
    const first = await sync(w, survey, await fill("S_KEY_A"), { key: "key-reuse-0001" });
    expect(first.status).toBe(200);
    const reused = await sync(w, survey, await fill("S_KEY_B"), { key: "key-reuse-0001" });
    expect(reused.status).toBe(422);
    expect(await errorType(reused)).toBe("SYNC_IDEMPOTENCY_KEY_REUSED");
    expect(await casesWith(w.db, survey, "S_KEY_B")).toEqual([]);
    const changed = await sync(w, survey, await fill("S_KEY_A", "anders"), { key: "key-reuse-0001" });
    expect(changed.status).toBe(422);
    const otherPerson = await sync(w, survey, await fill("S_KEY_B"), { key: "key-reuse-0001", who: "admin" });
    expect(otherPerson.status).toBe(200);
    expect(await casesWith(w.db, survey, "S_KEY_B")).toHaveLength(1);
    for (const bad of ["short", "key with spaces", "x".repeat(101)]) {
      expect((await sync(w, survey, await fill("S_KEY_C"), { key: bad })).status).toBe(400);
    }
  });

  it("concurrent copies of one request make one case with one set of answers", async () => {
    const w = world();
    const body = await fill("S_RACE", "gleichzeitig");
    const answers = await Promise.all(Array.from({ length: 6 }, () => sync(w, survey, body, { key: "key-race-0001" })));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const ids = new Set(await Promise.all(answers.map(async (r) => (await json<{ Data: number }>(r)).Data)));
    expect(ids.size).toBe(1);
    const [caseId] = [...ids];
    expect(await casesWith(w.db, survey, "S_RACE")).toHaveLength(1);
    expect(await countsOf(w.db, caseId)).toEqual({ answerRows: 1, preliminary: 0, audits: 1 });

    // Different fills of one patient id at once: one wins, the others clash.
    const rivals = await Promise.all(
      ["a", "b", "c", "d"].map(async (t) => sync(w, survey, await fill("S_RIVAL", t), { key: `key-rival-${t}000` })),
    );
    const statuses = rivals.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409]);
    for (const r of rivals.filter((r) => r.status === 409))
      expect(await errorType(r)).toBe("SYNC_SURVEY_PATIENTID_CLASH");
    expect(await casesWith(w.db, survey, "S_RIVAL")).toHaveLength(1);
  });

  it("checks who calls: 401, 403 without the tool's role or right to take part, 404 outside the survey's teams", async () => {
    const w = world();
    expect((await sync(w, survey, await fill("S_AUTH"), { who: "nobody" })).status).toBe(401);
    expect((await sync(w, survey, await fill("S_AUTH"), { who: "outsider" })).status).toBe(403);
    const hidden = await sync(w, w.b.postop, await payload(w.db, w.b.postop, "S_AUTH"), { who: "user" });
    expect(hidden.status).toBe(404);
    expect(await errorType(hidden)).toBe("SURVEY_NOT_FOUND");
    const seen = await sync(w, w.b.heart, await payload(w.db, w.b.heart, "S_AUTH"), { who: "editor" });
    expect(seen.status).toBe(403);
    expect(await casesWith(w.db, w.b.heart, "S_AUTH")).toEqual([]);
    expect((await sync(w, survey, { ...(await fill("S-AUTH")) })).status).toBe(400);
    expect((await sync(w, survey, { PatientId: "S_AUTH" })).status).toBe(400);
  });

  it("accepts the session cookie from the app's own pages only", async () => {
    const w = world();
    const token = await w.api.token("user");
    const storage = w.api.ctx.sessions.forRequest(new Request("http://localhost:3000/"));
    const session = await storage.getSession();
    session.set("identity", await w.api.ctx.verifyToken(token));
    session.set("surveyUserDataId", 1);
    session.set("accessToken", token);
    session.set("accessTokenExpiresAt", Date.now() + 60_000);
    const cookie = (await storage.commitSession(session)).split(";")[0];
    const post = async (patientId: string, origin: string) =>
      w.api.call("POST", `/survey-offline-sync/${survey}`, {
        body: await fill(patientId),
        headers: { cookie, origin, "Idempotency-Key": `key-cookie-${patientId}` },
      });
    expect((await post("S_CROSS", "https://evil.example")).status).toBe(403);
    expect(await casesWith(w.db, survey, "S_CROSS")).toEqual([]);
    expect((await post("S_SAME", "http://localhost:3000")).status).toBe(200);
    expect(await casesWith(w.db, survey, "S_SAME")).toHaveLength(1);
  });

  it("is described in the OpenAPI document with its Idempotency-Key header", async () => {
    const doc = await json<{ paths: Record<string, Record<string, { parameters: { name: string; in: string }[] }>> }>(
      await world().call("nobody", "GET", "/openapi.json"),
    );
    const op = doc.paths["/survey-offline-sync/{surveyId}"].post;
    expect(op.parameters.map((p) => [p.name, p.in])).toEqual([
      ["surveyId", "path"],
      ["Idempotency-Key", "header"],
    ]);
  });
});
