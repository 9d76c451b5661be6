import { describe, expect, it } from "vitest";
import {
  caseTotal,
  isScore,
  optionScoreUnits,
  scoreText,
  TOTAL_BARS,
  totalFigures,
  typedScore,
  type ScoredSurvey,
} from "./scores";

type Option = { Id: number; Score: number | null; SubQuestions: Q[] };
type Q = { Id: number; AnswerOptions: Option[] };

/** A question whose options score 0, 1, 2, 3 (PHQ-9's "not at all" … "nearly every day"), ids from `first`. */
const item = (id: number, first: number): Q => ({
  Id: id,
  AnswerOptions: [0, 1, 2, 3].map((score, i) => ({ Id: first + i, Score: score, SubQuestions: [] })),
});

const survey = (over: Partial<ScoredSurvey> = {}): ScoredSurvey => ({
  ScoreTitle: "PHQ-9",
  Categories: [
    { Questions: [item(1, 10), item(2, 20)] },
    {
      Questions: [
        {
          // A multiple choice: every chosen answer adds; an answer without a score adds nothing; a
          // sub-question's answers count too.
          Id: 3,
          AnswerOptions: [
            { Id: 30, Score: 0.1, SubQuestions: [] },
            { Id: 31, Score: 0.2, SubQuestions: [] },
            {
              Id: 32,
              Score: null,
              SubQuestions: [{ Id: 4, AnswerOptions: [{ Id: 40, Score: -1.5, SubQuestions: [] }] }],
            },
          ],
        },
      ],
    },
  ],
  ...over,
});

describe("caseTotal", () => {
  it("adds the scores of the chosen answers, every answer of a multiple choice", () => {
    expect(caseTotal(survey(), [13, 21])).toBe(4);
    expect(caseTotal(survey(), [11, 22, 30, 31])).toBe(3.3);
    expect(caseTotal(survey(), [32, 40, 12])).toBe(0.5);
  });
  it("is exact in decimals: 0.1 + 0.2 is 0.3", () => {
    expect(caseTotal(survey(), [30, 31])).toBe(0.3);
  });
  it("counts 0 as a score, and is null when no chosen answer has one", () => {
    expect(caseTotal(survey(), [10, 20])).toBe(0);
    expect(caseTotal(survey(), [32])).toBeNull();
    expect(caseTotal(survey(), [])).toBeNull();
    // An id that is no answer of the survey (a question removed since) adds nothing.
    expect(caseTotal(survey(), [999])).toBeNull();
  });
  it("is null for every case of a survey without a ScoreTitle", () => {
    expect(caseTotal(survey({ ScoreTitle: null }), [13, 21])).toBeNull();
    expect(optionScoreUnits(survey({ ScoreTitle: "" })).size).toBe(0);
  });
  it("works with the scores in ten-thousandths, the database's sums alike", () => {
    const units = optionScoreUnits(survey());
    expect(units.get(31)).toBe(2000);
    expect(units.get(40)).toBe(-15000);
    expect(units.has(32)).toBe(false);
    expect(units.size).toBe(11);
  });
});

