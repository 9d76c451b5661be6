import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { startApi, type ApiHarness } from "../support/api";
import { dialects } from "../support/databases";
import { auditRows, recordResponse } from "../support/surveys";

const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

interface Option {
  Id: number;
  Text: string;
  Sort: number;
  Weight: number | null;
  WeightingState: number;
  X: number | null;
  Y: number | null;
  SubQuestions: { Id: number; Title: string; AnswerOptions: Option[] }[];
}

describe.each(dialects)("answer options API on %s", (kind) => {
  let api: ApiHarness;

  const call = (method: string, path: string, body?: unknown, who: string | null = "editor") =>
    api.json(method, path, body, who);
  const survey = async (id: number) => (await call("GET", `/surveys/${id}`)).body;
  const audits = async (id: number) => auditRows(api.testDb.db, id);
  /** A Draft survey with one question of the given type. */
  async function setup(type = "SingleSelection", extra: Record<string, unknown> = {}) {
    const id = (await call("POST", "/surveys", { Title: "Antworten" })).body.Id as number;
    const category = (await call("POST", "/categories", { SurveyId: id, Title: "Allgemein" })).body.Id as number;
    const question = await call("POST", "/questions", {
      SurveyId: id,
      CategoryId: category,
      Title: "Frage",
      Type: type,
      ...extra,
    });
    expect(question.status).toBe(201);
    return { id, category, question: question.body as { Id: number; AnswerOptions: Option[] } };
  }
  let answers = 0;
  async function addOption(id: number, questionId: number, body: Record<string, unknown> = {}) {
    // Answers of one question read differently (a second "Antwort" is refused).
    const res = await call("POST", "/answer-options", {
      SurveyId: id,
      QuestionId: questionId,
      Text: `Antwort ${++answers}`,
      ...body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Option;
  }
  async function addSub(id: number, optionId: number, Title: string, Type = "SingleSelection") {
    const res = await call("POST", `/answer-options/${optionId}/sub-question`, { SurveyId: id, Title, Type });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { Id: number; ParentAnswerOptionId: number; CategoryId: number };
  }
  /** Records an answer straight into the database, as a fill would. */
  const answer = (id: number, questionId: number, answerOptionId: number | null = null) =>
    recordResponse(api.testDb.db, id, questionId, answerOptionId);

  beforeAll(async () => {
    api = await startApi(kind, { idp });
  });
  afterAll(async () => {
    await api.close();
  });

  it("refuses a second answer of one question with the same text, also changed into it, and keeps the first", async () => {
    const { id, question } = await setup();
    const first = await addOption(id, question.Id, { Text: "gut" });
    const other = await addOption(id, question.Id, { Text: "schlecht" });
    for (const Text of ["gut", " Gut ", "GUT"]) {
      const again = await call("POST", "/answer-options", { SurveyId: id, QuestionId: question.Id, Text });
      expect(again.status, Text).toBe(409);
      expect(again.body).toEqual({ Type: "SURVEY_ANSWER_OPTION_EXISTS", Error: expect.stringMatching(/"gut"/i) });
    }
    const renamed = await call("PUT", `/answer-options/${other.Id}`, { SurveyId: id, Text: "Gut" });
    expect(renamed.status).toBe(409);
    expect(renamed.body.Type).toBe("SURVEY_ANSWER_OPTION_EXISTS");
    // Its own text again (another case) is no clash.
    expect((await call("PUT", `/answer-options/${first.Id}`, { SurveyId: id, Text: "Gut" })).status).toBe(200);
    const texts = (await survey(id)).Categories[0].Questions[0].AnswerOptions.map((o: Option) => o.Text);
    expect(texts).toEqual(["Gut", "schlecht"]);
    // The same text in another question is fine.
    const second = await call("POST", "/questions", {
      SurveyId: id,
      CategoryId: (await survey(id)).Categories[0].Id,
      Title: "Andere Frage",
      Type: "SingleSelection",
    });
    await addOption(id, second.body.Id, { Text: "gut" });
  });

  it("POST /answer-options adds an answer in the wire shape, audits it and changes the Hash", async () => {
    const { id, question } = await setup();
    const hash = (await survey(id)).Hash;
    const count = await audits(id);
    const option = await addOption(id, question.Id, { Text: " Ja ", Value: "1", IsExitAnswer: true });
    expect(option).toEqual({
      Id: expect.any(Number),
      QuestionId: question.Id,
      SurveyId: id,
      Text: "Ja",
      Value: "1",
      IsExitAnswer: true,
      Weight: null,
      WeightingState: 2,
      Sort: 0,
      X: null,
      Y: null,
      Score: null,
      System: null,
      SubQuestions: [],
    });
    expect((await addOption(id, question.Id, { Text: "Nein" })).Sort).toBe(1);
    expect((await survey(id)).Hash).not.toBe(hash);
    expect(await audits(id)).toBe(count + 2);
  });

  it("weights only a correct answer: correct without a weight gets 1, other states none", async () => {
    const { id, question } = await setup("SingleSelection", { IsTestQuestion: true });
    expect((await addOption(id, question.Id, { WeightingState: 1 })).Weight).toBe(1);
    expect((await addOption(id, question.Id, { WeightingState: 1, Weight: 3 })).Weight).toBe(3);
    const wrong = await addOption(id, question.Id, { WeightingState: 0 });
    expect(wrong).toMatchObject({ WeightingState: 0, Weight: null });
    for (const body of [
      { WeightingState: 2, Weight: 2 },
      { Weight: 2 },
      { WeightingState: 1, Weight: 4 },
      { WeightingState: 3 },
      { Text: "" },
      { X: 0.5 },
    ]) {
      const res = await call("POST", "/answer-options", { SurveyId: id, QuestionId: question.Id, Text: "a", ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.Type).toBe("VALIDATION_ERROR");
    }
    const toCorrect = await call("PUT", `/answer-options/${wrong.Id}`, { WeightingState: 1 });
    expect(toCorrect.body).toMatchObject({ WeightingState: 1, Weight: 1 });
    expect((await call("PUT", `/answer-options/${wrong.Id}`, { Weight: 2 })).body.Weight).toBe(2);
    expect((await call("PUT", `/answer-options/${wrong.Id}`, { WeightingState: 2 })).body).toMatchObject({
      WeightingState: 2,
      Weight: null,
    });
    const refused = await call("PUT", `/answer-options/${wrong.Id}`, { Weight: 2 });
    expect(refused.status).toBe(400);
    expect(refused.body.Type).toBe("VALIDATION_ERROR");
  });

  it("PUT /answer-options/:id writes only what changed; an unchanged answer keeps the Hash", async () => {
    const { id, question } = await setup();
    const option = await addOption(id, question.Id, { Text: "Selten" });
    const hash = (await survey(id)).Hash;
    const count = await audits(id);
    const same = await call("PUT", `/answer-options/${option.Id}`, {
      Text: "Selten ",
      WeightingState: 2,
      SurveyId: id,
    });
    expect(same.body).toEqual(option);
    expect((await survey(id)).Hash).toBe(hash);
    expect(await audits(id)).toBe(count);
    const changed = await call("PUT", `/answer-options/${option.Id}`, { Text: "Manchmal", IsExitAnswer: true });
    expect(changed.body).toMatchObject({ Text: "Manchmal", IsExitAnswer: true });
    expect((await survey(id)).Hash).not.toBe(hash);
    expect(await audits(id)).toBe(count + 1);
    expect((await call("PUT", `/answer-options/${option.Id}`, { Text: " " })).status).toBe(400);
    expect((await call("PUT", `/answer-options/999999`, { Text: "x" })).status).toBe(404);
    const other = await setup();
    expect((await call("PUT", `/answer-options/${option.Id}`, { Text: "x", SurveyId: other.id })).status).toBe(404);
  });

  it("image answers have positions: default 0.05, 3 decimals, within 0..1", async () => {
    const { id, question } = await setup("Image", { ImageSrc: PNG, AnswerOptions: [{ Text: "Kopf" }] });
    const marker = await addOption(id, question.Id, { Text: "Knie" });
    expect([marker.X, marker.Y]).toEqual([0.05, 0.05]);
    const moved = await call("PUT", `/answer-options/${marker.Id}`, { X: 0.33333, Y: 1 });
    expect([moved.body.X, moved.body.Y]).toEqual([0.333, 1]);
    expect((await call("PUT", `/answer-options/${marker.Id}`, { X: -0.1 })).status).toBe(400);
    const free = await setup("FreeText");
    const res = await call("POST", "/answer-options", { SurveyId: free.id, QuestionId: free.question.Id, Text: "a" });
    expect(res.status).toBe(400);
  });

  it("DELETE /answer-options/:id removes it with its sub-questions and closes the gap", async () => {
    const { id, question } = await setup();
    const [a, b, c] = [
      await addOption(id, question.Id, { Text: "A" }),
      await addOption(id, question.Id, { Text: "B" }),
      await addOption(id, question.Id, { Text: "C" }),
    ];
    const sub = await addSub(id, b.Id, "Warum?");
    expect((await call("DELETE", `/answer-options/${b.Id}?surveyId=${id + 1000}`)).status).toBe(404);
    expect((await call("DELETE", `/answer-options/${b.Id}?surveyId=${id}`)).status).toBe(204);
    const options = (await survey(id)).Categories[0].Questions[0].AnswerOptions as Option[];
    expect(options.map((o) => [o.Id, o.Sort])).toEqual([
      [a.Id, 0],
      [c.Id, 1],
    ]);
    expect(await api.testDb.db.selectFrom("questions").select("id").where("id", "=", sub.Id).execute()).toEqual([]);

    const image = await setup("Image", { ImageSrc: PNG, AnswerOptions: [{ Text: "Kopf" }] });
    const last = await call("DELETE", `/answer-options/${image.question.AnswerOptions[0].Id}?surveyId=${image.id}`);
    expect(last.status).toBe(400);
  });

  it("refuses to delete an answer chosen in a response, or whose sub-question was answered", async () => {
    const { id, question } = await setup();
    const chosen = await addOption(id, question.Id, { Text: "Gewählt" });
    const parent = await addOption(id, question.Id, { Text: "Mit Unterfrage" });
    const sub = await addSub(id, parent.Id, "Details", "FreeText");
    await answer(id, question.Id, chosen.Id);
    await answer(id, sub.Id, null);
    const hash = (await survey(id)).Hash;
    for (const option of [chosen, parent]) {
      const res = await call("DELETE", `/answer-options/${option.Id}?surveyId=${id}`);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ Type: "SURVEY_EXISTING_QUESTION_RESPONSE", Error: expect.any(String) });
    }
    const after = await survey(id);
    expect(after.Hash).toBe(hash);
    expect(after.Categories[0].Questions[0].AnswerOptions).toHaveLength(2);
    expect(after.Categories[0].Questions[0].AnswerOptions[1].SubQuestions).toHaveLength(1);
  });

  it("reorder moves an answer among its question's answers, densely", async () => {
    const { id, question } = await setup();
    const [a, b, c] = [
      await addOption(id, question.Id, { Text: "A" }),
      await addOption(id, question.Id, { Text: "B" }),
      await addOption(id, question.Id, { Text: "C" }),
    ];
    const order = async () =>
      ((await survey(id)).Categories[0].Questions[0].AnswerOptions as Option[]).map((o) => `${o.Sort}:${o.Text}`);
    expect((await call("POST", `/answer-options/${a.Id}/reorder?newPosition=2&surveyId=${id}`)).status).toBe(204);
    expect(await order()).toEqual(["0:B", "1:C", "2:A"]);
    const count = await audits(id);
    expect((await call("POST", `/answer-options/${c.Id}/reorder?newPosition=1&surveyId=${id}`)).status).toBe(204);
    expect(await audits(id)).toBe(count);
    expect((await call("POST", `/answer-options/${b.Id}/reorder?newPosition=3&surveyId=${id}`)).status).toBe(400);
    expect((await call("POST", `/answer-options/${b.Id}/reorder?newPosition=0`)).status).toBe(400);
    expect(await order()).toEqual(["0:B", "1:C", "2:A"]);
  });
});
