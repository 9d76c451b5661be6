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

describe.each(dialects)("question tree editing on %s", (kind) => {
  let api: ApiHarness;
  let surveyId: number;
  let categoryId: number;

  const call = (method: string, path: string, body?: unknown, who: string | null = "editor") =>
    api.json(method, path, body, who);
  const survey = async (id = surveyId) => (await call("GET", `/surveys/${id}`)).body;
  const audits = async (id = surveyId) => auditRows(api.testDb.db, id);
  async function setup() {
    const id = (await call("POST", "/surveys", { Title: "Fragen" })).body.Id as number;
    const category = (await call("POST", "/categories", { SurveyId: id, Title: "Allgemein" })).body.Id as number;
    return { id, category };
  }
  async function addQuestion(body: Record<string, unknown>, id = surveyId, category = categoryId) {
    const res = await call("POST", "/questions", { SurveyId: id, CategoryId: category, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }
  async function addOption(id: number, questionId: number, body: Record<string, unknown> = {}) {
    const res = await call("POST", "/answer-options", { SurveyId: id, QuestionId: questionId, Text: "A", ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { Id: number };
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
    ({ id: surveyId, category: categoryId } = await setup());
  });
  afterAll(async () => {
    await api.close();
  });

  it("PUT of an image question replaces its markers: kept ones by Id, new ones added, missing ones deleted", async () => {
    const q = await addQuestion({
      Title: "Körper",
      Type: "Image",
      ImageSrc: PNG,
      AnswerOptions: [{ Text: "Kopf" }, { Text: "Arm" }, { Text: "Bein" }],
    });
    const [kopf, arm, bein] = q.AnswerOptions;
    const same = await call("PUT", `/questions/${q.Id}`, {
      AnswerOptions: q.AnswerOptions.map((o: { Id: number; Title: string; X: number; Y: number }) => ({
        Id: o.Id,
        Title: o.Title,
        X: o.X,
        Y: o.Y,
      })),
    });
    expect(same.body).toEqual(q);
    const res = await call("PUT", `/questions/${q.Id}`, {
      AnswerOptions: [{ Id: bein.Id, Text: "Bein", X: 0.5, Y: 0.75 }, { Text: "Fuß" }, { Id: kopf.Id, Text: "Kopf" }],
    });
    expect(res.status).toBe(200);
    expect(
      res.body.AnswerOptions.map((o: { Id: number; Title: string; X: number; Sort: number }) => [o.Title, o.X, o.Sort]),
    ).toEqual([
      ["Bein", 0.5, 0],
      ["Fuß", 0.05, 1],
      ["Kopf", 0.05, 2],
    ]);
    expect(res.body.AnswerOptions.some((o: { Id: number }) => o.Id === arm.Id)).toBe(false);
    expect((await call("PUT", `/questions/${q.Id}`, { AnswerOptions: [] })).status).toBe(400);
    expect((await call("PUT", `/questions/${q.Id}`, { ImageSrc: null })).status).toBe(400);
    expect((await call("PUT", `/questions/${q.Id}`, { AnswerOptions: [{ Id: 999999, Text: "x" }] })).status).toBe(400);

    await answer(surveyId, q.Id, kopf.Id);
    const refused = await call("PUT", `/questions/${q.Id}`, { AnswerOptions: [{ Id: bein.Id, Text: "Bein" }] });
    expect(refused.status).toBe(409);
    expect(refused.body.Type).toBe("SURVEY_EXISTING_QUESTION_RESPONSE");
    expect(
      (await survey()).Categories[0].Questions.find((x: { Id: number }) => x.Id === q.Id).AnswerOptions,
    ).toHaveLength(3);
  });

  it("moves a question to another category of the survey with its sub-questions", async () => {
    const { id, category } = await setup();
    const target = (await call("POST", "/categories", { SurveyId: id, Title: "Ziel" })).body.Id as number;
    const a = await addQuestion({ Title: "A", Type: "SingleSelection" }, id, category);
    const b = await addQuestion({ Title: "B", Type: "FreeText" }, id, category);
    const option = (await call("POST", "/answer-options", { SurveyId: id, QuestionId: a.Id, Text: "Ja" })).body;
    const sub = (
      await call("POST", `/answer-options/${option.Id}/sub-question`, {
        SurveyId: id,
        Title: "Seit wann?",
        Type: "DateTime",
      })
    ).body;
    const moved = await call("PUT", `/questions/${a.Id}`, { CategoryId: target });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ CategoryId: target, Sort: 0 });
    const s = await survey(id);
    expect(s.Categories[0].Questions.map((q: { Id: number; Sort: number }) => [q.Id, q.Sort])).toEqual([[b.Id, 0]]);
    expect(s.Categories[1].Questions[0].AnswerOptions[0].SubQuestions[0]).toMatchObject({
      Id: sub.Id,
      CategoryId: target,
    });
    expect((await call("PUT", `/questions/${sub.Id}`, { CategoryId: category })).status).toBe(400);
    const other = await setup();
    expect((await call("PUT", `/questions/${b.Id}`, { CategoryId: other.category })).status).toBe(404);
  });

  it("dependence rules round-trip: SHOW by default, HIDE kept, an empty list removes them", async () => {
    const { id, category } = await setup();
    const attribute = (
      await call("POST", "/patient-attributes/", {
        SurveyId: id,
        Title: "Geschlecht",
        AnswerOptions: [{ Text: "weiblich" }, { Text: "männlich" }],
      })
    ).body;
    const [w, m] = attribute.AnswerOptions.map((o: { Id: number }) => o.Id);
    const q = await addQuestion(
      { Title: "Schwanger?", Type: "SingleSelection", Dependence: { PreliminaryAnswerOptions: [w] } },
      id,
      category,
    );
    expect(q.Dependence).toEqual({ Type: "SHOW", PreliminaryAnswerOptions: [w] });

    const hide = await call("PUT", `/questions/${q.Id}`, {
      Dependence: { Type: "HIDE", PreliminaryAnswerOptions: [m, m] },
    });
    expect(hide.body.Dependence).toEqual({ Type: "HIDE", PreliminaryAnswerOptions: [m] });
    const listed = (await survey(id)).Categories[0].Questions[0];
    expect(listed.Dependence).toEqual({ Type: "HIDE", PreliminaryAnswerOptions: [m] });

    const count = await audits(id);
    await call("PUT", `/questions/${q.Id}`, { Dependence: { Type: "HIDE", PreliminaryAnswerOptions: [m] } });
    expect(await audits(id)).toBe(count);

    const cleared = await call("PUT", `/questions/${q.Id}`, {
      Dependence: { Type: "HIDE", PreliminaryAnswerOptions: [] },
    });
    expect(cleared.body.Dependence).toBeNull();
    const links = await api.testDb.db
      .selectFrom("question_dependence_options")
      .selectAll()
      .where("question_id", "=", q.Id)
      .execute();
    expect(links).toEqual([]);

    const foreign = (
      await call("POST", "/patient-attributes/", {
        SurveyId: surveyId,
        Title: "Alter",
        AnswerOptions: [{ Text: "< 50" }],
      })
    ).body.AnswerOptions[0].Id;
    const refused = await call("PUT", `/questions/${q.Id}`, { Dependence: { PreliminaryAnswerOptions: [foreign] } });
    expect(refused.status).toBe(400);
    expect(refused.body.Type).toBe("VALIDATION_ERROR");
  });

  it("sub-questions nest under answers; two levels deep they appear in GET /surveys/:id", async () => {
    const { id, category } = await setup();
    const question = await addQuestion({ Title: "Medikamente?", Type: "SingleSelection" }, id, category);
    const ja = await addOption(id, question.Id, { Text: "Ja" });
    const level1 = await addSub(id, ja.Id, "Welche Medikamente?");
    expect(level1).toMatchObject({ ParentAnswerOptionId: ja.Id, CategoryId: category });
    const betablocker = await addOption(id, level1.Id, { Text: "Betablocker" });
    const level2 = await addSub(id, betablocker.Id, "Seit wann?", "DateTime");
    const tree = (await survey(id)).Categories[0].Questions[0];
    const sub = tree.AnswerOptions[0].SubQuestions[0];
    expect(sub).toMatchObject({ Id: level1.Id, Title: "Welche Medikamente?" });
    expect(sub.AnswerOptions[0].SubQuestions[0]).toMatchObject({
      Id: level2.Id,
      Title: "Seit wann?",
      Type: "DateTime",
      ParentAnswerOptionId: betablocker.Id,
    });

    const withCategory = await call("POST", `/answer-options/${ja.Id}/sub-question`, {
      SurveyId: id,
      CategoryId: category,
      Title: "x",
      Type: "FreeText",
    });
    expect(withCategory.status).toBe(400);
    const other = await setup();
    expect(
      (
        await call("POST", `/answer-options/${ja.Id}/sub-question`, {
          SurveyId: other.id,
          Title: "x",
          Type: "FreeText",
        })
      ).status,
    ).toBe(404);
  });

  it("sub-questions nest up to 20 levels below a question; deeper ones are refused", async () => {
    const { id, category } = await setup();
    let question = await addQuestion({ Title: "Ebene 0", Type: "SingleSelection" }, id, category);
    let option = await addOption(id, question.Id);
    for (let level = 1; level <= 20; level++) {
      question = await addSub(id, option.Id, `Ebene ${level}`);
      option = await addOption(id, question.Id);
    }
    const deeper = await call("POST", `/answer-options/${option.Id}/sub-question`, {
      SurveyId: id,
      Title: "Ebene 21",
      Type: "FreeText",
    });
    expect(deeper.status).toBe(400);
    let node = (await survey(id)).Categories[0].Questions[0];
    for (let level = 1; level <= 20; level++) node = node.AnswerOptions[0].SubQuestions[0];
    expect(node).toMatchObject({ Id: question.Id, Title: "Ebene 20" });
  });
});
