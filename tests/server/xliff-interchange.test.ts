import { describe, expect, it } from "vitest";
import xliff2js from "xliff/xliff2js";
import { sourceDigest, translatableTexts } from "~/domain/content-languages";
import { answer, attribute, category, marker, question, survey } from "~/domain/content-languages.test-support";
import { exportXliff, importPlan, isRefusal, readXliff } from "~/domain/translation-files";

/**
 * A product-written XLIFF 2.0 file as other tools read it: the npm package xliff (which translation
 * pipelines use) reads every unit with its source and target as the product wrote them, and the product
 * reads the same file back without a change.
 */
describe("XLIFF interchange", () => {
  const texts: Record<string, string> = {
    Title: "Schmerz & Befinden",
    "question:100": 'Wie stark ist der Schmerz <0–10>? "heute"',
    "answer:1000": "Stärker als gestern",
    "answer:1002": "Kopf",
    "entry:51": "weiblich",
  };
  const s = survey({
    Id: 12,
    Title: texts.Title!,
    IntroText: "<p>Willkommen</p>",
    PatientForm: [attribute(5, "Geschlecht", [[51, "weiblich"]])],
    Categories: [
      category(10, "Allgemein", [
        question(100, texts["question:100"]!, {
          Hint: "Zeile eins\nZeile zwei",
          AnswerOptions: [answer(1000, "Stärker als gestern")],
        }),
        question(101, "Wo?", { Type: "Image", AnswerOptions: [marker(1002, "Kopf")] }),
      ]),
    ],
    Languages: ["ar"],
    Translations: {
      ar: Object.fromEntries(
        Object.entries({
          Title: "الألم والحالة",
          "question:100": 'ما مدى شدة الألم <0–10>؟ "اليوم"',
          "answer:1002": "الرأس",
          "entry:51": "أنثى",
        }).map(([key, Text]) => [key, { Text, Digest: sourceDigest(texts[key]!) }]),
      ),
    },
  });

  it("is read by the xliff package unit by unit, and by the product unchanged", async () => {
    const xml = exportXliff(s, "ar");
    const js = (await xliff2js(xml)) as {
      sourceLanguage: string;
      targetLanguage: string;
      resources: Record<string, Record<string, { source: string; target?: string }>>;
    };
    expect([js.sourceLanguage, js.targetLanguage]).toEqual(["de", "ar"]);
    expect(Object.keys(js.resources)).toEqual(["survey-12"]);
    const units = js.resources["survey-12"]!;
    const all = translatableTexts(s);
    expect(Object.keys(units)).toEqual(all.map((t) => t.key));
    for (const text of all) {
      expect(units[text.key]!.source, text.key).toBe(text.source);
      expect(units[text.key]!.target ?? "", text.key).toBe(s.Translations.ar![text.key]?.Text ?? "");
    }

    const back = readXliff(xml);
    if (isRefusal(back)) throw new Error(back.kind);
    expect(back.units).toEqual(
      all.map((t) => ({ key: t.key, source: t.source, target: s.Translations.ar![t.key]?.Text ?? "" })),
    );
    expect(importPlan(s, "ar", back)).toEqual({ changes: [], unchanged: all.length });
  });
});
