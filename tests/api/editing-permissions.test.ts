import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { startApi, type ApiHarness } from "../support/api";
import { dialects } from "../support/databases";
import { teamId } from "../support/surveys";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

type Call = [method: string, path: string, body?: unknown];

/** The permission matrix of the editing endpoints: who may change a survey's content, and when. */
describe.each(dialects)("editing permissions on %s", (kind) => {
  let api: ApiHarness;

  const call = (method: string, path: string, body?: unknown, who: string | null = "editor") =>
    api.json(method, path, body, who);
  const snapshot = async (id: number) => {
    const survey = await api.testDb.db
      .selectFrom("surveys")
      .select("hash")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    const audits = await api.testDb.db.selectFrom("audit_log").select("id").where("survey_id", "=", id).execute();
    return { hash: survey.hash, audits: audits.length };
  };

  /** A Draft survey with one of everything, and every editing call on it. */
  async function surveyWithContent(who = "editor"): Promise<{ id: number; calls: Call[] }> {
    const id = (await call("POST", "/surveys", { Title: "Rechte" }, who)).body.Id as number;
    const category = (await call("POST", "/categories", { SurveyId: id, Title: "K" }, who)).body.Id as number;
    const question = (
      await call("POST", "/questions", { SurveyId: id, CategoryId: category, Title: "F", Type: "SingleSelection" }, who)
    ).body.Id as number;
    const option = (await call("POST", "/answer-options", { SurveyId: id, QuestionId: question, Text: "Ja" }, who)).body
      .Id as number;
    const attribute = (
      await call("POST", "/patient-attributes/", { SurveyId: id, Title: "P", AnswerOptions: [{ Text: "a" }] }, who)
    ).body;
    const entry = attribute.AnswerOptions[0].Id as number;
    const move = `newPosition=0&surveyId=${id}`;
    return {
      id,
      calls: [
        ["POST", "/categories", { SurveyId: id, Title: "x" }],
        ["PUT", `/categories/${category}`, { Title: "x" }],
        ["POST", `/categories/${category}/reorder?${move}`],
        ["POST", "/questions", { SurveyId: id, CategoryId: category, Title: "x", Type: "FreeText" }],
        ["PUT", `/questions/${question}`, { Title: "x" }],
        ["POST", `/questions/reorder/${question}?${move}`],
        ["POST", "/answer-options", { SurveyId: id, QuestionId: question, Text: "x" }],
        ["PUT", `/answer-options/${option}`, { Text: "y" }],
        ["POST", `/answer-options/${option}/reorder?${move}`],
        ["POST", `/answer-options/${option}/sub-question`, { SurveyId: id, Title: "x", Type: "FreeText" }],
        ["POST", "/patient-attributes/", { SurveyId: id, Title: "x", AnswerOptions: [{ Text: "a" }] }],
        ["POST", "/patient-attributes", { SurveyId: id, Title: "x", AnswerOptions: [{ Text: "a" }] }],
        ["PUT", `/patient-attributes/${attribute.Id}`, { Title: "x" }],
        ["POST", `/patient-attributes/reorder/${attribute.Id}?${move}`],
        ["POST", `/patient-attributes/answer-options/reorder/${entry}?${move}`],
        ["DELETE", `/answer-options/${option}?surveyId=${id}`],
        ["DELETE", `/questions/${question}?surveyId=${id}`],
        ["DELETE", `/categories?categoryId=${category}&surveyId=${id}`],
        ["DELETE", `/patient-attributes/${attribute.Id}?surveyId=${id}`],
      ],
    };
  }

  async function expectEvery(calls: Call[], who: string | null, status: number, type?: string) {
    for (const [method, path, body] of calls) {
      const res = await call(method, path, body, who);
      expect(res.status, `${who} ${method} ${path}`).toBe(status);
      if (type) expect(res.body, `${who} ${method} ${path}`).toEqual({ Type: type, Error: expect.any(String) });
    }
  }

  beforeAll(async () => {
    api = await startApi(kind, { idp });
  });
  afterAll(async () => {
    await api.close();
  });

  it("approvers are refused (403), users do not see a Draft (404), outsiders and anonymous callers are refused", async () => {
    const { id, calls } = await surveyWithContent();
    const before = await snapshot(id);
    await expectEvery(calls, "approver", 403, "FORBIDDEN");
    await expectEvery(calls, "user", 404, "SURVEY_NOT_FOUND");
    await expectEvery(calls, "outsider", 403);
    await expectEvery(calls, null, 401, "UNAUTHORIZED");
    expect(await snapshot(id)).toEqual(before);
  });

  it("every call succeeds for an editor, each with an audit row and a new Hash", async () => {
    const { id, calls } = await surveyWithContent();
    for (const [method, path, body] of calls) {
      const before = await snapshot(id);
      const res = await call(method, path, body);
      expect([200, 201, 204], `${method} ${path}: ${JSON.stringify(res.body)}`).toContain(res.status);
      const after = await snapshot(id);
      // A reorder to where the item already is changes nothing.
      if (path.includes("reorder")) continue;
      expect(after.hash, `${method} ${path}`).not.toBe(before.hash);
      expect(after.audits, `${method} ${path}`).toBe(before.audits + 1);
    }
  });

  it("only editors of the teams named in EditorTeamPermissions may change the survey", async () => {
    const { id, calls } = await surveyWithContent("admin");
    const station = await teamId(api.testDb.db, "Station 3A");
    expect((await call("PUT", `/surveys/${id}`, { EditorTeamPermissions: [station] }, "admin")).status).toBe(200);
    const before = await snapshot(id);
    await expectEvery(calls, "editor", 404, "SURVEY_NOT_FOUND");
    expect(await snapshot(id)).toEqual(before);
    expect((await call("PUT", calls[1][1], { Title: "Admin" }, "admin")).status).toBe(200);
  });

  it("a published survey is read-only: SURVEY_INVALID_STATUS for every call", async () => {
    const { id, calls } = await surveyWithContent();
    expect((await call("POST", `/surveys/${id}/approve`, undefined, "approver")).status).toBe(204);
    const before = await snapshot(id);
    await expectEvery(calls, "editor", 409, "SURVEY_INVALID_STATUS");
    expect(await snapshot(id)).toEqual(before);
  });
});
