import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SurveyTrail } from "~/domain/audit-reading";
import { changesOf, type TrailNames } from "~/domain/audit-words";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { startApi, type ApiHarness } from "../support/api";
import { dialects } from "../support/databases";

/**
 * The survey trail in words (docs/decisions/028-audit-reading.md) over the rows the editor really writes: every
 * change an editor or approver makes to a survey reads field by field, with nothing summed up as "more" and no
 * field that was empty before and after.
 */

const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

const noNames: TrailNames = {
  questions: new Map(),
  options: new Map(),
  categories: new Map(),
  attributes: new Map(),
  preliminaryOptions: new Map(),
  teams: new Map(),
  tags: new Map(),
};

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe.each(dialects)("the survey trail in words on %s", (kind) => {
  let api: ApiHarness;
  let surveyId: number;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await api.json(method, path, body, "admin");
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };

  beforeAll(async () => {
    api = await startApi(kind, { idp });
    surveyId = (await call("POST", "/surveys", { Title: "Spur in Worten" })).Id as number;
    const survey = (fields: Record<string, unknown>) => call("PUT", `/surveys/${surveyId}`, fields);
    await survey({ Description: "Worum es geht", IntroText: "<p>Willkommen</p>", TargetNumberOfResponses: 40 });
    await survey({ IsPatientFormEnabled: true, IsPatientIdAutoGenerationEnabled: true, RequiresSignature: true });
    await survey({ RetentionMonths: 18, StartDate: "01.01.2030", EndDate: "31.12.2030" });
    await survey({
      ScoreTitle: "Summe",
      Instrument: { Name: "PHQ-9", Identifier: [], Date: null, SubjectType: [], Codes: [], Copyright: null },
    });

    const attribute = await call("POST", "/patient-attributes", {
      SurveyId: surveyId,
      Title: "Mobilität",
      AnswerOptions: [{ Text: "mobil" }, { Text: "bettlägerig", IsExitAnswer: true }],
    });
    await call("PUT", `/patient-attributes/${attribute.Id}`, { SurveyId: surveyId, PreSelected: true });

    const category = await call("POST", "/categories", { SurveyId: surveyId, Title: "Teil 1" });
    const second = await call("POST", "/categories", { SurveyId: surveyId, Title: "Teil 2" });
    await call("PUT", `/categories/${second.Id}`, {
      SurveyId: surveyId,
      Title: "Teil zwei",
      Codes: [{ System: "http://loinc.org", Code: "44249-1", Display: null }],
    });
    const place = { SurveyId: surveyId, CategoryId: category.Id };
    const choice = await call("POST", "/questions", {
      ...place,
      Title: "Befinden",
      Type: "SingleSelection",
      AnswerOptions: [{ Text: "gut" }, { Text: "schlecht" }],
    });
    const height = await call("POST", "/questions", { ...place, Title: "Größe", Type: "Numerical", Unit: "cm" });
    await call("PUT", `/questions/${height.Id}`, {
      Title: "Körpergröße",
      IsTestQuestion: true,
      Dependence: { Type: "HIDE", PreliminaryAnswerOptions: [attribute.AnswerOptions[1].Id] },
    });
    const option = await call("POST", "/answer-options", {
      SurveyId: surveyId,
      QuestionId: choice.Id,
      Text: "mittel",
      Value: "2",
    });
    await call("PUT", `/answer-options/${option.Id}`, { SurveyId: surveyId, IsExitAnswer: true });
    await call("PUT", `/answer-options/${choice.AnswerOptions[0].Id}`, {
      SurveyId: surveyId,
      Score: 1.5,
      System: "http://loinc.org",
    });
    await call("PUT", `/questions/${choice.Id}`, {
      Hint: "Die letzten zwei Wochen",
      Codes: [{ System: "http://loinc.org", Code: "44250-9", Display: "Little interest" }],
    });
    const sub = await call("POST", `/answer-options/${choice.AnswerOptions[1].Id}/sub-question`, {
      SurveyId: surveyId,
      Title: "Seit wann?",
      Type: "FreeText",
    });
    await call("DELETE", `/questions/${sub.Id}?surveyId=${surveyId}`);
    await call("DELETE", `/answer-options/${option.Id}?surveyId=${surveyId}`);
    const image = await call("POST", "/questions", {
      ...place,
      Title: "Körperstelle",
      Type: "Image",
      ImageSrc: PNG,
      AnswerOptions: [{ Text: "Kopf" }],
    });
    await call("PUT", `/questions/${image.Id}`, {
      AnswerOptions: [{ Id: image.AnswerOptions[0].Id, Text: "Kopf", X: 0.5, Y: 0.25 }, { Text: "Arm" }],
    });
    const note = await call("POST", "/questions", { ...place, Title: "Notiz", Type: "FreeText" });
    await call("POST", `/questions/reorder/${note.Id}?newPosition=0&surveyId=${surveyId}`);
    await call("DELETE", `/questions/${height.Id}?surveyId=${surveyId}`);
    await call("DELETE", `/categories?categoryId=${second.Id}&surveyId=${surveyId}`);
    const gone = await call("POST", "/patient-attributes", {
      SurveyId: surveyId,
      Title: "Gehhilfe",
      AnswerOptions: [{ Text: "ja" }, { Text: "nein" }],
    });
    await call("DELETE", `/patient-attributes/${gone.Id}?surveyId=${surveyId}`);
    await call("POST", `/surveys/${surveyId}/approve`);
  });
  afterAll(async () => {
    await api.close();
  });

  it("reads every change field by field, never as 'more', never empty before and after", async () => {
    const trail = (await call("GET", `/audit-log/trail?surveyId=${surveyId}`)) as SurveyTrail;
    const read = trail.Entries.map((e) => ({ action: e.Action, ...changesOf(e.Before, e.After, noNames, e.Entity) }));
    expect(new Set(read.map((r) => r.action))).toEqual(
      new Set([
        "survey.create",
        "survey.update",
        "patientAttribute.create",
        "patientAttribute.update",
        "patientAttribute.delete",
        "category.create",
        "category.update",
        "category.delete",
        "question.create",
        "question.update",
        "question.delete",
        "question.reorder",
        "answerOption.create",
        "answerOption.update",
        "answerOption.delete",
        "survey.approve",
      ]),
    );
    expect(read.filter((r) => r.more).map((r) => r.action)).toEqual([]);
    const emptyBoth = read.flatMap((r) =>
      r.changes.filter((c) => "none" in c.before && "none" in c.after).map((c) => `${r.action}: ${c.field}`),
    );
    expect(emptyBoth).toEqual([]);
    expect(read.filter((r) => r.changes.length === 0).map((r) => r.action)).toEqual([]);
    // The instrument's fields by name: the score, the hint, the total's title and the codes with their values.
    const changed = new Map(read.flatMap((r) => r.changes.map((c) => [c.field, c] as const)));
    expect(changed.get("Score")?.after).toEqual({ text: "1.5" });
    expect(changed.get("Hint")?.after).toEqual({ text: "Die letzten zwei Wochen" });
    expect(changed.get("ScoreTitle")).toEqual({
      field: "ScoreTitle",
      before: { none: true },
      after: { text: "Summe" },
    });
    expect(changed.get("Instrument")?.after).toEqual({ text: "PHQ-9" });
    expect(changed.get("System")?.after).toEqual({ text: "http://loinc.org" });
    expect(
      read.find((r) => r.action === "question.update" && r.changes.some((c) => c.field === "Codes")),
    ).toMatchObject({
      changes: expect.arrayContaining([
        { field: "Codes", before: { none: true }, after: { text: "Little interest (44250-9)" } },
      ]),
    });
    const deleted = read.find((r) => r.action === "question.delete" && r.changes.some((c) => c.field === "Unit"));
    expect(deleted?.changes.find((c) => c.field === "Type")?.before).toEqual({ word: "type.Numerical" });
  });
});