describe("a typed score", () => {
  it("takes a comma or a point, a sign, up to 4 decimals, from -9999 to 9999; empty is none", () => {
    expect(typedScore("")).toEqual({ ok: true, score: null });
    expect(typedScore("  ")).toEqual({ ok: true, score: null });
    expect(typedScore("0")).toEqual({ ok: true, score: 0 });
    expect(typedScore("-0")).toEqual({ ok: true, score: 0 });
    expect(Object.is((typedScore("-0") as { score: number }).score, 0)).toBe(true);
    expect(typedScore("1,5")).toEqual({ ok: true, score: 1.5 });
    expect(typedScore(" 2.25 ")).toEqual({ ok: true, score: 2.25 });
    expect(typedScore("\u22123")).toEqual({ ok: true, score: -3 });
    expect(typedScore("+4")).toEqual({ ok: true, score: 4 });
    expect(typedScore(",5")).toEqual({ ok: true, score: 0.5 });
    expect(typedScore("-9999")).toEqual({ ok: true, score: -9999 });
    expect(typedScore("0,1234")).toEqual({ ok: true, score: 0.1234 });
    for (const bad of ["0,12345", "10000", "-9999.5", "1e3", "1.000,5", "1 000", "zwei", "Infinity", "NaN", ","]) {
      expect(typedScore(bad), bad).toEqual({ ok: false });
    }
  });
  it("checks a number as the API does", () => {
    expect([0, 3, -2.5, 0.0001, 9999].every(isScore)).toBe(true);
    expect([NaN, Infinity, 10000, 0.00001, 1 / 3].some(isScore)).toBe(false);
  });
  it("is written back in the language's way, without grouping", () => {
    expect(scoreText(1.5, "de-DE")).toBe("1,5");
    expect(scoreText(1234.5, "de-DE")).toBe("1234,5");
    expect(scoreText(0.1234, "en-US")).toBe("0.1234");
    expect(scoreText(0, "de-DE")).toBe("0");
    expect(scoreText(null, "de-DE")).toBe("");
  });
});

describe("the totals' figures", () => {
  const units = (entries: [number, number][]) => new Map(entries.map(([total, n]) => [total * 10_000, n]));

  it("say how many cases have a total, mean (2 decimals), median, minimum and maximum", () => {
    // Totals 3, 4, 4, 10: mean 5.25, median 4.
    const figures = totalFigures(
      units([
        [4, 2],
        [10, 1],
        [3, 1],
      ]),
    );
    expect(figures).toMatchObject({ Cases: 4, Mean: 5.25, Median: 4, Min: 3, Max: 10 });
    expect(figures.Distribution).toEqual([
      { From: 3, To: 3, Count: 1 },
      { From: 4, To: 4, Count: 2 },
      { From: 10, To: 10, Count: 1 },
    ]);
    // An odd number of cases: the middle one; 1, 2, 2: mean 1.67.
    expect(
      totalFigures(
        units([
          [1, 1],
          [2, 2],
        ]),
      ),
    ).toMatchObject({ Cases: 3, Mean: 1.67, Median: 2 });
    // Two middle totals: their mean.
    expect(
      totalFigures(
        units([
          [1, 1],
          [2, 1],
        ]),
      ).Median,
    ).toBe(1.5);
    expect(
      totalFigures(
        units([
          [-2.5, 1],
          [0.5, 1],
        ]),
      ),
    ).toMatchObject({ Mean: -1, Median: -1, Min: -2.5, Max: 0.5 });
  });
  it("are empty without cases", () => {
    expect(totalFigures(new Map())).toEqual({
      Cases: 0,
      Mean: null,
      Median: null,
      Min: null,
      Max: null,
      Distribution: [],
    });
    expect(totalFigures(units([[3, 0]])).Cases).toBe(0);
  });
  it("put many distinct totals into bands of a round width, from a multiple of it", () => {
    // 0.5, 1.5, … 99.5: 100 distinct totals, one case each, and two at 42.5.
    const many = units(Array.from({ length: 100 }, (_, i) => [i + 0.5, i === 42 ? 2 : 1] as [number, number]));
    const figures = totalFigures(many);
    expect(figures.Cases).toBe(101);
    expect(figures.Distribution.length).toBeLessThanOrEqual(TOTAL_BARS);
    expect(figures.Distribution[0]).toEqual({ From: 0, To: 5, Count: 5 });
    expect(figures.Distribution.find((b) => b.From === 40)).toEqual({ From: 40, To: 45, Count: 6 });
    expect(figures.Distribution.at(-1)).toEqual({ From: 95, To: 100, Count: 5 });
    expect(figures.Distribution.reduce((n, b) => n + b.Count, 0)).toBe(101);
  });
});
