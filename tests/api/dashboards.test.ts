import { afterAll, beforeAll, expect, it } from "vitest";
import type { Chart, Dashboard } from "~/domain/dashboards";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { describeEachDialect } from "../support/databases";
import { seedDemoCases } from "~/server/services/demo-cases.server";
import { fixtureCases, replaceCases } from "./dashboards-fixture";
import { json, preliminaryOption, questionId, useFillWorld, type FillWorld } from "./fill-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

const base = "/statistics-dashboards";
const allTypes = [
  "SurveyResponsesOverTime",
  "IndividualSurveyScores",
  "ScoreResultsOverTime",
  "AmountPerPreQuestion",
  "ScorePlotPerPreQuestion",
  "CategoryWithActualAndMaxScores",
  "NumericalRange",
  "DateTimeRange",
] as const;
const plots = ["BarChart", "LineChart", "LineChart", "BarChart", "BoxPlot", "RadarChart", "LineChart", "LineChart"];

describeEachDialect("statistics dashboards", (kind) => {
  const world = useFillWorld(
    kind,
    () => idp,
    async (w) => {
      await replaceCases(w.db, w.a.heart, fixtureCases);
      // A clone of the heart survey (same structure) with one known case, for the benchmark.
      await w.db.updateTable("surveys").set({ source_survey_id: w.a.heart }).where("id", "=", w.b.heart).execute();
      await replaceCases(w.db, w.b.heart, [
        {
          patientId: "B1",
          closedAt: "2024-02-01T08:00:00.000Z",
          gender: "männlich",
          correct: true,
          numbers: { Körpergewicht: 60, "Systolischer Blutdruck": 110 },
        },
      ]);
    },
  );
  const load = async (w: FillWorld, filters = {}) =>
    json<Dashboard>(await w.call("editor", "POST", `${base}/get-by-survey-id/${w.a.heart}`, { Filters: filters }));
  const chart = (d: Dashboard, type: string) => d.Charts.find((c) => c.ChartType === type)!;
  const update = (w: FillWorld, d: Dashboard, c: Chart, body: object) =>
    w.call("editor", "POST", `${base}/${d.Id}/charts/update/${c.Id}`, body);

  it("makes the dashboard on first use, lists the supported chart types and adds every type at once", async () => {
    const w = world();
    const empty = await load(w);
    expect(empty.Charts).toEqual([]);
    expect((await load(w)).Id).toBe(empty.Id);
    const types = json<{ Data: { ChartType: string; PlotType: string; Name: string }[] }>(
      await w.call("editor", "GET", `${base}/supported-chart-types`),
    );
    expect((await types).Data.map((t) => t.ChartType)).toEqual(allTypes);
    const res = await w.call("editor", "POST", `${base}/${empty.Id}/charts/add`, {
      ChartAddRequests: allTypes.map((ChartType) => ({ ChartType })),
    });
    expect(res.status).toBe(200);
    const d = await json<Dashboard>(res);
    expect(d.Charts.map((c) => [c.ChartType, c.PlotType, c.Sort])).toEqual(allTypes.map((t, i) => [t, plots[i], i]));
    const range = chart(d, "NumericalRange");
    expect([range.QuestionId1, range.QuestionId2, range.RangeEntries]).toEqual([null, null, []]);
    expect(chart(d, "AmountPerPreQuestion").AttributeId).toBeNull();
    expect(d.Choices.NumericalQuestions.map((q) => q.Title)).toEqual(["Körpergewicht", "Systolischer Blutdruck"]);
    expect(d.Choices.DateTimeQuestions.map((q) => q.Title)).toEqual(["Zeitpunkt der Messung", "Entlassung"]);
  });

  it("computes every chart type's data as counted by hand", async () => {
    const w = world();
    let d = await load(w);
    const gender = (await preliminaryOption(w.db, w.a.heart, "weiblich")).attributeId;
    const weight = await questionId(w.db, w.a.heart, "Körpergewicht");
    const pressure = await questionId(w.db, w.a.heart, "Systolischer Blutdruck");
    const measured = await questionId(w.db, w.a.heart, "Zeitpunkt der Messung");
    const discharge = await questionId(w.db, w.a.heart, "Entlassung");
    await update(w, d, chart(d, "AmountPerPreQuestion"), { AttributeId: gender });
    await update(w, d, chart(d, "ScorePlotPerPreQuestion"), { AttributeId: gender });
    await update(w, d, chart(d, "NumericalRange"), { QuestionId1: weight, QuestionId2: pressure });
    d = await json<Dashboard>(
      await update(w, d, chart(d, "DateTimeRange"), { QuestionId1: measured, QuestionId2: discharge }),
    );

    expect(chart(d, "SurveyResponsesOverTime").ResponseCountsByDates).toEqual([
      { Date: "2024-01-15", Count: 2 },
      { Date: "2024-05-02", Count: 1 },
      { Date: "2024-08-20", Count: 1 },
    ]);
    expect(chart(d, "IndividualSurveyScores").SurveyScoresByDates).toEqual([
      { PatientId: "G1", Date: "2024-01-15", Score: 2, MaxScore: 2 },
      { PatientId: "G2", Date: "2024-01-15", Score: 0, MaxScore: 2 },
      { PatientId: "G3", Date: "2024-05-02", Score: 2, MaxScore: 2 },
      { PatientId: "G4", Date: "2024-08-20", Score: 0, MaxScore: 2 },
    ]);
    expect(chart(d, "ScoreResultsOverTime").AverageScoresByDates).toEqual([
      { Date: "2024-01-15", AverageScore: 1, Count: 2 },
      { Date: "2024-05-02", AverageScore: 2, Count: 1 },
      { Date: "2024-08-20", AverageScore: 0, Count: 1 },
    ]);
    expect(
      chart(d, "AmountPerPreQuestion").ResponseCountsByPreQuestionOptions.map((o) => [o.OptionText, o.Count]),
    ).toEqual([
      ["weiblich", 3],
      ["männlich", 1],
      ["divers", 0],
    ]);
    // weiblich: scores 0, 2, 2 → quartiles by interpolation 1 and 2.
    expect(chart(d, "ScorePlotPerPreQuestion").ScorePlotByPreQuestionOptions.map(({ OptionId: _, ...o }) => o)).toEqual(
      [
        { OptionText: "weiblich", Count: 3, Min: 0, Q1: 1, Median: 2, Q3: 2, Max: 2 },
        { OptionText: "männlich", Count: 1, Min: 0, Q1: 0, Median: 0, Q3: 0, Max: 0 },
        { OptionText: "divers", Count: 0, Min: null, Q1: null, Median: null, Q3: null, Max: null },
      ],
    );
    // Four cases answered the one test question, two correctly (weight 2): average 1 of 2.
    expect(chart(d, "CategoryWithActualAndMaxScores").CategoryScores.map(({ CategoryId: _, ...c }) => c)).toEqual([
      { CategoryText: "Wissen", ActualScore: 1, MaxScore: 2 },
    ]);
    const numeric = chart(d, "NumericalRange");
    expect([numeric.RangeEntries, numeric.RangeEntriesTotal]).toEqual([
      [
        { PatientId: "G1", Question1Value: 70, Question2Value: 120 },
        { PatientId: "G2", Question1Value: 80, Question2Value: 130 },
      ],
      2,
    ]);
    expect(chart(d, "DateTimeRange").RangeEntries).toEqual([
      { PatientId: "G1", Question1Value: "2024-01-15T08:00", Question2Value: "2024-01-20T09:30" },
    ]);
  });

  it("says a survey without scored questions has none, and reads no scores for it", async () => {
    const w = world();
    expect((await load(w)).HasScoredQuestions).toBe(true);
    // The pain survey has no test question: every one of its cases would score 0.
    await seedDemoCases(w.db, w.a.postop, 6);
    const d = await json<Dashboard>(
      await w.call("editor", "POST", `${base}/get-by-survey-id/${w.a.postop}`, { Filters: {} }),
    );
    expect(d.HasScoredQuestions).toBe(false);
    const added = await json<Dashboard>(
      await w.call("editor", "POST", `${base}/${d.Id}/charts/add`, {
        ChartAddRequests: allTypes.map((ChartType) => ({ ChartType })),
      }),
    );
    expect(added.HasScoredQuestions).toBe(false);
    expect(chart(added, "SurveyResponsesOverTime").ResponseCountsByDates.reduce((n, d) => n + d.Count, 0)).toBe(6);
    expect(chart(added, "IndividualSurveyScores").SurveyScoresByDates).toEqual([]);
    expect(chart(added, "ScoreResultsOverTime").AverageScoresByDates).toEqual([]);
    expect(chart(added, "CategoryWithActualAndMaxScores").CategoryScores).toEqual([]);
  });

  it("applies the filters to every chart", async () => {
    const w = world();
    const d = await load(w, { PatientIds: ["G2", "G3"] });
    expect(chart(d, "SurveyResponsesOverTime").ResponseCountsByDates).toEqual([
      { Date: "2024-01-15", Count: 1 },
      { Date: "2024-05-02", Count: 1 },
    ]);
    expect(chart(d, "NumericalRange").RangeEntries.map((e) => e.PatientId)).toEqual(["G2"]);
    expect(chart(d, "CategoryWithActualAndMaxScores").CategoryScores[0].ActualScore).toBe(1);
    const later = await load(w, { EndDateTime: "31.01.2024" });
    expect(chart(later, "IndividualSurveyScores").SurveyScoresByDates.map((s) => s.PatientId)).toEqual(["G1", "G2"]);
  });

  it("refuses questions that are equal, missing or of the wrong kind, and a preliminary question of nothing", async () => {
    const w = world();
    const d = await load(w);
    const weight = await questionId(w.db, w.a.heart, "Körpergewicht");
    const measured = await questionId(w.db, w.a.heart, "Zeitpunkt der Messung");
    const otherSurvey = await questionId(w.db, w.b.heart, "Systolischer Blutdruck");
    const numeric = chart(d, "NumericalRange");
    for (const body of [
      { QuestionId1: weight, QuestionId2: weight },
      { QuestionId1: weight },
      { QuestionId1: weight, QuestionId2: measured },
      { QuestionId1: weight, QuestionId2: otherSurvey },
      { QuestionId1: "x", QuestionId2: 1 },
    ])
      expect((await update(w, d, numeric, body)).status).toBe(400);
    expect((await update(w, d, chart(d, "DateTimeRange"), { QuestionId1: weight, QuestionId2: measured })).status).toBe(
      400,
    );
    expect((await update(w, d, chart(d, "AmountPerPreQuestion"), { AttributeId: 999999 })).status).toBe(400);
    expect((await update(w, d, chart(d, "SurveyResponsesOverTime"), { AttributeId: 1 })).status).toBe(400);
    expect((await w.call("editor", "POST", `${base}/${d.Id}/charts/add`, { ChartAddRequests: [] })).status).toBe(400);
    expect(
      (await w.call("editor", "POST", `${base}/${d.Id}/charts/add`, { ChartAddRequests: [{ ChartType: "Pie" }] }))
        .status,
    ).toBe(400);
    expect((await w.call("editor", "POST", `${base}/${d.Id}/charts/reorder/${numeric.Id}?newPosition=99`)).status).toBe(
      400,
    );
    expect((await w.call("editor", "DELETE", `${base}/${d.Id}/charts/999999`)).status).toBe(404);
  });

  it("draws the same charts over a benchmark survey with its own questions", async () => {
    const w = world();
    const d = await load(w);
    const res = await w.call("editor", "POST", `${base}/${d.Id}/benchmark/${w.b.heart}`, { Filters: {} });
    expect(res.status).toBe(200);
    const other = await json<Dashboard>(res);
    expect(other.SurveyId).toBe(w.b.heart);
    expect(other.Charts.map((c) => c.Id)).toEqual(d.Charts.map((c) => c.Id));
    expect(chart(other, "SurveyResponsesOverTime").ResponseCountsByDates).toEqual([{ Date: "2024-02-01", Count: 1 }]);
    expect(chart(other, "NumericalRange").RangeEntries).toEqual([
      { PatientId: "B1", Question1Value: 60, Question2Value: 110 },
    ]);
    expect(chart(other, "AmountPerPreQuestion").ResponseCountsByPreQuestionOptions.map((o) => o.Count)).toEqual([
      0, 1, 0,
    ]);
    expect((await w.call("editor", "POST", `${base}/${d.Id}/benchmark/${w.a.postop}`, {})).status).toBe(400);
  });

  it("lets only the survey's analysts read and change the dashboard", async () => {
    const w = world();
    const d = await load(w);
    const first = d.Charts[0];
    expect((await w.call("nobody", "POST", `${base}/get-by-survey-id/${w.a.heart}`, {})).status).toBe(401);
    expect((await w.call("user", "POST", `${base}/get-by-survey-id/${w.a.heart}`, {})).status).toBe(403);
    expect((await w.call("outsider", "POST", `${base}/get-by-survey-id/${w.a.heart}`, {})).status).toBe(403);
    expect((await w.call("user", "DELETE", `${base}/${d.Id}/charts/${first.Id}`)).status).toBe(403);
    expect(
      (
        await w.call("outsider", "POST", `${base}/${d.Id}/charts/add`, {
          ChartAddRequests: [{ ChartType: "NumericalRange" }],
        })
      ).status,
    ).toBe(403);
    expect((await w.call("editor", "DELETE", `${base}/999999/charts/${first.Id}`)).status).toBe(404);
    expect((await w.call("approver", "POST", `${base}/get-by-survey-id/${w.a.heart}`, {})).status).toBe(200);
  });

  it("reorders and deletes charts", async () => {
    const w = world();
    const d = await load(w);
    const last = d.Charts[d.Charts.length - 1];
    expect((await w.call("editor", "POST", `${base}/${d.Id}/charts/reorder/${last.Id}?newPosition=0`)).status).toBe(
      204,
    );
    const moved = await load(w);
    expect(moved.Charts.map((c) => c.Id)).toEqual([last.Id, ...d.Charts.slice(0, -1).map((c) => c.Id)]);
    expect(moved.Charts.map((c) => c.Sort)).toEqual(d.Charts.map((_, i) => i));
    expect((await w.call("editor", "DELETE", `${base}/${d.Id}/charts/${last.Id}`)).status).toBe(204);
    expect((await load(w)).Charts.map((c) => c.Id)).toEqual(d.Charts.slice(0, -1).map((c) => c.Id));
  });
});
