import { describe, expect, it } from "vitest";
import type { Survey } from "~/domain/survey";
import { question } from "~/offline/test-support";
import { resumePlace } from "./fill-resume";

const survey = (parts: { intro?: boolean; preliminary?: boolean }) =>
  ({
    IntroText: parts.intro ? "<p>Willkommen</p>" : "",
    IsPatientFormEnabled: Boolean(parts.preliminary),
    PatientForm: parts.preliminary
      ? [
          { Id: 1, Enabled: true, AnswerOptions: [] },
          { Id: 2, Enabled: true, AnswerOptions: [] },
          { Id: 3, Enabled: false, AnswerOptions: [] },
        ]
      : [],
    Categories: [
      { Id: 10, Questions: [question(100, "FreeText")] },
      {
        Id: 20,
        Questions: [
          {
            ...question(200, "SingleSelection"),
            AnswerOptions: [{ Id: 201, SubQuestions: [question(210, "FreeText")] }],
          },
        ],
      },
      { Id: 30, Questions: [question(300, "Numerical")] },
    ],
  }) as unknown as Survey;

describe("where a reopened case goes on", () => {
  it("starts a case with nothing in it on its first page", () => {
    expect(resumePlace(survey({ intro: true, preliminary: true }), {}, {})).toEqual({
      page: "intro",
      categoryId: null,
    });
    expect(resumePlace(survey({}), {}, {})).toEqual({ page: "questionnaire", categoryId: null });
  });

  it("goes to the preliminary page while its answers are incomplete, past it when they are complete", () => {
    const s = survey({ intro: true, preliminary: true });
    expect(resumePlace(s, {}, { 1: 11 })).toEqual({ page: "preliminary", categoryId: null });
    // The disabled preliminary question is not asked.
    expect(resumePlace(s, {}, { 1: 11, 2: 21 })).toEqual({ page: "questionnaire", categoryId: null });
  });

  it("goes to the questionnaire at the last category with an answer, sub-questions included", () => {
    const s = survey({ intro: true, preliminary: true });
    expect(resumePlace(s, { 100: { TextResponse: "x" } }, {})).toEqual({ page: "questionnaire", categoryId: 10 });
    expect(resumePlace(s, { 100: { TextResponse: "x" }, 210: { TextResponse: "y" } }, { 1: 11 })).toEqual({
      page: "questionnaire",
      categoryId: 20,
    });
    // An emptied answer is no answer.
    expect(resumePlace(s, { 300: { TextResponse: " " } }, {})).toEqual({ page: "intro", categoryId: null });
  });
});
