import { describe, expect, it } from "vitest";
import { preliminaryComplete, reachablePage, type FillPage } from "./fill-pages";

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
