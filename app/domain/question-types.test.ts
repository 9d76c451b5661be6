import { describe, expect, it } from "vitest";
import {
  answerKind,
  isSelection,
  isSingleChoice,
  mayHoldSeveralOptions,
  questionTypes,
  takesSeveralOptions,
  type QuestionType,
} from "./question-types";

const q = (Type: QuestionType, AllowMultipleAnswers = false) => ({ Type, AllowMultipleAnswers });

describe("single against multiple choice", () => {
  it("names each kind's answer", () => {
    expect(questionTypes.map((t) => answerKind(q(t)))).toEqual([
      "single",
      "multiple",
      "number",
      "dateTime",
      "text",
      "single",
      "multiple",
    ]);
    expect(answerKind(q("Image", true))).toBe("multiple");
    // The setting only changes image questions: a single selection stays single.
    expect(answerKind(q("SingleSelection", true))).toBe("single");
  });

  it("derives one option, several options and the stored rows from that one rule", () => {
    expect(questionTypes.filter((t) => isSingleChoice(q(t)))).toEqual(["SingleSelection", "Image"]);
    expect(questionTypes.filter((t) => takesSeveralOptions(q(t, true)))).toEqual([
      "MultipleSelection",
      "Image",
      "MultipleChoice",
    ]);
    expect(questionTypes.filter(mayHoldSeveralOptions)).toEqual(["MultipleSelection", "Image", "MultipleChoice"]);
    expect(questionTypes.filter(isSelection)).toEqual(["SingleSelection", "MultipleSelection", "MultipleChoice"]);
  });
});
