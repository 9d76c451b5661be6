import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fillLocales, fillOnlyLanguages } from "~/domain/case-language";
import { cultures } from "~/domain/culture";
import { addLocale, mergeTables, textsOf as textsIn, type LocaleTable } from "~/i18n";

const dir = path.resolve("locales");
const folders = fs.readdirSync(dir).filter((d) => fs.statSync(path.join(dir, d)).isDirectory());
/** The interface's languages; the other folders hold a content language's fill words (app/fill-texts.test.ts). */
const locales: string[] = [...cultures];

function flatten(value: unknown, prefix = ""): string[] {
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k));
  }
  return [prefix];
}

function keysOf(locale: string) {
  const keys = new Map<string, string>();
  for (const file of fs.readdirSync(path.join(dir, locale)).filter((f) => f.endsWith(".json"))) {
    const json: unknown = JSON.parse(fs.readFileSync(path.join(dir, locale, file), "utf8"));
    for (const key of flatten(json)) keys.set(`${file}:${key}`, key);
  }
  return keys;
}

describe("locales", () => {
  it("German and English exist; every other language has only its fill words", () => {
    expect(folders.filter((f) => locales.includes(f)).sort()).toEqual(["de-DE", "en-US"]);
    const fillOnly = fillOnlyLanguages.map((l) => fillLocales[l]).sort();
    expect(folders.filter((f) => !locales.includes(f)).sort()).toEqual(fillOnly);
    for (const folder of fillOnly) expect(fs.readdirSync(path.join(dir, folder)), folder).toEqual(["fill.json"]);
  });

  it("every key of one locale exists in the other", () => {
    const [de, en] = [keysOf("de-DE"), keysOf("en-US")];
    expect([...de.keys()].filter((k) => !en.has(k))).toEqual([]);
    expect([...en.keys()].filter((k) => !de.has(k))).toEqual([]);
  });

  it("no text is empty and interpolations match", () => {
    for (const locale of locales) {
      for (const file of fs.readdirSync(path.join(dir, locale))) {
        const json: unknown = JSON.parse(fs.readFileSync(path.join(dir, locale, file), "utf8"));
        const walk = (v: unknown, at: string): void => {
          if (typeof v === "string") expect(v.trim(), `${locale}/${file}:${at}`).not.toBe("");
          else if (v && typeof v === "object") for (const [k, c] of Object.entries(v)) walk(c, `${at}.${k}`);
        };
        walk(json, "");
      }
    }
    const vars = (s: string) => [...s.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();
    const read = (l: string, file: string) => JSON.parse(fs.readFileSync(path.join(dir, l, file), "utf8")) as unknown;
    const get = (obj: unknown, key: string) =>
      key.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], obj);
    // Every part of the interface's texts: common.json, and those some pages load beside it.
    for (const file of fs.readdirSync(path.join(dir, "de-DE"))) {
      const de = read("de-DE", file);
      const en = read("en-US", file);
      for (const key of flatten(de)) {
        const a = get(de, key);
        const b = get(en, key);
        if (typeof a === "string" && typeof b === "string") expect(vars(b), `${file}:${key}`).toEqual(vars(a));
      }
    }
  });
});

/** Every text of a locale file, with its key. */
/** Every text of a language, from all its files (the common texts and the authoring ones). */
function textsOf(locale: string): [string, string][] {
  const out: [string, string][] = [];
  const walk = (v: unknown, at: string): void => {
    if (typeof v === "string") out.push([at, v]);
    else if (v && typeof v === "object") for (const [k, c] of Object.entries(v)) walk(c, at ? `${at}.${k}` : k);
  };
  for (const file of fs.readdirSync(path.join(dir, locale)).filter((f) => f.endsWith(".json"))) {
    walk(JSON.parse(fs.readFileSync(path.join(dir, locale, file), "utf8")), file.replace(/\.json$/, ""));
  }
  return out;
}

