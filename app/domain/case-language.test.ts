import { describe, expect, it } from "vitest";
import { caseLanguageOf, caseLanguages, defaultCaseLanguage, isCaseLanguage } from "./case-language";

const survey = { SourceLanguage: "de" as const, Languages: ["tr" as const, "ar" as const] };

describe("a case's language", () => {
  it("is one of the survey's: its source language first, then those offered", () => {
    expect(caseLanguages(survey)).toEqual(["de", "tr", "ar"]);
    expect(isCaseLanguage(survey, "ar")).toBe(true);
    expect(isCaseLanguage(survey, "pl")).toBe(false);
    expect(isCaseLanguage(survey, "xx")).toBe(false);
  });

  it("starts as the staff's interface language where the survey has it, else as the source language", () => {
    expect(defaultCaseLanguage(survey, "de-DE")).toBe("de");
    expect(defaultCaseLanguage(survey, "en-US")).toBe("de");
    expect(defaultCaseLanguage({ SourceLanguage: "tr", Languages: ["en"] }, "en-US")).toBe("en");
    expect(defaultCaseLanguage({ SourceLanguage: "tr", Languages: ["en"] }, "de-DE")).toBe("tr");
  });

  it("reads a case from before languages, or one in a language no longer offered, as the source language", () => {
    expect(caseLanguageOf(survey, null)).toBe("de");
    expect(caseLanguageOf(survey, undefined)).toBe("de");
    expect(caseLanguageOf(survey, "pl")).toBe("de");
    expect(caseLanguageOf(survey, "ar")).toBe("ar");
    // A survey kept on a device before languages: German, as it was written.
    expect(caseLanguages({})).toEqual(["de"]);
    expect(caseLanguageOf({}, "tr")).toBe("de");
  });
});
