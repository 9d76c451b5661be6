import { describe, expect, it } from "vitest";
import { nextPage, pagePosition, pagesOf, preliminaryComplete, reachablePage, type FillPage } from "./fill-pages";

describe("pagesOf", () => {
  const survey = (categories: number[][], intro = "", preliminary = 0, disabled = 0) => ({
    IntroText: intro,
    IsPatientFormEnabled: preliminary + disabled > 0,
    PatientForm: Array.from({ length: preliminary + disabled }, (_, i) => ({ Id: i + 1, Enabled: i < preliminary })),
    Categories: categories.map((questions) => ({ Questions: questions.map((Id) => ({ Id })) })),
  });
  it("counts the questionnaire only when one of its categories has a question, as the intro only with a text", () => {
    expect(pagesOf(survey([[1], []]))).toEqual(["questionnaire", "outro", "done"]);
    expect(pagesOf(survey([[], [], []]))).toEqual(["outro", "done"]);
    expect(pagesOf(survey([]))).toEqual(["outro", "done"]);
    expect(pagesOf(survey([[], []], "<p> </p>"))).toEqual(["outro", "done"]);
    expect(pagesOf(survey([[], []], "<p>Willkommen</p>", 1))).toEqual(["intro", "preliminary", "outro", "done"]);
  });
  it("counts the preliminary page only when one of its questions is enabled", () => {
    expect(pagesOf(survey([[1]], "", 0, 2))).toEqual(["questionnaire", "outro", "done"]);
    expect(pagesOf(survey([[1]], "<p>Willkommen</p>", 0, 1))).toEqual(["intro", "questionnaire", "outro", "done"]);
    expect(pagesOf(survey([[1]], "", 1, 1))).toEqual(["preliminary", "questionnaire", "outro", "done"]);
    const allDisabled = pagesOf(survey([[1]], "", 0, 2));
    expect(pagePosition("questionnaire", allDisabled)).toEqual({ index: 1, total: 2 });
  });
  it("says page 1 of 1 for a survey of empty categories, and goes on from the preliminary page to the outro", () => {
    const empty = pagesOf(survey([[], []]));
    expect(pagePosition(empty[0]!, empty)).toEqual({ index: 1, total: 1 });
    expect(pagePosition("outro", pagesOf(survey([[1], []])))).toEqual({ index: 2, total: 2 });
    expect(nextPage("preliminary", pagesOf(survey([[]], "", 1)))).toBe("outro");
    expect(nextPage("preliminary", pagesOf(survey([[1]], "", 1)))).toBe("questionnaire");
  });
});

describe("reachablePage", () => {
  const pages: FillPage[] = ["intro", "preliminary", "questionnaire", "outro", "done"];
  it("keeps a case on the preliminary page until every preliminary question is answered", () => {
    expect(reachablePage("questionnaire", pages, false)).toBe("preliminary");
    // A save for later goes on to the outro and the confirmation with questions still open.
    expect(reachablePage("outro", pages, false)).toBe("outro");
    expect(reachablePage("intro", pages, false)).toBe("intro");
    expect(reachablePage("questionnaire", pages, true)).toBe("questionnaire");
  });
  it("leaves the confirmation page and surveys without preliminary questions alone", () => {
    expect(reachablePage("done", pages, false)).toBe("done");
    expect(reachablePage("questionnaire", ["questionnaire", "outro", "done"], false)).toBe("questionnaire");
  });
});

describe("preliminaryComplete", () => {
  const survey = {
    PatientForm: [
      { Id: 1, Enabled: true },
      { Id: 2, Enabled: true },
      { Id: 3, Enabled: false },
    ],
  };
  it("asks every enabled preliminary question and no disabled one", () => {
    expect(preliminaryComplete(survey, {})).toBe(false);
    expect(preliminaryComplete(survey, { 1: 10 })).toBe(false);
    expect(preliminaryComplete(survey, { 1: 10, 2: 20 })).toBe(true);
    expect(preliminaryComplete(survey, { 1: 10, 3: 30 })).toBe(false);
    expect(preliminaryComplete({ PatientForm: [] }, {})).toBe(true);
  });
});
