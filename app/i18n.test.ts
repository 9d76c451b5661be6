import { afterEach, describe, expect, it } from "vitest";
import { addLocale, textsOf, translate } from "./i18n";
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

describe("textsOf", () => {
  addLocale("ar", {
    files_zero: "لا ملفات",
    files_two: "ملفان",
    files_few: "{{count}} ملفات",
    files_other: "{{count}} ملف",
  });

  afterEach(() => {
    reported.length = 0;
  });

  it("picks a count's form in the language's rules, and the none form for zero where there is one", () => {
    const t = textsOf("ar", null);
    expect(t("files", { count: 0 })).toBe("لا ملفات");
    expect(t("files", { count: 2 })).toBe("ملفان");
    expect(t("files", { count: 5 })).toBe("5 ملفات");
    expect(t("files", { count: 100 })).toBe("100 ملف");
    const de = textsOf("de-DE", null);
    expect(de("surveyImport.categories", { count: 0 })).toBe("0 Kategorien");
    expect(de("surveyImport.categories", { count: 1 })).toBe("1 Kategorie");
  });

  it("falls back to the fallback's text, and only a text found nowhere is reported", () => {
    onMissingText(collect);
    const t = textsOf("en-US", "de-DE");
    expect(t("surveyImport.summary", { categories: "x" })).toBe("mit x");
    expect(reported).toEqual([]);
    expect(textsOf("en-US", null)("surveyImport.summary")).toBe("surveyImport.summary");
    expect(t("surveyImport.nowhere", { defaultValue: "{{name}} fehlt", name: "A" })).toBe("A fehlt");
    expect(reported).toEqual(["en-US surveyImport.summary", "en-US surveyImport.nowhere"]);
  });

  it("writes each value where it is named, and nothing for a value not given", () => {
    const t = textsOf("de-DE", null);
    expect(t("surveyImport.summary", { categories: 3 })).toBe("mit 3");
    expect(t("surveyImport.summary", { categories: null })).toBe("mit ");
    expect(t("surveyImport.summary")).toBe("mit ");
  });
});
