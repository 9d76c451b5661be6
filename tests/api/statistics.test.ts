import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { dialects } from "../support/databases";
import { read, useStatisticsWorld, type Body } from "./statistics-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

/** A question's figures anywhere in the answer, sub-questions included. */
function questionIn(stats: Body, id: number): Body {
  const walk = (list: Body[]): Body =>
    list.reduce<Body>(
      (found, q) =>
        found ?? (q.QuestionId === id ? q : walk(q.AnswerStatistics.flatMap((a: Body) => a.SubQuestionStatistics))),
      undefined,
    );
  const q = walk(stats.CategoryStatistics.flatMap((c: Body) => c.QuestionStatistics));
  if (!q) throw new Error(`No figures for question ${id}`);
  return q;
}

/** text → [count, percentage] of a question's answers. */
const answersOf = (q: Body) =>
  Object.fromEntries(
    q.AnswerStatistics.map((a: Body) => [
      a.AnswerOptionText,
      [a.TotalAnswerOptionResponses, a.PercentageAnswerOptionResponses],
    ]),
  );

describe.each(dialects)("statistics figures on %s", (kind) => {
  const { world, fixture } = useStatisticsWorld(kind, () => idp);
  let stats: Body;

  beforeAll(async () => {
    stats = await read(await world().call("editor", "POST", `/statistics/${fixture().survey}`, {}));
  });

  it("counts the Closed cases only, with the thresholds it used", () => {
    expect(stats.SurveyId).toBe(fixture().survey);
    expect(stats.NumSurveyResponses).toBe(6);
    expect(stats.ScoreThresholds).toEqual({ RedBelow: 50, YellowBelow: 75, MinResponses: 5 });
    expect(stats.Benchmark).toBeNull();
    expect(stats.CategoryStatistics.map((c: Body) => [c.CategoryId, c.CategoryText])).toEqual([
      [fixture().categories.befinden, "Befinden"],
      [fixture().categories.wissen, "Wissen"],
    ]);
  });

  it("single selection: counts and percentages of the cases that answered, sub-question under its answer", () => {
    const f = fixture();
    const q = questionIn(stats, f.q.feeling);
    expect(q.Type).toBe(1);
    expect(q.TotalQuestionResponses).toBe(5);
    expect(answersOf(q)).toEqual({ gut: [3, 60], mittel: [1, 20], schlecht: [1, 20] });
    const good = q.AnswerStatistics.find((a: Body) => a.AnswerOptionText === "gut");
    expect(good.SubQuestionStatistics.map((s: Body) => s.QuestionId)).toEqual([f.q.since]);
    const since = good.SubQuestionStatistics[0];
    expect(since.TotalQuestionResponses).toBe(3);
    expect(answersOf(since)).toEqual({ Tage: [2, 66.67], Wochen: [1, 33.33] });
    for (const other of q.AnswerStatistics.filter((a: Body) => a !== good))
      expect(other.SubQuestionStatistics).toEqual([]);
  });

  it("multiple selection: percentages of the answering cases, adding up past 100", () => {
    const q = questionIn(stats, fixture().q.complaints);
    expect(q.Type).toBe(2);
    expect(q.TotalQuestionResponses).toBe(5);
    expect(answersOf(q)).toEqual({ Husten: [4, 80], Fieber: [3, 60], Atemnot: [1, 20] });
  });

  it("numerical: Min, Max, Average (2 decimals) and counted values, with the unit", () => {
    const q = questionIn(stats, fixture().q.weight);
    expect(q.Type).toBe(3);
    expect(q.Unit).toBe("kg");
    expect(q.TotalQuestionResponses).toBe(5);
    expect(q.CountedValuesStatistics).toEqual({
      CountedValues: [
        { Value: 65, Count: 1 },
        { Value: 70.5, Count: 1 },
        { Value: 80, Count: 2 },
        { Value: 91.25, Count: 1 },
      ],
      CountedValuesTruncated: false,
      Min: 65,
      Max: 91.25,
      Average: 77.35,
    });
  });

  it("date-time: counted by day, Min and Max keep the time", () => {
    const q = questionIn(stats, fixture().q.measured);
    expect(q.Type).toBe(4);
    expect(q.TotalQuestionResponses).toBe(4);
    const c = q.CountedValuesStatistics;
    expect(c.CountedValues).toEqual([
      { Value: "2024-03-01", Count: 2 },
      { Value: "2024-03-15", Count: 1 },
      { Value: "2024-04-02", Count: 1 },
    ]);
    expect(c.Min).toBe("2024-03-01T08:00");
    expect(c.Max).toBe("2024-04-02T09:15");
    // (08:00 + 20:30 on 1 March, 12:00 on 15 March, 09:15 on 2 April) / 4
    const avg =
      (Date.parse("2024-03-01T08:00Z") +
        Date.parse("2024-03-01T20:30Z") +
        Date.parse("2024-03-15T12:00Z") +
        Date.parse("2024-04-02T09:15Z")) /
      4;
    expect(c.Average).toBe(new Date(Math.round(avg / 60_000) * 60_000).toISOString().slice(0, 16));
  });

  it("free text: latest answers first, word cloud without stop words, attachments counted", () => {
    const q = questionIn(stats, fixture().q.notes);
    expect(q.Type).toBe(5);
    expect(q.TotalQuestionResponses).toBe(4);
    expect(q.Responses.map((r: Body) => [r.PatientId, r.Response])).toEqual([
      ["P5", "Übelkeit, keine Beschwerden"],
      ["P3", "=1+1 Schwindel"],
      ["P2", "Atemnot und Husten in der Nacht"],
      ["P1", "Die Atemnot ist besser"],
    ]);
    for (const r of q.Responses) expect(Number.isNaN(Date.parse(r.DateTime))).toBe(false);
    expect(q.WordCloud).toEqual([
      { Text: "atemnot", Count: 2 },
      { Text: "beschwerden", Count: 1 },
      { Text: "besser", Count: 1 },
      { Text: "husten", Count: 1 },
      { Text: "nacht", Count: 1 },
      { Text: "schwindel", Count: 1 },
      { Text: "übelkeit", Count: 1 },
    ]);
    expect(q.AllowFileAttachments).toBe(true);
    // P1 one file, P2 two, P6 two; the Open case's file does not count.
    expect(q.NumberOfFileAttachments).toBe(5);
  });

  it("a question hidden by a preliminary answer counts only the cases that saw it", () => {
    const q = questionIn(stats, fixture().q.daily);
    expect(q.TotalQuestionResponses).toBe(3);
    expect(answersOf(q)).toEqual({ ja: [2, 66.67], nein: [1, 33.33] });
  });

  it("not answered: the counted cases that were asked a question and gave no answer", () => {
    const f = fixture();
    const notAnswered = (id: number) => questionIn(stats, id).NotAnswered;
    // Six counted cases: P6 left the feeling open, P4 the complaints, P5 the weight, P4 and P6 the notes.
    expect(notAnswered(f.q.feeling)).toBe(1);
    expect(notAnswered(f.q.complaints)).toBe(1);
    expect(notAnswered(f.q.weight)).toBe(1);
    expect(notAnswered(f.q.measured)).toBe(2);
    expect(notAnswered(f.q.notes)).toBe(2);
    expect(notAnswered(f.q.pulse)).toBe(0);
    expect(notAnswered(f.q.symptoms)).toBe(2);
    // Asked only of those who chose "gut" (3 cases), all of whom answered.
    expect(notAnswered(f.q.since)).toBe(0);
    // Shown only to smokers (P1, P2, P5), all of whom answered: the others were never asked.
    expect(notAnswered(f.q.daily)).toBe(0);
  });

  it("scores: question average of the answering cases, percentage and flag; gray with too few cases", () => {
    const f = fixture();
    const pulse = questionIn(stats, f.q.pulse);
    expect(pulse).toMatchObject({
      IsScoredQuestion: true,
      TotalQuestionResponses: 6,
      ScoreResult: 1.33, // 8 / 6
      ScoreMax: 2,
      ScorePercentage: 66.7,
      ScoreFlag: 2,
    });
    const symptoms = questionIn(stats, f.q.symptoms);
    expect(symptoms).toMatchObject({
      IsScoredQuestion: true,
      TotalQuestionResponses: 4,
      ScoreResult: 2, // (4 + 3 + 0 + 1) / 4
      ScoreMax: 4,
      ScorePercentage: 50,
      ScoreFlag: 4, // 4 cases < SCORE_MIN_RESPONSES
    });
    expect(questionIn(stats, f.q.feeling)).toMatchObject({
      IsScoredQuestion: false,
      ScoreFlag: null,
      ScoreResult: null,
      ScorePercentage: null,
    });
  });

  it("scores: a category sums its answered test questions", () => {
    const [befinden, wissen] = stats.CategoryStatistics;
    expect(befinden).toMatchObject({ IsScoredCategory: false, ScoreFlag: null, ScoreResult: null });
    // (8/6 + 2) of (2 + 4) = 55.56 %; six cases answered, so the flag is yellow.
    expect(wissen).toMatchObject({
      IsScoredCategory: true,
      ScoreResult: 3.33,
      ScoreMax: 6,
      ScorePercentage: 55.6,
      ScoreFlag: 2,
    });
  });
});
