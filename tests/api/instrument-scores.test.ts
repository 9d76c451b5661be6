import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SurveySchema } from "~/domain/survey";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { startApi, type ApiHarness } from "../support/api";
import { dialects } from "../support/databases";
import { type Body } from "./statistics-support";

/**
 * Scored instruments in the product's own model (docs/decisions/051-instrument-scores.md): answer scores,
 * hints, codes and the instrument saved and read through the API, kept by edits of other fields and by a
 * clone; the total score in the statistics and the export is in instrument-totals.test.ts.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
const LOINC = "http://loinc.org";
const PHQ9 = {
  Name: "PHQ-9",
  Identifier: [{ System: "urn:ietf:rfc:3986", Value: "urn:oid:2.16.840.1.113883.4.642.3.1" }],
  Date: "2021-04-13",
  SubjectType: ["Patient"],
  Codes: [{ System: LOINC, Code: "44249-1", Display: "PHQ-9 quick depression assessment panel" }],
  Copyright: "Pfizer Inc.",
};

describe.each(dialects)("instrument fields through the API on %s", (kind) => {
  let api: ApiHarness;
  let surveyId: number;
  const call = async (method: string, path: string, body?: unknown, status?: number) => {
    const res = await api.json(method, path, body, "admin");
    if (status !== undefined) expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
    else expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body as Body;
  };
  const survey = async (id = surveyId) => SurveySchema.parse(await call("GET", `/surveys/${id}`));

  beforeAll(async () => {
    api = await startApi(kind, { idp });
    surveyId = (await call("POST", "/surveys", { Title: "PHQ-9" })).Id as number;
  });
  afterAll(async () => {
    await api.close();
  });

  it("a survey's total title and instrument: set, read, turned off by a blank title; each a new Hash", async () => {
    const before = await survey();
    expect(before.ScoreTitle).toBeNull();
    expect(before.Instrument).toBeNull();
    const set = await call("PUT", `/surveys/${surveyId}`, { ScoreTitle: "  PHQ-9 Summe ", Instrument: PHQ9 });
    expect(set.ScoreTitle).toBe("PHQ-9 Summe");
    expect(set.Instrument).toEqual(PHQ9);
    expect(set.Hash).not.toBe(before.Hash);
    const off = await call("PUT", `/surveys/${surveyId}`, { ScoreTitle: " " });
    expect(off.ScoreTitle).toBeNull();
    expect(off.Instrument).toEqual(PHQ9);
    await call("PUT", `/surveys/${surveyId}`, { ScoreTitle: "PHQ-9 Summe" });
    // An instrument's fields are checked: a code needs its Code, unknown keys are refused.
    await call(
      "PUT",
      `/surveys/${surveyId}`,
      { Instrument: { ...PHQ9, Codes: [{ System: LOINC, Display: "x" }] } },
      400,
    );
    await call("PUT", `/surveys/${surveyId}`, { Instrument: { ...PHQ9, Version: "1" } }, 400);
    await call("PUT", `/surveys/${surveyId}`, { ScoreTitle: "x".repeat(201) }, 400);
  });

  it("questions keep their hint and codes, answers their score and code system, when other fields change", async () => {
    const category = await call("POST", "/categories", {
      SurveyId: surveyId,
      Title: "Beschwerden",
      Codes: [{ System: LOINC, Code: "44249-1", Display: null }],
    });
    expect(category.Codes).toEqual([{ System: LOINC, Code: "44249-1", Display: null }]);
    const renamed = await call("PUT", `/categories/${category.Id}`, {
      SurveyId: surveyId,
      Title: "In den letzten 2 Wochen",
    });
    expect(renamed.Codes).toEqual(category.Codes);

    const codes = [{ System: LOINC, Code: "44250-9", Display: "Little interest or pleasure in doing things" }];
    const question = await call("POST", "/questions", {
      SurveyId: surveyId,
      CategoryId: category.Id,
      Title: "Wenig Interesse oder Freude an Ihren Tätigkeiten",
      Type: "SingleSelection",
      Hint: " Denken Sie an die letzten zwei Wochen. ",
      Codes: codes,
      AnswerOptions: [
        { Text: "Überhaupt nicht", Value: "LA6568-5", System: LOINC, Score: 0 },
        { Text: "An einzelnen Tagen", Value: "LA6569-3", System: LOINC, Score: 1 },
        { Text: "An mehr als der Hälfte der Tage", Score: 2.5 },
        { Text: "Keine Angabe" },
      ],
    });
    expect(question.Hint).toBe("Denken Sie an die letzten zwei Wochen.");
    expect(question.Codes).toEqual(codes);
    expect(question.AnswerOptions.map((o: Body) => [o.Score, o.System])).toEqual([
      [0, LOINC],
      [1, LOINC],
      [2.5, null],
      [null, null],
    ]);

    const edited = await call("PUT", `/questions/${question.Id}`, {
      Title: "Wenig Interesse",
      AllowFileAttachments: true,
    });
    expect([edited.Hint, edited.Codes]).toEqual([question.Hint, codes]);
    const [none, one, half, unscored] = question.AnswerOptions.map((o: Body) => o.Id as number);
    const text = await call("PUT", `/answer-options/${one}`, {
      SurveyId: surveyId,
      Text: "An einzelnen Tagen!",
      IsExitAnswer: true,
    });
    expect([text.Score, text.System, text.Value]).toEqual([1, LOINC, "LA6569-3"]);
    // A score is apart from a test question's weighting: a weight changes nothing of it, and back.
    await call("PUT", `/questions/${question.Id}`, { IsTestQuestion: true });
    const weighted = await call("PUT", `/answer-options/${half}`, { SurveyId: surveyId, WeightingState: 1, Weight: 3 });
    expect([weighted.Score, weighted.Weight, weighted.WeightingState]).toEqual([2.5, 3, 1]);
    expect((await call("PUT", `/answer-options/${unscored}`, { SurveyId: surveyId, Score: 0 })).Score).toBe(0);
    expect((await call("PUT", `/answer-options/${none}`, { SurveyId: surveyId, Score: null })).Score).toBeNull();
    expect((await call("PUT", `/answer-options/${half}`, { SurveyId: surveyId, Score: -9999 })).Score).toBe(-9999);
    for (const Score of [10_000, 0.00001, "2", true]) {
      await call("PUT", `/answer-options/${half}`, { SurveyId: surveyId, Score }, 400);
    }
    const cleared = await call("PUT", `/questions/${question.Id}`, { Hint: "   " });
    expect(cleared.Hint).toBeNull();
    await call("PUT", `/questions/${question.Id}`, { Hint: "Bitte ehrlich antworten." });

    // Stored as they are read: the score as a number, the codes as JSON text.
    const row = await api.testDb.db
      .selectFrom("answer_options")
      .select(["score", "system"])
      .where("id", "=", half)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ score: -9999, system: null });
    const stored = await api.testDb.db
      .selectFrom("questions")
      .select(["hint", "codes"])
      .where("id", "=", question.Id)
      .executeTakeFirstOrThrow();
    expect(stored.hint).toBe("Bitte ehrlich antworten.");
    expect(JSON.parse(stored.codes)).toEqual(codes);
  });

  it("image markers carry a score, kept when the markers are moved", async () => {
    const categoryId = (await survey()).Categories[0].Id;
    const image = await call("POST", "/questions", {
      SurveyId: surveyId,
      CategoryId: categoryId,
      Title: "Wo schmerzt es?",
      Type: "Image",
      ImageSrc: PNG,
      AnswerOptions: [{ Title: "Kopf", Score: 2 }, { Title: "Knie" }],
    });
    expect(image.AnswerOptions.map((o: Body) => o.Score)).toEqual([2, null]);
    const [head, knee] = image.AnswerOptions as Body[];
    const moved = await call("PUT", `/questions/${image.Id}`, {
      AnswerOptions: [
        { Id: head.Id, Title: "Kopf", X: 0.5, Y: 0.1 },
        { Id: knee.Id, Title: "Knie", X: 0.4, Y: 0.7, Score: 1.25 },
      ],
    });
    expect(moved.AnswerOptions.map((o: Body) => [o.Title, o.Score, o.X])).toEqual([
      ["Kopf", 2, 0.5],
      ["Knie", 1.25, 0.4],
    ]);
    const marker = await call("PUT", `/answer-options/${knee.Id}`, {
      SurveyId: surveyId,
      Title: "Kniegelenk",
      Score: 0,
    });
    expect([marker.Title, marker.Score]).toEqual(["Kniegelenk", 0]);
  });

  it("a clone copies the total title, the instrument, the codes, hints, scores and code systems", async () => {
    const original = await survey();
    const clone = await call("POST", `/surveys/${surveyId}/clone`, undefined, 201);
    const copy = await survey(clone.Id);
    const strip = (s: typeof original) => ({
      ScoreTitle: s.ScoreTitle,
      Instrument: s.Instrument,
      Categories: s.Categories.map((c) => ({
        Codes: c.Codes,
        Questions: c.Questions.map((q) => ({
          Hint: q.Hint,
          Codes: q.Codes,
          Options: q.AnswerOptions.map((o) => [o.Score, o.System, o.Value]),
        })),
      })),
    });
    expect(strip(copy)).toEqual(strip(original));
    expect(copy.ScoreTitle).toBe("PHQ-9 Summe");
    expect(copy.Categories[0].Questions[0].Hint).toBe("Bitte ehrlich antworten.");
  });
});
