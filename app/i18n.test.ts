import { afterEach, describe, expect, it } from "vitest";
import { addLocale, translate } from "./i18n";
import { onMissingText, reportMissingText } from "./missing-texts";

addLocale("de-DE", {
  surveyImport: {
    summary: "mit {{categories}}",
    categories_one: "{{count}} Kategorie",
    categories_other: "{{count}} Kategorien",
  },
});
addLocale("en-US", {
  surveyImport: { categories_one: "{{count}} category", categories_other: "{{count}} categories" },
});

const reported: string[] = [];
const collect = (locale: string, key: string) => void reported.push(`${locale} ${key}`);

describe("translate", () => {
  afterEach(() => {
    reported.length = 0;
  });

  it("gives a count its plural form in the language's rules", () => {
    expect(translate("de-DE", "surveyImport.categories", { count: "1" })).toBe("1 Kategorie");
    expect(translate("de-DE", "surveyImport.categories", { count: "0" })).toBe("0 Kategorien");
    expect(translate("en-US", "surveyImport.categories", { count: "3" })).toBe("3 categories");
    expect(
      translate("de-DE", "surveyImport.summary", {
        categories: translate("de-DE", "surveyImport.categories", { count: "1" }),
      }),
    ).toBe("mit 1 Kategorie");
  });

  it("reports a text the locale files lack, and shows its key rather than nothing", () => {
    onMissingText(collect);
    expect(translate("en-US", "surveyImport.nowhere")).toBe("surveyImport.nowhere");
    expect(translate("en-US", "surveyImport.nowhere", { count: "2" })).toBe("surveyImport.nowhere");
    expect(translate("de-DE", "surveyImport.summary", { categories: "x" })).toBe("mit x");
    expect(reported).toEqual(["en-US surveyImport.nowhere", "en-US surveyImport.nowhere_other"]);
    reportMissingText("de-DE", "start.retentionMonths");
    expect(reported.at(-1)).toBe("de-DE start.retentionMonths");
  });
});
