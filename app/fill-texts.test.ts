import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { FILL_TEXT_PATHS, fillLocales, fillOnlyLanguages } from "~/domain/case-language";
import { contentLanguages } from "~/domain/languages";

type Table = Record<string, unknown>;
const read = (file: string) => JSON.parse(fs.readFileSync(file, "utf8")) as Table;

/** Every leaf key under a table, dotted ("fill.categoryStatus.empty"). */
function leaves(table: Table, prefix = ""): string[] {
  return Object.entries(table).flatMap(([key, value]) =>
    value && typeof value === "object" ? leaves(value as Table, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

const PLURAL = /_(zero|one|two|few|many|other)$/;

/** The fill words a language must have: the German table's keys under the fill paths, plurals by their stem. */
function fillKeys(table: Table): { plain: string[]; plurals: string[] } {
  const keys = leaves(table).filter((k) => FILL_TEXT_PATHS.some((p) => k === p || k.startsWith(`${p}.`)));
  return {
    plain: keys.filter((k) => !PLURAL.test(k)),
    plurals: [...new Set(keys.filter((k) => PLURAL.test(k)).map((k) => k.replace(PLURAL, "")))],
  };
}

const german = read("locales/de-DE/common.json");
const required = fillKeys(german);
const placeholders = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();
const lookUp = (table: Table, key: string) =>
  key.split(".").reduce<unknown>((node, part) => (node as Table | undefined)?.[part], table);

describe("the fill words of every content language", () => {
  it("cover the fill page: buttons, progress, messages, the exit confirmation, offline notices", () => {
    for (const key of ["fill.pageOf", "fill.exitText", "fill.language", "offline.fillKeptLocally", "errors.network"])
      expect(required.plain).toContain(key);
    expect(required.plurals).toContain("attachments.failedCount");
    // Staff-only words are not asked of the content languages.
    expect(required.plain).not.toContain("surveys.title");
    expect(required.plain).not.toContain("start.patientIdLabel");
    expect(required.plain).not.toContain("offline.syncAll");
  });

  for (const lang of contentLanguages) {
    const locale = fillLocales[lang];
    const file = fillOnlyLanguages.includes(lang) ? `locales/${locale}/fill.json` : `locales/${locale}/common.json`;

    it(`${lang}: ${file} has every fill word, each plural form its language needs, nothing else`, () => {
      const table = read(file);
      const english = read("locales/en-US/common.json");
      for (const key of required.plain) {
        const text = lookUp(table, key);
        expect(typeof text, `${lang} ${key}`).toBe("string");
        expect((text as string).trim(), `${lang} ${key}`).not.toBe("");
        expect(placeholders(text as string), `${lang} ${key}`).toEqual(placeholders(lookUp(german, key) as string));
        // Translated, not copied: a sentence the same as the English one is a gap (codes and formats aside).
        if (lang !== "en" && (lookUp(english, key) as string).split(" ").length > 3)
          expect(text, `${lang} ${key}`).not.toBe(lookUp(english, key));
      }
      const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
      for (const stem of required.plurals) {
        for (const category of categories)
          expect(typeof lookUp(table, `${stem}_${category}`), `${lang} ${stem}_${category}`).toBe("string");
      }
      if (fillOnlyLanguages.includes(lang)) {
        const asked = new Set([...required.plain, ...required.plurals]);
        const extra = leaves(table).filter((k) => !asked.has(k) && !asked.has(k.replace(PLURAL, "")));
        expect(extra, `${lang}: words no fill page shows`).toEqual([]);
      }
    });
  }

  it("Arabic has all six plural forms; Russian, Ukrainian and Polish have one, few, many and other", () => {
    expect(new Intl.PluralRules("ar").resolvedOptions().pluralCategories.sort()).toEqual([
      "few",
      "many",
      "one",
      "other",
      "two",
      "zero",
    ]);
    for (const locale of ["ru-RU", "uk-UA", "pl-PL"])
      expect(new Intl.PluralRules(locale).resolvedOptions().pluralCategories.sort()).toEqual([
        "few",
        "many",
        "one",
        "other",
      ]);
  });
});
