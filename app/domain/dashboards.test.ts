import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  chartLabel,
  ChartUpdateSchema,
  isPreQuestionChart,
  isRangeChart,
  quantile,
  quantileOfCounts,
  quarterOf,
  supportedChartTypes,
} from "./dashboards";

describe("quantile", () => {
  it("interpolates linearly between the closest ranks", () => {
    const sorted = [1, 2, 3, 4];
    expect(quantile(sorted, 0)).toBe(1);
    expect(quantile(sorted, 1)).toBe(4);
    expect(quantile(sorted, 0.5)).toBe(2.5);
    expect(quantile(sorted, 0.25)).toBe(1.75);
    expect(quantile(sorted, 0.75)).toBe(3.25);
    expect(quantile([10, 20, 30, 40, 50], 0.5)).toBe(30);
  });
  it("is null for no values and the value itself for one", () => {
    expect(quantile([], 0.5)).toBeNull();
    expect(quantile([7], 0.25)).toBe(7);
  });
});

describe("quantileOfCounts", () => {
  it("reads the same quantiles from counted values as from the list they count", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 12 }), { maxLength: 60 }), (values) => {
        const sorted = [...values].sort((a, b) => a - b);
        const counts = new Map<number, number>();
        for (const v of sorted) counts.set(v, (counts.get(v) ?? 0) + 1);
        const counted = [...counts].map(([score, n]) => ({ score, n }));
        for (const p of [0, 0.25, 0.5, 0.75, 1]) expect(quantileOfCounts(counted, p)).toBe(quantile(sorted, p));
      }),
    );
  });
  it("is null for no values", () => {
    expect(quantileOfCounts([], 0.5)).toBeNull();
    expect(quantileOfCounts([{ score: 3, n: 4 }], 0.75)).toBe(3);
  });
});

describe("chart labels and quarters", () => {
  it("keeps labels of up to 15 characters and cuts longer ones to 14 and an ellipsis", () => {
    expect(chartLabel("Fünfzehn Zeich.")).toBe("Fünfzehn Zeich.");
    expect(chartLabel("Sechzehn Zeichen")).toBe("Sechzehn Zeich…");
    expect(chartLabel("Sechzehn Zeichen")).toHaveLength(15);
    expect(chartLabel("")).toBe("");
  });
  it("names the quarter of a day", () => {
    expect(quarterOf("2024-01-01")).toBe("2024-Q1");
    expect(quarterOf("2024-03-31")).toBe("2024-Q1");
    expect(quarterOf("2024-04-01")).toBe("2024-Q2");
    expect(quarterOf("2024-09-30")).toBe("2024-Q3");
    expect(quarterOf("2025-12-31")).toBe("2025-Q4");
  });
});

describe("chart types", () => {
  it("lists the eight types with their default plots and locale keys", () => {
    expect(Object.fromEntries(supportedChartTypes.map((t) => [t.type, t.plot]))).toEqual({
      SurveyResponsesOverTime: "BarChart",
      IndividualSurveyScores: "LineChart",
      ScoreResultsOverTime: "LineChart",
      AmountPerPreQuestion: "BarChart",
      ScorePlotPerPreQuestion: "BoxPlot",
      CategoryWithActualAndMaxScores: "RadarChart",
      NumericalRange: "LineChart",
      DateTimeRange: "LineChart",
    });
    expect(supportedChartTypes[0].nameKey).toBe("statistics.graphs.types.SurveyResponsesOverTime.name");
  });
  it("tells range and preliminary-question charts apart", () => {
    expect(supportedChartTypes.filter((t) => isRangeChart(t.type)).map((t) => t.type)).toEqual([
      "NumericalRange",
      "DateTimeRange",
    ]);
    expect(supportedChartTypes.filter((t) => isPreQuestionChart(t.type)).map((t) => t.type)).toEqual([
      "AmountPerPreQuestion",
      "ScorePlotPerPreQuestion",
    ]);
  });
  it("accepts an update without filters and refuses ids that are not positive", () => {
    expect(ChartUpdateSchema.parse({ AttributeId: 3 })).toEqual({ AttributeId: 3, Filters: {} });
    expect(ChartUpdateSchema.safeParse({ QuestionId1: 0 }).success).toBe(false);
  });
});
