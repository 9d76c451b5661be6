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

describe.each(dialects)("questions API on %s", (kind) => {
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

  it("POST /questions answers with the question in the wire shape, audits and changes the Hash", async () => {
    const hash = (await survey()).Hash;
    const count = await audits();
    const q = await addQuestion({ Title: " Gewicht ", Type: "Numerical", Unit: "kg", AllowFileAttachments: true });
    expect(q).toEqual({
      Id: expect.any(Number),
      CategoryId: categoryId,
      SurveyId: surveyId,
      ParentAnswerOptionId: null,
      Title: "Gewicht",
      Type: "Numerical",
      Sort: 0,
      AllowFileAttachments: true,
      AllowMultipleAnswers: false,
      Unit: "kg",
      IsTestQuestion: false,
      ImageSrc: null,
      Dependence: null,
      Hint: null,
      Codes: [],
      AnswerOptions: [],
    });
    expect((await addQuestion({ Title: "Raucher?", Type: "SingleSelection", IsTestQuestion: true })).Sort).toBe(1);
    expect((await survey()).Hash).not.toBe(hash);
    expect(await audits()).toBe(count + 2);
  });

  it("creates an image question with its markers: positions default to 0.05 and keep 3 decimals", async () => {
    const q = await addQuestion({
      Title: "Wo schmerzt es?",
      Type: "Image",
      ImageSrc: PNG,
      AllowMultipleAnswers: true,
      AnswerOptions: [{ Text: "Knie" }, { Text: "Schulter", X: 0.12345, Y: 0.9876 }],
    });
    expect(q.ImageSrc).toBe(PNG);
    expect(
      q.AnswerOptions.map((o: { Title: string; X: number; Y: number; Sort: number }) => [o.Title, o.X, o.Y, o.Sort]),
    ).toEqual([
      ["Knie", 0.05, 0.05, 0],
      ["Schulter", 0.123, 0.988, 1],
    ]);
    const row = await api.testDb.db
      .selectFrom("audit_log")
      .select("after")
      .where("action", "=", "question.create")
      .where("entity_id", "=", String(q.Id))
      .executeTakeFirstOrThrow();
    expect(row.after).not.toContain("base64");
  });

  it("image answer options take and return Title; Text is still taken", async () => {
    type Marker = { Id: number; Title?: string; Text?: string };
    const q = await addQuestion({
      Title: "Wo sitzt die Wunde?",
      Type: "Image",
      ImageSrc: PNG,
      AnswerOptions: [{ Title: "Ferse", X: 0.4, Y: 0.9 }, { Text: "Steißbein" }],
    });
    const titles = (list: Marker[]) => list.map((o) => [o.Title, "Text" in o]);
    expect(titles(q.AnswerOptions)).toEqual([
      ["Ferse", false],
      ["Steißbein", false],
    ]);
    const read = async () =>
      (await survey()).Categories[0].Questions.find((x: { Id: number }) => x.Id === q.Id).AnswerOptions as Marker[];
    expect(titles(await read())).toEqual(titles(q.AnswerOptions));
    // Choice answers keep their Text.
    const choice = await addQuestion({ Title: "Verband?", Type: "SingleSelection" });
    const yes = await call("POST", "/answer-options", { SurveyId: surveyId, QuestionId: choice.Id, Text: "Ja" });
    expect(yes.body).toMatchObject({ Text: "Ja" });
    expect(yes.body).not.toHaveProperty("Title");

    const [heel, tailbone] = q.AnswerOptions as Marker[];
    const edited = await call("PUT", `/questions/${q.Id}`, {
      AnswerOptions: [
        { Id: heel.Id, Title: "linke Ferse" },
        { Id: tailbone.Id, Text: "Kreuzbein" },
        { Title: "Hüfte" },
      ],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.AnswerOptions.map((o: Marker) => o.Title)).toEqual(["linke Ferse", "Kreuzbein", "Hüfte"]);
    const added = await call("POST", "/answer-options", { SurveyId: surveyId, QuestionId: q.Id, Title: "Knöchel" });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ Title: "Knöchel", X: 0.05, Y: 0.05 });
    const renamed = await call("PUT", `/answer-options/${added.body.Id}`, { Title: "rechter Knöchel" });
    expect(renamed.body.Title).toBe("rechter Knöchel");
    expect((await call("PUT", `/answer-options/${added.body.Id}`, { Text: "Sprunggelenk" })).body.Title).toBe(
      "Sprunggelenk",
    );

    for (const [path, body] of [
      [
        "/questions",
        { CategoryId: categoryId, Title: "x", Type: "Image", ImageSrc: PNG, AnswerOptions: [{ Title: " " }] },
      ],
      ["/questions", { CategoryId: categoryId, Title: "x", Type: "Image", ImageSrc: PNG, AnswerOptions: [{ X: 0.5 }] }],
      [
        "/questions",
        {
          CategoryId: categoryId,
          Title: "x",
          Type: "Image",
          ImageSrc: PNG,
          AnswerOptions: [{ Title: "a", Text: "b" }],
        },
      ],
      ["/answer-options", { QuestionId: q.Id }],
      ["/answer-options", { QuestionId: choice.Id, Title: "Nein" }],
    ] as const) {
      const res = await call("POST", path, { SurveyId: surveyId, ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.Type).toBe("VALIDATION_ERROR");
    }
    const doc = (await call("GET", "/openapi.json", undefined, null)).body;
    expect(doc.components.schemas.ImageAnswerOption.required).toContain("Title");
    expect(doc.components.schemas.ImageAnswerOption.properties).not.toHaveProperty("Text");
    const input = doc.paths["/questions"].post.requestBody.content["application/json"].schema;
    expect(input.properties.AnswerOptions.items.properties).toHaveProperty("Title");
    expect(input.properties.AnswerOptions.items.properties).toHaveProperty("Text");
  });

  it("refuses invalid questions with VALIDATION_ERROR", async () => {
    const bodies: Record<string, unknown>[] = [
      { Title: "  ", Type: "FreeText" },
      { Type: "FreeText" },
      { Title: "x", Type: "Essay" },
      { Title: "x".repeat(1001), Type: "FreeText" },
      { Title: "x", Type: "FreeText", Unit: "kg" },
      { Title: "x", Type: "Image", AnswerOptions: [{ Text: "a" }] },
      { Title: "x", Type: "Image", ImageSrc: PNG },
      { Title: "x", Type: "Image", ImageSrc: PNG, AnswerOptions: [] },
      { Title: "x", Type: "Image", ImageSrc: "data:image/svg+xml;base64,PHN2Zz4=", AnswerOptions: [{ Text: "a" }] },
      { Title: "x", Type: "Image", ImageSrc: "https://example.org/a.png", AnswerOptions: [{ Text: "a" }] },
      { Title: "x", Type: "Image", ImageSrc: PNG, AnswerOptions: [{ Text: " " }] },
      { Title: "x", Type: "Image", ImageSrc: PNG, AnswerOptions: [{ Text: "a", X: 1.5 }] },
      { Title: "x", Type: "FreeText", ImageSrc: PNG },
      { Title: "x", Type: "Numerical", AnswerOptions: [{ Text: "a" }] },
      { Title: "x", Type: "FreeText", Dependence: { Type: "MAYBE", PreliminaryAnswerOptions: [] } },
      { Title: "x", Type: "FreeText", Sort: 1 },
    ];
    for (const body of bodies) {
      const res = await call("POST", "/questions", { SurveyId: surveyId, CategoryId: categoryId, ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.Type).toBe("VALIDATION_ERROR");
    }
    const other = await setup();
    const foreign = await call("POST", "/questions", {
      SurveyId: surveyId,
      CategoryId: other.category,
      Title: "x",
      Type: "FreeText",
    });
    expect(foreign.status).toBe(404);
  });

  it("PUT /questions/:id changes the fields given; unchanged values write nothing; the type stays", async () => {
    const q = await addQuestion({ Title: "Blutdruck", Type: "Numerical", Unit: "mmHg" });
    const hash = (await survey()).Hash;
    const count = await audits();
    const same = await call("PUT", `/questions/${q.Id}`, { Title: "Blutdruck ", Unit: "mmHg", Type: "Numerical" });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(q);
    expect((await survey()).Hash).toBe(hash);
    expect(await audits()).toBe(count);

    const changed = await call("PUT", `/questions/${q.Id}`, {
      Title: "Systolischer Blutdruck",
      Unit: "",
      IsTestQuestion: true,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      Title: "Systolischer Blutdruck",
      Unit: null,
      IsTestQuestion: true,
      Type: "Numerical",
    });
    expect((await survey()).Hash).not.toBe(hash);
    expect(await audits()).toBe(count + 1);

    for (const body of [
      { Type: "FreeText" },
      { Title: "" },
      { ImageSrc: PNG },
      { AnswerOptions: [{ Text: "a" }] },
      { Id: 4 },
    ]) {
      const res = await call("PUT", `/questions/${q.Id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.Type).toBe("VALIDATION_ERROR");
    }
    const free = await addQuestion({ Title: "Bemerkung", Type: "FreeText" });
    const afterAdd = await audits();
    expect((await call("PUT", `/questions/${free.Id}`, { Unit: "kg" })).status).toBe(400);
    expect((await call("PUT", `/questions/999999`, { Title: "x" })).status).toBe(404);
    const other = await setup();
    expect((await call("PUT", `/questions/${q.Id}`, { Title: "x", SurveyId: other.id })).status).toBe(404);
    expect(await audits()).toBe(afterAdd);
  });

  it("DELETE /questions/:id removes it with its sub-questions and closes the gap", async () => {
    const { id, category } = await setup();
    const a = await addQuestion({ Title: "A", Type: "SingleSelection" }, id, category);
    const b = await addQuestion({ Title: "B", Type: "FreeText" }, id, category);
    const option = (await call("POST", "/answer-options", { SurveyId: id, QuestionId: a.Id, Text: "Ja" })).body;
    await call("POST", `/answer-options/${option.Id}/sub-question`, {
      SurveyId: id,
      Title: "Warum?",
      Type: "FreeText",
    });
    expect((await call("DELETE", `/questions/${a.Id}?surveyId=${surveyId}`)).status).toBe(404);
    const count = await audits(id);
    expect((await call("DELETE", `/questions/${a.Id}?surveyId=${id}`)).status).toBe(204);
    expect(await audits(id)).toBe(count + 1);
    const rows = await api.testDb.db
      .selectFrom("questions")
      .select(["id", "sort"])
      .where("survey_id", "=", id)
      .execute();
    expect(rows).toEqual([{ id: b.Id, sort: 0 }]);
    expect((await call("DELETE", `/questions/${b.Id}`)).status).toBe(400);
  });

  it("refuses to delete a question with answers logged, also those of its sub-questions", async () => {
    const { id, category } = await setup();
    const a = await addQuestion({ Title: "A", Type: "SingleSelection" }, id, category);
    const b = await addQuestion({ Title: "B", Type: "FreeText" }, id, category);
    const option = (await call("POST", "/answer-options", { SurveyId: id, QuestionId: a.Id, Text: "Ja" })).body;
    const sub = (
      await call("POST", `/answer-options/${option.Id}/sub-question`, {
        SurveyId: id,
        Title: "Warum?",
        Type: "FreeText",
      })
    ).body;
    await answer(id, b.Id);
    await answer(id, sub.Id);
    const hash = (await survey(id)).Hash;
    for (const qid of [b.Id, a.Id, sub.Id]) {
      const res = await call("DELETE", `/questions/${qid}?surveyId=${id}`);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ Type: "SURVEY_EXISTING_QUESTION_RESPONSE", Error: expect.any(String) });
    }
    const after = await survey(id);
    expect(after.Hash).toBe(hash);
    expect(after.Categories[0].Questions).toHaveLength(2);
    expect(after.Categories[0].Questions[0].AnswerOptions[0].SubQuestions).toHaveLength(1);
  });

  it("reorders among siblings: top-level questions of a category, sub-questions of an answer", async () => {
    const { id, category } = await setup();
    const [a, b, c] = [
      await addQuestion({ Title: "A", Type: "SingleSelection" }, id, category),
      await addQuestion({ Title: "B", Type: "FreeText" }, id, category),
      await addQuestion({ Title: "C", Type: "FreeText" }, id, category),
    ];
    const option = (await call("POST", "/answer-options", { SurveyId: id, QuestionId: a.Id, Text: "Ja" })).body;
    const subs = [];
    for (const t of ["S1", "S2"]) {
      subs.push(
        (await call("POST", `/answer-options/${option.Id}/sub-question`, { SurveyId: id, Title: t, Type: "FreeText" }))
          .body,
      );
    }
    const order = async () => {
      const qs = (await survey(id)).Categories[0].Questions;
      const top = qs.map((q: { Title: string; Sort: number }) => `${q.Sort}:${q.Title}`);
      const sub = qs
        .find((q: { Id: number }) => q.Id === a.Id)
        .AnswerOptions[0].SubQuestions.map((q: { Title: string; Sort: number }) => `${q.Sort}:${q.Title}`);
      return [...top, ...sub];
    };
    expect(await order()).toEqual(["0:A", "1:B", "2:C", "0:S1", "1:S2"]);
    expect((await call("POST", `/questions/reorder/${c.Id}?newPosition=0&surveyId=${id}`)).status).toBe(204);
    expect((await call("POST", `/questions/reorder/${subs[1].Id}?newPosition=0&surveyId=${id}`)).status).toBe(204);
    expect(await order()).toEqual(["0:C", "1:A", "2:B", "0:S2", "1:S1"]);
    expect((await call("POST", `/questions/reorder/${subs[1].Id}?newPosition=2&surveyId=${id}`)).status).toBe(400);
    expect((await call("POST", `/questions/reorder/${b.Id}?newPosition=0&surveyId=${surveyId}`)).status).toBe(404);
  });
  it("POST /questions takes a new choice question's first answers, in order, and refuses them for other kinds", async () => {
    const q = await addQuestion({
      Title: "Befinden",
      Type: "SingleSelection",
      AnswerOptions: [{ Text: "gut" }, { Text: "schlecht" }, { Text: "keine Angabe", IsExitAnswer: true }],
    });
    expect(
      q.AnswerOptions.map((o: { Text: string; IsExitAnswer: boolean; Sort: number }) => [
        o.Text,
        o.IsExitAnswer,
        o.Sort,
      ]),
    ).toEqual([
      ["gut", false, 0],
      ["schlecht", false, 1],
      ["keine Angabe", true, 2],
    ]);
    const stored = (await survey()).Categories[0].Questions.find((x: { Id: number }) => x.Id === q.Id);
    expect(stored.AnswerOptions).toHaveLength(3);
    const refused = await call("POST", "/questions", {
      SurveyId: surveyId,
      CategoryId: categoryId,
      Title: "Text",
      Type: "FreeText",
      AnswerOptions: [{ Text: "x" }],
    });
    expect(refused.status).toBe(400);
    const positioned = await call("POST", "/questions", {
      SurveyId: surveyId,
      CategoryId: categoryId,
      Title: "Mit Position",
      Type: "MultipleSelection",
      AnswerOptions: [{ Text: "x", X: 0.5, Y: 0.5 }],
    });
    expect(positioned.status).toBe(400);
  });

  it("POST /surveys/{id}/approve refuses a choice question without answers, and publishes once it has one", async () => {
    const { id, category } = await setup();
    const q = await addQuestion({ Title: "Ohne Antworten", Type: "SingleSelection" }, id, category);
    const refused = await call("POST", `/surveys/${id}/approve`, undefined, "admin");
    expect(refused.status).toBe(400);
    expect(refused.body.Error).toContain('"Ohne Antworten" has no answers');
    expect((await survey(id)).Status).toBe("Draft");
    await call("POST", "/answer-options", { SurveyId: id, QuestionId: q.Id, Text: "ja" });
    expect((await call("POST", `/surveys/${id}/approve`, undefined, "admin")).status).toBe(204);
  });
});
