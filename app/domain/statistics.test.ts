import { describe, expect, it } from "vitest";
import {
  csvField,
  csvLine,
  DEFAULT_SCORE_THRESHOLDS,
  neutraliseCsvCell,
  percentOf,
  roundAverage,
  roundScorePercentage,
  sanitiseFileName,
  scoreFlag,
  StatisticsFiltersSchema,
  uniqueFileName,
} from "./statistics";
import { wordFrequencies } from "./word-cloud";

describe("statistics rules", () => {
  it("rounds percentages to 2 decimals, averages to 2 and score percentages to 1", () => {
    expect(percentOf(1, 3)).toBe(33.33);
    expect(percentOf(2, 3)).toBe(66.67);
    expect(percentOf(1, 0)).toBe(0);
    expect(roundAverage(1.005)).toBe(1.01);
    expect(roundAverage(-2.345)).toBe(-2.35);
    expect(roundScorePercentage(66.666)).toBe(66.7);
  });

  it("flags scores by the thresholds, gray with too few answers", () => {
    const t = DEFAULT_SCORE_THRESHOLDS;
    expect(scoreFlag(49.9, 10, t)).toBe(1);
    expect(scoreFlag(50, 10, t)).toBe(2);
    expect(scoreFlag(74.9, 10, t)).toBe(2);
    expect(scoreFlag(75, 10, t)).toBe(3);
    expect(scoreFlag(100, 4, t)).toBe(4);
    expect(scoreFlag(null, 10, t)).toBe(4);
    expect(scoreFlag(10, 1, { RedBelow: 20, YellowBelow: 30, MinResponses: 1 })).toBe(1);
  });

  it("neutralises formula cells and quotes what needs it", () => {
    for (const s of ["=1+1", "+1", "-1", "@SUM(A1)", "\t=x"]) expect(neutraliseCsvCell(s)).toBe(`'${s}`);
    expect(neutraliseCsvCell("a=b")).toBe("a=b");
    expect(csvField('say "hi", =no')).toBe('"say ""hi"", =no"');
    expect(csvField("=cmd|' /C calc'!A0")).toBe("'=cmd|' /C calc'!A0");
    expect(csvField(-1.5, ";")).toBe("-1,5");
    expect(csvField(-1.5, ",")).toBe("-1.5");
    expect(csvLine(["a;b", null, 2], ";")).toBe('"a;b";;2\r\n');
  });

  it("makes file names safe", () => {
    expect(sanitiseFileName("../../etc/passwd")).toBe("etc_passwd");
    expect(sanitiseFileName('Umfrage: "Herz" 2026/07')).toBe("Umfrage_ _Herz_ 2026_07");
    expect(sanitiseFileName("..")).toBe("survey");
    expect(sanitiseFileName("CON")).toBe("_CON");
    expect(sanitiseFileName("a\u0000b\\c")).toBe("a_b_c");
    expect(sanitiseFileName("x".repeat(300)).length).toBe(100);
    const used = new Set<string>();
    expect([uniqueFileName("a.pdf", used), uniqueFileName("A.pdf", used)]).toEqual(["a.pdf", "A (2).pdf"]);
  });

  it("parses filters with dates and preliminary selections", () => {
    const ok = StatisticsFiltersSchema.parse({
      PreliminaryQuestionsSelection: { "12": [3] },
      StartDateTime: "01.02.2026",
    });
    expect(ok.PreliminaryQuestionsSelection).toEqual({ "12": [3] });
    expect(StatisticsFiltersSchema.safeParse({ StartDateTime: "2026-02-01" }).success).toBe(false);
    expect(StatisticsFiltersSchema.safeParse({ PreliminaryQuestionsSelection: { x: [1] } }).success).toBe(false);
  });

  it("counts words without German and English stop words", () => {
    const cloud = wordFrequencies(["Der Schmerz ist stark", "the pain and der Schmerz", "Schmerz 12 x"]);
    expect(cloud).toEqual([
      { Text: "schmerz", Count: 3 },
      { Text: "pain", Count: 1 },
      { Text: "stark", Count: 1 },
    ]);
  });
});
