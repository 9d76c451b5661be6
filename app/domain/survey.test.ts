import { describe, expect, it } from "vitest";
import { AnswerOptionSchema, answerText } from "./survey";

const fields = {
  Id: 3,
  QuestionId: 2,
  SurveyId: 1,
  Value: null,
  IsExitAnswer: false,
  Weight: null,
  WeightingState: 2,
  Sort: 0,
  X: null,
  Y: null,
  Score: null,
  System: null,
  SubQuestions: [],
};

describe("answer options", () => {
  it("are answers with a Text or image markers with a Title", () => {
    expect(AnswerOptionSchema.parse({ ...fields, Text: "Ja" })).toEqual({ ...fields, Text: "Ja" });
    const marker = { ...fields, Title: "Knie", X: 0.2, Y: 0.7 };
    expect(AnswerOptionSchema.parse(marker)).toEqual(marker);
    expect(AnswerOptionSchema.safeParse(fields).success).toBe(false);
    const scored = {
      ...fields,
      Text: "an mehr als der Hälfte der Tage",
      Value: "LA18105-2",
      Score: 2,
      System: "http://loinc.org",
    };
    expect(AnswerOptionSchema.parse(scored)).toEqual(scored);
  });
  it("read an answer kept offline before answers had a score as one without", () => {
    const { Score: _score, System: _system, ...before } = { ...fields, Text: "Ja" };
    expect(AnswerOptionSchema.parse(before)).toEqual({ ...before, Score: null, System: null });
  });
  it("say their Title or their Text, also as a survey kept offline before markers had a Title stored them", () => {
    expect(answerText({ ...fields, Text: "Ja" })).toBe("Ja");
    expect(answerText({ ...fields, Title: "Knie" })).toBe("Knie");
    const keptOffline = { ...fields, X: 0.2, Y: 0.7, Text: "Knie" };
    expect(answerText(keptOffline)).toBe("Knie");
  });
});
