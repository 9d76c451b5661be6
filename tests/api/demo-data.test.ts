import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visibleQuestionIds } from "~/domain/visibility";
import { DEMO_CASES, seedDemoData, seedDemoDataIfEmpty } from "~/server/services/demo-data.server";
import { loadSurveyTree } from "~/server/services/survey-tree.server";
import { dialects, openTestDb, type TestDb } from "../support/databases";

const rights = { CanEdit: true, CanApprove: true, CanParticipate: true };

describe.each(dialects)("demo data on %s", (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await openTestDb(kind);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("seeds an empty database once, with surveys in several states and languages", async () => {
    expect(await seedDemoDataIfEmpty(t.db)).toBe(true);
    expect(await seedDemoDataIfEmpty(t.db)).toBe(false);
    const rows = await t.db.selectFrom("surveys").select(["id", "title", "status"]).orderBy("id").execute();
    expect(rows.map((r) => r.status)).toEqual([2, 2, 1, 2, 4]);
    expect(rows.map((r) => r.title)).toContain("Post-operative Pain Assessment");
    const tree = await loadSurveyTree(t.db, rows[0].id, rights);
    expect(tree!.PatientForm.map((a) => a.Title)).toEqual(["Geschlecht", "Altersgruppe"]);
    const questions = tree!.Categories.flatMap((c) => c.Questions);
    expect(new Set(questions.map((q) => q.Type))).toEqual(
      new Set(["SingleSelection", "FreeText", "Numerical", "DateTime"]),
    );
    const withSub = questions.find((q) => q.AnswerOptions.some((o) => o.SubQuestions.length > 0));
    expect(withSub?.AnswerOptions[0].SubQuestions[0].Type).toBe("MultipleSelection");
    const dependent = questions.find((q) => q.Dependence);
    const weiblich = tree!.PatientForm[0].AnswerOptions.find((o) => o.Text === "weiblich")!.Id;
    expect(dependent?.Dependence).toEqual({ Type: "SHOW", PreliminaryAnswerOptions: [weiblich] });
  });

  it("gives the Active demo surveys closed cases whose answers fit what each case could see", async () => {
    const [heart, postop] = (await t.db.selectFrom("surveys").select("id").orderBy("id").execute()).map((r) => r.id);
    for (const [surveyId, count] of [
      [heart, DEMO_CASES[0]],
      [postop, DEMO_CASES[1]],
    ] as const) {
      const cases = await t.db.selectFrom("patient_data").selectAll().where("survey_id", "=", surveyId).execute();
      expect(cases).toHaveLength(count);
      expect(new Set(cases.map((c) => c.state))).toEqual(new Set(["Closed"]));
      const tree = (await loadSurveyTree(t.db, surveyId, rights))!;
      const top = tree.Categories.flatMap((c) => c.Questions);
      let answered = 0;
      for (const c of cases.slice(0, 15)) {
        const prelim = await t.db
          .selectFrom("attribute_responses")
          .selectAll()
          .where("patient_data_id", "=", c.id)
          .execute();
        const rows = await t.db
          .selectFrom("question_responses")
          .selectAll()
          .where("patient_data_id", "=", c.id)
          .execute();
        const preliminary = Object.fromEntries(prelim.map((p) => [p.attribute_id, p.answer_option_id]));
        const answers: Record<number, { AnswerOptionIds?: number[] }> = {};
        for (const r of rows)
          if (r.answer_option_id)
            (answers[r.question_id] ??= { AnswerOptionIds: [] }).AnswerOptionIds!.push(r.answer_option_id);
        const visible = visibleQuestionIds(top, preliminary, answers);
        for (const r of rows) expect(visible.has(r.question_id)).toBe(true);
        answered += rows.length;
      }
      expect(answered).toBeGreaterThan(15 * 3);
    }
  });

  it("answers number questions within their range: pain 0 to 10 in whole steps, blood pressure 95 to 175", async () => {
    const numbers = async (title: string) => {
      const rows = await t.db
        .selectFrom("question_responses as qr")
        .innerJoin("questions as q", "q.id", "qr.question_id")
        .select("qr.numerical_response")
        .where("q.title", "=", title)
        .where("qr.numerical_response", "is not", null)
        .execute();
      return rows.map((r) => Number(r.numerical_response));
    };
    const pain = await numbers("Pain at rest (0–10)");
    expect(pain.length).toBeGreaterThan(20);
    for (const v of pain) expect(Number.isInteger(v) && v >= 0 && v <= 10).toBe(true);
    expect(new Set(pain).size).toBeGreaterThan(4);
    const pressure = await numbers("Systolischer Blutdruck");
    expect(pressure.length).toBeGreaterThan(20);
    for (const v of pressure) expect(Number.isInteger(v) && v >= 95 && v <= 175).toBe(true);
    for (const v of await numbers("Körpergewicht")) expect(v >= 48 && v <= 115).toBe(true);
  });

  it("seeds again on demand", async () => {
    const ids = await seedDemoData(t.db);
    expect(ids).toHaveLength(5);
  });
});
