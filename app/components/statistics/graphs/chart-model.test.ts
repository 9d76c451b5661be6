import { describe, expect, it } from "vitest";
import type { Chart, ChartType, Dashboard } from "~/domain/dashboards";
import { axesOf, chartModel, choicesFor, figureText, namesOf, needsChoice } from "./chart-model";

const chart = (ChartType: ChartType, data: Partial<Chart> = {}): Chart => ({
  Id: 1,
  ChartType,
  PlotType: "LineChart",
  AttributeId: null,
  QuestionId1: null,
  QuestionId2: null,
  Sort: 0,
  RangeEntries: [],
  RangeEntriesTotal: 0,
  ResponseCountsByDates: [],
  SurveyScoresByDates: [],
  AverageScoresByDates: [],
  ResponseCountsByPreQuestionOptions: [],
  ScorePlotByPreQuestionOptions: [],
  CategoryScores: [],
  ...data,
});

describe("chartModel", () => {
  it("draws nothing for a chart without data", () => {
    for (const type of ["SurveyResponsesOverTime", "IndividualSurveyScores", "NumericalRange"] as const)
      expect(chartModel(chart(type)).kind).toBe("none");
  });

  it("sums the responses into the four quarters of the latest year", () => {
    const model = chartModel(
      chart("SurveyResponsesOverTime", {
        ResponseCountsByDates: [
          { Date: "2023-12-31", Count: 9 },
          { Date: "2024-01-05", Count: 2 },
          { Date: "2024-03-31", Count: 3 },
          { Date: "2024-08-01", Count: 4 },
        ],
      }),
    );
    expect(model).toMatchObject({
      kind: "bar",
      points: [
        { label: "2024-Q1", value: 5 },
        { label: "2024-Q2", value: 0 },
        { label: "2024-Q3", value: 4 },
        { label: "2024-Q4", value: 0 },
      ],
    });
    if (model.kind !== "bar") throw new Error(model.kind);
    expect(model.table).toEqual({
      headers: ["quarter", "count"],
      rows: [
        ["2024-Q1", 5],
        ["2024-Q2", 0],
        ["2024-Q3", 4],
        ["2024-Q4", 0],
      ],
    });
  });

  it("lines up individual scores by case and average scores by day", () => {
    const scores = chartModel(
      chart("IndividualSurveyScores", {
        SurveyScoresByDates: [
          { PatientId: "A1", Date: "2024-01-01", Score: 3, MaxScore: 5 },
          { PatientId: "A2", Date: "2024-01-02", Score: 4, MaxScore: 5 },
        ],
      }),
    );
    expect(scores).toMatchObject({
      kind: "line",
      points: [
        { label: "A1", value: 3 },
        { label: "A2", value: 4 },
      ],
    });
    const averages = chartModel(
      chart("ScoreResultsOverTime", { AverageScoresByDates: [{ Date: "2024-01-01", AverageScore: 2.5, Count: 4 }] }),
    );
    expect(averages).toMatchObject({
      kind: "line",
      points: [{ label: "2024-01-01", value: 2.5 }],
      table: { headers: ["date", "average", "count"], rows: [["2024-01-01", 2.5, 4]] },
    });
  });

  it("draws boxes only for answers with scores but lists every answer in the figures", () => {
    const model = chartModel(
      chart("ScorePlotPerPreQuestion", {
        ScorePlotByPreQuestionOptions: [
          { OptionId: 1, OptionText: "ja", Count: 3, Min: 0, Q1: 1, Median: 2, Q3: 3, Max: 4 },
          { OptionId: 2, OptionText: "nein", Count: 0, Min: null, Q1: null, Median: null, Q3: null, Max: null },
        ],
      }),
    );
    if (model.kind !== "box") throw new Error(model.kind);
    expect(model.boxes).toEqual([{ label: "ja", min: 0, q1: 1, median: 2, q3: 3, max: 4 }]);
    expect(model.table.rows).toEqual([
      ["ja", 3, 0, 1, 2, 3, 4],
      ["nein", 0, null, null, null, null, null],
    ]);
    const none = chartModel(
      chart("ScorePlotPerPreQuestion", {
        ScorePlotByPreQuestionOptions: [
          { OptionId: 2, OptionText: "nein", Count: 0, Min: null, Q1: null, Median: null, Q3: null, Max: null },
        ],
      }),
    );
    expect(none.kind).toBe("none");
  });

  it("draws category scores as radar spokes and counts per answer as bars", () => {
    expect(
      chartModel(
        chart("CategoryWithActualAndMaxScores", {
          CategoryScores: [{ CategoryId: 1, CategoryText: "Atmung", ActualScore: 1.5, MaxScore: 3 }],
        }),
      ),
    ).toMatchObject({ kind: "radar", axes: [{ label: "Atmung", actual: 1.5, max: 3 }] });
    expect(
      chartModel(
        chart("AmountPerPreQuestion", {
          ResponseCountsByPreQuestionOptions: [{ OptionId: 1, OptionText: "weiblich", Count: 7 }],
        }),
      ),
    ).toMatchObject({ kind: "bar", points: [{ label: "weiblich", value: 7 }] });
  });

  it("draws a numerical range as one point per case at its two values, the figures in their order", () => {
    const model = chartModel(
      chart("NumericalRange", {
        RangeEntries: [
          { PatientId: "B", Question1Value: 80, Question2Value: 180 },
          { PatientId: "A", Question1Value: 60.5, Question2Value: 160 },
        ],
      }),
    );
    if (model.kind !== "scatter") throw new Error(model.kind);
    expect(model.dates).toBe(false);
    expect(model.points).toEqual([
      { x: 80, y: 180 },
      { x: 60.5, y: 160 },
    ]);
    expect(model.table.rows.map((r) => r[0])).toEqual(["B", "A"]);
  });

  it("draws a date range's points at their wall-clock times", () => {
    const model = chartModel(
      chart("DateTimeRange", {
        RangeEntries: [
          { PatientId: "B", Question1Value: "2024-01-03T00:00", Question2Value: "2024-01-04T12:00" },
          { PatientId: "A", Question1Value: "2024-01-01T00:00", Question2Value: "2024-01-02T00:00" },
        ],
      }),
    );
    if (model.kind !== "scatter") throw new Error(model.kind);
    expect(model.dates).toBe(true);
    expect(model.points).toEqual([
      { x: Date.UTC(2024, 0, 3), y: Date.UTC(2024, 0, 4, 12) },
      { x: Date.UTC(2024, 0, 1), y: Date.UTC(2024, 0, 2) },
    ]);
  });
});