const matching = (texts: [string, string][], pattern: RegExp) =>
  texts.filter(([, text]) => pattern.test(text)).map(([key, text]) => `${key}: ${text}`);

describe("wording", () => {
  it("every text of every language says only what the app's texts work out (decision 066)", () => {
    // `{{name}}` values and plural keys (`_zero`, `_one`, `_two`, `_few`, `_many`, `_other`, always with
    // `_other`, the form every language has); no nesting (`$t(…)`) or formats (`{{value, number}}`), which
    // app/i18n.ts would show as written.
    for (const folder of folders) {
      for (const file of fs.readdirSync(path.join(dir, folder))) {
        const json: unknown = JSON.parse(fs.readFileSync(path.join(dir, folder, file), "utf8"));
        const walk = (v: unknown, at: string): void => {
          if (typeof v === "string") {
            expect(v, `${folder}/${file}:${at}`).not.toMatch(/\$t\(/);
            for (const [value] of v.matchAll(/{{[^}]*}}/g))
              expect(value, `${folder}/${file}:${at}`).toMatch(/^{{\s*\w+\s*}}$/);
          } else if (v && typeof v === "object") {
            for (const [k, c] of Object.entries(v)) {
              const plural = /^(.+)_(zero|one|two|few|many)$/.exec(k);
              if (plural) expect(Object.keys(v), `${folder}/${file}:${at}.${k}`).toContain(`${plural[1]}_other`);
              walk(c, `${at}.${k}`);
            }
          }
        };
        walk(json, "");
      }
    }
  });

  it("counts say one in the singular: one survey, one value, one answer, one day", () => {
    const read = (l: string, file: string) =>
      JSON.parse(fs.readFileSync(path.join(dir, l, file), "utf8")) as LocaleTable;
    for (const l of locales) addLocale(`${l}-counts`, mergeTables(read(l, "common.json"), read(l, "authoring.json")));
    const de = textsIn("de-DE-counts", null);
    const en = textsIn("en-US-counts", null);
    expect([de("surveys.count", { count: 1 }), de("surveys.count", { count: 14 })]).toEqual([
      "1 Umfrage",
      "14 Umfragen",
    ]);
    expect([en("surveys.count", { count: 1 }), en("surveys.count", { count: 14 })]).toEqual(["1 survey", "14 surveys"]);
    expect(de("statistics.graphs.summaryPoints", { count: 1 })).toBe("1 Wert");
    expect(en("statistics.graphs.summaryPoints", { count: 2 })).toBe("2 values");
    expect(de("statistics.freeText.count", { shown: 1, total: 1, count: 1 })).toBe("1 von 1 Antwort angezeigt");
    expect(en("statistics.freeText.count", { shown: 15, total: 60, count: 60 })).toBe("15 of 60 answers shown");
    expect(en("patientLinks.renewNamed", { id: 4, count: 1 })).toBe(
      "Renew link 4: a new link for 1 day, this one is revoked",
    );
    expect(de("patientLinks.renewNamed", { id: 4, count: 14 })).toBe(
      "Link 4 erneuern: neuer Link für 14 Tage, dieser wird zurückgezogen",
    );
  });

  it("German has one name for the exit answer and one for the preliminary questions", () => {
    const de = textsOf("de-DE");
    // The exit answer is the Ausstiegsantwort; the preliminary questions are the Vorabfragen.
    expect(matching(de, /Abbruchantwort|Abbruch-Antwort/i)).toEqual([]);
    expect(matching(de, /Patientendaten|Patientenformular|Patientenfragen|Vorantwort|Profilfrage/i)).toEqual([]);
    expect(matching(de, /Ausstiegsantwort/).length).toBeGreaterThanOrEqual(3);
    expect(matching(de, /Vorabfrage/).length).toBeGreaterThanOrEqual(10);
  });

  it("English has one name for the preliminary questions", () => {
    const en = textsOf("en-US");
    expect(matching(en, /patient (form|data)|profile question/i)).toEqual([]);
    expect(matching(en, /^Preliminary$/)).toEqual([]);
  });

  it("English uses American spelling, in the app and on the sign-in service's pages", async () => {
    const { textsFor } = await import("~/server/idp/i18n.server");
    const idp = Object.entries(textsFor("en-US")).flatMap(([key, v]): [string, string][] =>
      (Array.isArray(v) ? v : [v]).map((text) => [`idp.${key}`, String(text)]),
    );
    const british = new RegExp(
      "\\b(colour|centre|cancell|behaviour|favour|honour|labell|modell|travell|grey\\b|licence|catalogue|" +
        "dialogue|programme|whilst|amongst|learnt|spelt|metre|fibre|defence|analys(e|ed|es|ing)\\b|" +
        "(organ|recogn|synchron|author|custom|initial|normal|priorit|summar|visual|minim|maxim|optim|categor|" +
        "final|personal|apolog|util|local|sanit|neutral|serial|real|special|standard|memor|general)is(e|ed|es|ing|ation))",
      "i",
    );
    const found = matching([...textsOf("en-US"), ...idp], british);
    expect(found).toEqual([]);
  });
});

