import { describe, expect, it } from "vitest";
import type { Category, Question } from "~/domain/survey";
import { rulesAffected } from "./rules-affected";

const question = (Id: number, Title: string, uses: number[] | null, subs: Question[] = []): Question =>
  ({
    Id,
    Title,
    Type: "SingleSelection",
    Dependence: uses ? { Type: "SHOW", PreliminaryAnswerOptions: uses } : null,
    AnswerOptions: [{ Id: Id * 100, Text: "a", SubQuestions: subs }],
  }) as unknown as Question;

const categories = [
  {
    Id: 1,
    Title: "A",
    Questions: [
      question(1, "Schwanger?", [11]),
      question(2, "Raucht?", [11, 12], [question(3, "Seit wann?", [12])]),
      question(4, "Ohne Regel", null),
    ],
  },
] as unknown as Category[];

describe("rulesAffected", () => {
  it("names every question, sub-questions too, whose rule uses a removed entry, and whether it loses it whole", () => {
    expect(rulesAffected(categories, [12])).toEqual([
      { questionId: 2, title: "Raucht?", whole: false },
      { questionId: 3, title: "Seit wann?", whole: true },
    ]);
    expect(rulesAffected(categories, [11, 12]).map((r) => [r.title, r.whole])).toEqual([
      ["Schwanger?", true],
      ["Raucht?", true],
      ["Seit wann?", true],
    ]);
  });

  it("names nothing when no rule uses the entries", () => {
    expect(rulesAffected(categories, [99])).toEqual([]);
    expect(rulesAffected(categories, [])).toEqual([]);
  });
});