describe("axes and figures", () => {
  it("gives every chart but the radar two axes, the choosing ones their question's", () => {
    expect(axesOf("SurveyResponsesOverTime")).toEqual({ x: "quarter", y: "completed" });
    expect(axesOf("AmountPerPreQuestion")).toEqual({ x: "preQuestion", y: "completed" });
    expect(axesOf("ScorePlotPerPreQuestion")).toEqual({ x: "preQuestion", y: "score" });
    expect(axesOf("NumericalRange")).toEqual({ x: "question1", y: "question2" });
    expect(axesOf("CategoryWithActualAndMaxScores")).toBeNull();
  });

  it("names the chosen preliminary question and questions, with their units", () => {
    const choices: Dashboard["Choices"] = {
      NumericalQuestions: [
        { Id: 1, Title: "Wundfläche", Unit: "cm²" },
        { Id: 2, Title: "Schmerz", Unit: null },
      ],
      DateTimeQuestions: [],
      PreliminaryQuestions: [{ Id: 3, Title: "Art der Wunde" }],
    };
    expect(namesOf(chart("AmountPerPreQuestion", { AttributeId: 3 }), choices).preQuestion).toBe("Art der Wunde");
    expect(namesOf(chart("NumericalRange", { QuestionId1: 1, QuestionId2: 2 }), choices)).toMatchObject({
      question1: { Title: "Wundfläche", Unit: "cm²" },
      question2: { Title: "Schmerz", Unit: null },
    });
  });

  it("writes figures as the interface does: decimal comma in German, days as DD.MM.YYYY", () => {
    expect(figureText(2.5, "de-DE")).toBe("2,5");
    expect(figureText(2.5, "en-US")).toBe("2.5");
    expect(figureText("2024-01-05", "en-US")).toBe("05.01.2024");
    expect(figureText("2024-01-05T08:30", "de-DE")).toBe("05.01.2024 08:30");
    expect(figureText("2024-Q1", "de-DE")).toBe("2024-Q1");
    expect(figureText(null, "de-DE")).toBe("–");
  });
});

describe("choices", () => {
  const choices: Dashboard["Choices"] = {
    NumericalQuestions: [{ Id: 1, Title: "Gewicht" }],
    DateTimeQuestions: [{ Id: 2, Title: "Beginn" }],
    PreliminaryQuestions: [{ Id: 3, Title: "Station" }],
  };
  it("offers the questions of the chart's kind", () => {
    expect(choicesFor(chart("NumericalRange"), choices)).toBe(choices.NumericalQuestions);
    expect(choicesFor(chart("DateTimeRange"), choices)).toBe(choices.DateTimeQuestions);
    expect(choicesFor(chart("AmountPerPreQuestion"), choices)).toBe(choices.PreliminaryQuestions);
  });
  it("waits for two questions on a range chart and one preliminary question on the others that need it", () => {
    expect(needsChoice(chart("NumericalRange", { QuestionId1: 1 }))).toBe(true);
    expect(needsChoice(chart("NumericalRange", { QuestionId1: 1, QuestionId2: 4 }))).toBe(false);
    expect(needsChoice(chart("ScorePlotPerPreQuestion"))).toBe(true);
    expect(needsChoice(chart("ScorePlotPerPreQuestion", { AttributeId: 3 }))).toBe(false);
    expect(needsChoice(chart("SurveyResponsesOverTime"))).toBe(false);
  });
});
