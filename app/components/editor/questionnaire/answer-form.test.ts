import { describe, expect, it } from "vitest";
import { UpdateAnswerOptionSchema } from "~/domain/editing";
import type { ChoiceAnswerOption, Question } from "~/domain/survey";
import { chooseWeight, chooseWeightingState, initialAnswerDraft, updateAnswerBody } from "./answer-form";
import { AnswerFormSchema, AnswerTextFormSchema } from "~/domain/editor-forms";
import { parseForm } from "~/domain/forms";

const answer = (over: Partial<ChoiceAnswerOption> = {}): ChoiceAnswerOption => ({
  Id: 70,
  QuestionId: 40,
  SurveyId: 1,
  Text: "Ja",
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
  ...over,
});

const question = (IsTestQuestion: boolean): Question => ({
  Id: 40,
  CategoryId: 3,
  SurveyId: 1,
  ParentAnswerOptionId: null,
  Title: "Frage",
  Type: "SingleSelection",
  Sort: 0,
  AllowFileAttachments: false,
  AllowMultipleAnswers: false,
  Unit: null,
  IsTestQuestion,
  ImageSrc: null,
  Dependence: null,
  Hint: null,
  Codes: [],
  AnswerOptions: [],
});

describe("weighting choices", () => {
  it("gives weight 1 when correct is chosen and none otherwise", () => {
    const draft = initialAnswerDraft();
    expect(draft).toEqual({ text: "", exit: false, state: 2, weight: null, score: "" });
    const correct = chooseWeightingState(draft, 1);
    expect(correct.weight).toBe(1);
    expect(chooseWeightingState({ ...correct, weight: 3 }, 0)).toMatchObject({ state: 0, weight: null });
  });
  it("takes a weight 1..3 only for a correct answer", () => {
    const correct = chooseWeightingState(initialAnswerDraft(), 1);
    expect(chooseWeight(correct, 3).weight).toBe(3);
    expect(chooseWeight(correct, 4).weight).toBe(1);
    expect(chooseWeight(initialAnswerDraft(), 2).weight).toBeNull();
  });
  it("reads a stored correct answer without weight as weight 1", () => {
    expect(initialAnswerDraft(answer({ WeightingState: 1, Weight: null })).weight).toBe(1);
    expect(initialAnswerDraft(answer({ WeightingState: 0, Weight: 2 })).weight).toBeNull();
  });
});

describe("the answer text's schema", () => {
  const check = (text: string) => {
    const form = new FormData();
    form.set("text", text);
    return parseForm(form, AnswerTextFormSchema).reply().error;
  };
  it("requires a text, at most 500 characters, each with its own message", () => {
    expect(check("  ")).toEqual({ text: ["questionModal.answerTextRequired"] });
    expect(check("")).toEqual({ text: ["questionModal.answerTextRequired"] });
    expect(check("x".repeat(501))).toEqual({ text: ["questionModal.answerTextTooLong"] });
    expect(check("Nein")).toBeUndefined();
  });
});

describe("updateAnswerBody", () => {
  const stored = answer({ WeightingState: 1, Weight: 2 });
  it("is null when nothing changed", () => {
    expect(updateAnswerBody(question(true), stored, initialAnswerDraft(stored), 1)).toBeNull();
  });
  it("sends only the changed fields, the weighting as a pair", () => {
    const draft = { ...initialAnswerDraft(stored), text: "Ja, sicher" };
    expect(updateAnswerBody(question(true), stored, draft, 1)).toEqual({ SurveyId: 1, Text: "Ja, sicher" });
    const weight = chooseWeight(initialAnswerDraft(stored), 3);
    const body = updateAnswerBody(question(true), stored, weight, 1);
    expect(body).toEqual({ SurveyId: 1, WeightingState: 1, Weight: 3 });
    expect(UpdateAnswerOptionSchema.safeParse(body).success).toBe(true);
    const notWeighted = chooseWeightingState(initialAnswerDraft(stored), 2);
    const cleared = updateAnswerBody(question(true), stored, notWeighted, 1);
    expect(cleared).toEqual({ SurveyId: 1, WeightingState: 2, Weight: null });
    expect(UpdateAnswerOptionSchema.safeParse(cleared).success).toBe(true);
  });
  it("ignores the weighting of an answer of a question that is not a test question", () => {
    const draft = chooseWeightingState(initialAnswerDraft(stored), 0);
    expect(updateAnswerBody(question(false), stored, draft, 1)).toBeNull();
  });
});

describe("the answer's score", () => {
  const check = (score: string) => {
    const form = new FormData();
    form.set("text", "Ja");
    form.set("score", score);
    return parseForm(form, AnswerFormSchema).reply().error;
  };
  it("takes a decimal comma or point, a sign and up to 4 decimals; empty is no score", () => {
    for (const ok of ["", "0", "3", "1,5", "-2.25", "9999", "0,0001"]) expect(check(ok), ok).toBeUndefined();
    for (const bad of ["drei", "1.000,5", "10000", "0,00001", "1,2,3"]) {
      expect(check(bad), bad).toEqual({ score: ["questionModal.scoreInvalid"] });
    }
  });
  it("is shown in the language's way and sent only when it changed, 0 as a score and empty as none", () => {
    const scored = answer({ Score: 1.5 });
    expect(initialAnswerDraft(scored, "de-DE").score).toBe("1,5");
    expect(initialAnswerDraft(scored, "en-US").score).toBe("1.5");
    expect(updateAnswerBody(question(false), scored, initialAnswerDraft(scored, "de-DE"), 1)).toBeNull();
    const zero = updateAnswerBody(question(false), scored, { ...initialAnswerDraft(scored), score: "0" }, 1);
    expect(zero).toEqual({ SurveyId: 1, Score: 0 });
    const none = updateAnswerBody(question(false), scored, { ...initialAnswerDraft(scored), score: " " }, 1);
    expect(none).toEqual({ SurveyId: 1, Score: null });
    for (const body of [zero, none]) expect(UpdateAnswerOptionSchema.safeParse(body).success).toBe(true);
  });
  it("stays apart from a test question's weighting", () => {
    const correct = answer({ WeightingState: 1, Weight: 3 });
    const draft = { ...initialAnswerDraft(correct), score: "2" };
    expect(updateAnswerBody(question(true), correct, draft, 1)).toEqual({ SurveyId: 1, Score: 2 });
  });
});