describe("the common texts", () => {
  /** The dialogs that load their texts (sync.json) with their code (decision 015). */
  const syncDialogs = ["SyncModal.tsx", "SyncRow.tsx", "SyncFilesModal.tsx", "SignOutDialog.tsx"].map((f) =>
    path.join("app/components/offline", f),
  );
  /** The code of the pages that load only locales/<culture>/common.json (decision 015). */
  const commonOnly = [
    "app/root.tsx",
    "app/components/fill",
    "app/components/start",
    "app/components/surveys",
    "app/components/offline",
    "app/components/layout",
    "app/components/ui",
    "app/routes/surveys.tsx",
    "app/routes/survey-archives.tsx",
    "app/routes/survey.$surveyId._index.tsx",
    "app/routes/survey.$surveyId.fill.$patientId.tsx",
    "app/routes/401.tsx",
    "app/routes/403.tsx",
    "app/routes/$.tsx",
    "app/routes/authentication.error.tsx",
  ];
  const sources = (entry: string): string[] =>
    fs.statSync(entry).isDirectory()
      ? fs.readdirSync(entry).flatMap((f) => sources(path.join(entry, f)))
      : /\.tsx?$/.test(entry) && !/\.test\./.test(entry)
        ? [entry]
        : [];

  /** The texts named by `code` that the given language files of a locale lack. */
  const missingIn = (locale: string, files: string[], code: string[]) => {
    const known = new Set(
      files.flatMap((f) => flatten(JSON.parse(fs.readFileSync(path.join(dir, locale, f), "utf8")))),
    );
    return code
      .flatMap((file) =>
        [...fs.readFileSync(file, "utf8").matchAll(/\bt\(\s*"([a-zA-Z]+\.[\w.]+)"/g)].map((m) => `${file}: ${m[1]}`),
      )
      .filter((entry) => {
        const key = entry.split(": ")[1]!;
        // Plural keys are stored with their suffix.
        return !known.has(key) && !known.has(`${key}_one`) && !known.has(`${key}_other`);
      });
  };

  it("hold every text the pages without the authoring texts name", () => {
    const code = commonOnly.flatMap(sources).filter((file) => !syncDialogs.includes(file));
    for (const locale of locales) expect(missingIn(locale, ["common.json"], code), locale).toEqual([]);
  });

  it("with the sync part, hold every text of the sync dialogs; with the sign part, the signing page's", () => {
    const signing = ["app/routes/survey.$surveyId.sign.$patientId.tsx"];
    for (const locale of locales) {
      expect(missingIn(locale, ["common.json", "sync.json"], syncDialogs), locale).toEqual([]);
      expect(missingIn(locale, ["common.json", "sign.json"], signing), locale).toEqual([]);
    }
  });
});
