import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { startApi, type ApiHarness } from "../support/api";
import { dialects } from "../support/databases";
import { auditRows } from "../support/surveys";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

interface Attribute {
  Id: number;
  Title: string;
  Sort: number;
  AnswerOptions: { Id: number; Text: string; IsExitAnswer: boolean; Sort: number }[];
}

describe.each(dialects)("preliminary questions API on %s", (kind) => {
  let api: ApiHarness;
  let cases = 0;

  const call = (method: string, path: string, body?: unknown, who: string | null = "editor") =>
    api.json(method, path, body, who);
  const survey = async (id: number) => (await call("GET", `/surveys/${id}`)).body;
  const form = async (id: number) => (await survey(id)).PatientForm as Attribute[];
  const audits = async (id: number) => auditRows(api.testDb.db, id);
  const newSurvey = async () => (await call("POST", "/surveys", { Title: "Vorfragen" })).body.Id as number;
  async function addAttribute(id: number, Title: string, texts = ["ja", "nein"], path = "/patient-attributes/") {
    const res = await call("POST", path, { SurveyId: id, Title, AnswerOptions: texts.map((Text) => ({ Text })) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Attribute;
  }
  async function choose(id: number, attributeId: number, optionId: number) {
    const kase = await api.testDb.db
      .insertInto("patient_data")
      .values({ survey_id: id, patient_id: `P_${++cases}` })
      .returning("id")
      .executeTakeFirstOrThrow();
    await api.testDb.db
      .insertInto("attribute_responses")
      .values({ survey_id: id, patient_data_id: kase.id, attribute_id: attributeId, answer_option_id: optionId })
      .execute();
  }

  beforeAll(async () => {
    api = await startApi(kind, { idp });
  });
  afterAll(async () => {
    await api.close();
  });

  it("POST /patient-attributes/ adds a preliminary question with its answers", async () => {
    const id = await newSurvey();
    const hash = (await survey(id)).Hash;
    const count = await audits(id);
    const res = await call("POST", "/patient-attributes/", {
      SurveyId: id,
      Title: " Geschlecht ",
      AnswerOptions: [{ Text: "weiblich" }, { Text: " männlich " }, { Text: "keine Angabe", IsExitAnswer: true }],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      Id: expect.any(Number),
      PatientFormId: (await survey(id)).PatientFormId,
      SurveyId: id,
      Title: "Geschlecht",
      Enabled: true,
      PreSelected: false,
      Sort: 0,
      AnswerOptions: [
        { Id: expect.any(Number), Text: "weiblich", Value: null, IsExitAnswer: false, Sort: 0 },
        { Id: expect.any(Number), Text: "männlich", Value: null, IsExitAnswer: false, Sort: 1 },
        { Id: expect.any(Number), Text: "keine Angabe", Value: null, IsExitAnswer: true, Sort: 2 },
      ],
    });
    expect((await addAttribute(id, "Alter", ["< 50", "≥ 50"], "/patient-attributes")).Sort).toBe(1);
    expect((await survey(id)).Hash).not.toBe(hash);
    expect(await audits(id)).toBe(count + 2);
  });

  it("refuses a blank title, no answers, blank answers and unknown fields", async () => {
    const id = await newSurvey();
    for (const body of [
      { Title: " ", AnswerOptions: [{ Text: "a" }] },
      { Title: "x", AnswerOptions: [] },
      { Title: "x" },
      { Title: "x", AnswerOptions: [{ Text: "a" }, { Text: "  " }] },
      { Title: "x", AnswerOptions: [{ Id: 5, Text: "a" }] },
      { Title: "x", AnswerOptions: ["a"] },
      { Title: "x".repeat(501), AnswerOptions: [{ Text: "a" }] },
      { Title: "x", AnswerOptions: [{ Text: "a" }], Sort: 2 },
    ]) {
      const res = await call("POST", "/patient-attributes/", { SurveyId: id, ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.Type).toBe("VALIDATION_ERROR");
    }
    expect(await form(id)).toEqual([]);
  });

  it("PUT /patient-attributes/:id keeps answers by Id, adds new ones and deletes the rest", async () => {
    const id = await newSurvey();
    const a = await addAttribute(id, "Raucher", ["ja", "nein", "früher"]);
    const [ja, nein] = a.AnswerOptions;
    const hash = (await survey(id)).Hash;
    const count = await audits(id);
    const same = await call("PUT", `/patient-attributes/${a.Id}`, {
      Title: "Raucher",
      AnswerOptions: a.AnswerOptions.map((o) => ({ Id: o.Id, Text: o.Text, IsExitAnswer: o.IsExitAnswer })),
    });
    expect(same.body).toEqual(a);
    expect((await survey(id)).Hash).toBe(hash);
    expect(await audits(id)).toBe(count);

    const res = await call("PUT", `/patient-attributes/${a.Id}`, {
      Title: "Rauchen",
      Enabled: false,
      AnswerOptions: [
        { Id: nein.Id, Text: "nie" },
        { Text: "gelegentlich" },
        { Id: ja.Id, Text: "ja", IsExitAnswer: true },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ Title: "Rauchen", Enabled: false });
    expect(
      res.body.AnswerOptions.map((o: Attribute["AnswerOptions"][number]) => [o.Text, o.Sort, o.IsExitAnswer]),
    ).toEqual([
      ["nie", 0, false],
      ["gelegentlich", 1, false],
      ["ja", 2, true],
    ]);
    expect(res.body.AnswerOptions[0].Id).toBe(nein.Id);
    expect((await survey(id)).Hash).not.toBe(hash);
    expect(await audits(id)).toBe(count + 1);

    for (const body of [
      { AnswerOptions: [] },
      { AnswerOptions: [{ Id: 999999, Text: "x" }] },
      {
        AnswerOptions: [
          { Id: ja.Id, Text: "x" },
          { Id: ja.Id, Text: "y" },
        ],
      },
      { Title: "" },
    ]) {
      const bad = await call("PUT", `/patient-attributes/${a.Id}`, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }
    const other = await newSurvey();
    expect((await call("PUT", `/patient-attributes/${a.Id}`, { Title: "x", SurveyId: other })).status).toBe(404);
  });

  it("refuses to remove an answer that was chosen, or to delete an answered preliminary question", async () => {
    const id = await newSurvey();
    const a = await addAttribute(id, "Diabetes", ["ja", "nein"]);
    await choose(id, a.Id, a.AnswerOptions[1].Id);
    const hash = (await survey(id)).Hash;
    const removed = await call("PUT", `/patient-attributes/${a.Id}`, {
      AnswerOptions: [{ Id: a.AnswerOptions[0].Id, Text: "ja" }],
    });
    expect(removed.status).toBe(409);
    expect(removed.body.Type).toBe("SURVEY_EXISTING_QUESTION_RESPONSE");
    const deleted = await call("DELETE", `/patient-attributes/${a.Id}?surveyId=${id}`);
    expect(deleted.status).toBe(409);
    expect(deleted.body).toEqual({ Type: "SURVEY_EXISTING_QUESTION_RESPONSE", Error: expect.any(String) });
    expect(await form(id)).toEqual([a]);
    expect((await survey(id)).Hash).toBe(hash);
    const kept = await call("PUT", `/patient-attributes/${a.Id}`, {
      AnswerOptions: [
        { Id: a.AnswerOptions[1].Id, Text: "nein" },
        { Id: a.AnswerOptions[0].Id, Text: "ja" },
      ],
    });
    expect(kept.status).toBe(200);
  });

  it("DELETE removes a preliminary question, closes the gap and drops dependence rules on it", async () => {
    const id = await newSurvey();
    const [a, b, c] = [await addAttribute(id, "A"), await addAttribute(id, "B"), await addAttribute(id, "C")];
    const category = (await call("POST", "/categories", { SurveyId: id, Title: "K" })).body.Id;
    const q = await call("POST", "/questions", {
      SurveyId: id,
      CategoryId: category,
      Title: "Abhängig",
      Type: "FreeText",
      Dependence: { Type: "HIDE", PreliminaryAnswerOptions: [b.AnswerOptions[0].Id] },
    });
    expect(q.body.Dependence).toMatchObject({ Type: "HIDE" });
    expect((await call("DELETE", `/patient-attributes/${b.Id}?surveyId=${id + 1000}`)).status).toBe(404);
    expect((await call("DELETE", `/patient-attributes/${b.Id}?surveyId=${id}`)).status).toBe(204);
    const s = await survey(id);
    expect(s.PatientForm.map((x: Attribute) => [x.Id, x.Sort])).toEqual([
      [a.Id, 0],
      [c.Id, 1],
    ]);
    expect(s.Categories[0].Questions[0].Dependence).toBeNull();
    const row = await api.testDb.db
      .selectFrom("questions")
      .select("dependence_type")
      .where("id", "=", q.body.Id)
      .executeTakeFirstOrThrow();
    expect(row.dependence_type).toBeNull();
  });

  it("reorders preliminary questions and their answers densely", async () => {
    const id = await newSurvey();
    const [a, b] = [await addAttribute(id, "A", ["1", "2", "3"]), await addAttribute(id, "B")];
    expect((await call("POST", `/patient-attributes/reorder/${b.Id}?newPosition=0&surveyId=${id}`)).status).toBe(204);
    const moved = a.AnswerOptions[2].Id;
    expect(
      (await call("POST", `/patient-attributes/answer-options/reorder/${moved}?newPosition=0&surveyId=${id}`)).status,
    ).toBe(204);
    const f = await form(id);
    expect(f.map((x) => `${x.Sort}:${x.Title}`)).toEqual(["0:B", "1:A"]);
    expect(f[1].AnswerOptions.map((o) => `${o.Sort}:${o.Text}`)).toEqual(["0:3", "1:1", "2:2"]);
    const count = await audits(id);
    expect((await call("POST", `/patient-attributes/reorder/${b.Id}?newPosition=0&surveyId=${id}`)).status).toBe(204);
    expect(await audits(id)).toBe(count);
    expect((await call("POST", `/patient-attributes/reorder/${b.Id}?newPosition=2&surveyId=${id}`)).status).toBe(400);
    expect(
      (await call("POST", `/patient-attributes/answer-options/reorder/${moved}?newPosition=3&surveyId=${id}`)).status,
    ).toBe(400);
    const other = await newSurvey();
    expect(
      (await call("POST", `/patient-attributes/answer-options/reorder/${moved}?newPosition=0&surveyId=${other}`))
        .status,
    ).toBe(404);
  });
});
