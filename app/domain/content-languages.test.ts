import { describe, expect, it } from "vitest";
import {
  ContentLanguageSchema,
  contentLanguages,
  isRightToLeft,
  languageName,
  PutTranslationsSchema,
  sourceDigest,
  translatableTexts,
  translateSurvey,
  translationProgress,
  type Translations,
} from "./content-languages";
import { answer, attribute, category, longSurvey, marker, question, survey } from "./content-languages.test-support";
import { SurveySchema, type Survey } from "./survey";

const full = survey({
  Title: "Befinden",
  Description: "Worum es geht",
  IntroText: "<p>Willkommen</p>",
  OutroText: "<p>Danke</p>",
  ScoreTitle: "Summe",
  PatientForm: [
    attribute(5, "Geschlecht", [
      [51, "weiblich"],
      [52, ""],
    ]),
  ],
  Categories: [
    category(10, "Allgemein", [
      question(100, "Wie geht es Ihnen?", {
        Hint: "Heute",
        AnswerOptions: [answer(1000, "Gut"), answer(1001, "Schlecht", [question(101, "Seit wann?", { Unit: "Tage" })])],
      }),
      question(102, "Wo?", { Type: "Image", AnswerOptions: [marker(1002, "Kopf")] }),
      question(103, "   "),
    ]),
  ],
});

const tr = (texts: Record<string, string>, digestOf: (key: string) => string = () => "x"): Translations => ({
  tr: Object.fromEntries(Object.entries(texts).map(([k, Text]) => [k, { Text, Digest: digestOf(k) }])),
});

describe("content languages", () => {
  it("lists the languages, says which runs right to left and names each in its own language", () => {
    expect(contentLanguages).toEqual(["de", "en", "tr", "ar", "ru", "uk", "pl"]);
    expect(ContentLanguageSchema.safeParse("ar").success).toBe(true);
    expect(ContentLanguageSchema.safeParse("fr").success).toBe(false);
    expect(contentLanguages.filter(isRightToLeft)).toEqual(["ar"]);
    expect(isRightToLeft("ar-EG")).toBe(true);
    expect(languageName("ar", "ar")).toBe("العربية");
    expect(languageName("tr", "tr")).toBe("Türkçe");
    expect(languageName("tr", "de")).toBe("Türkisch");
    expect(languageName("uk", "en")).toBe("Ukrainian");
    expect(languageName("ru", "ru")).toBe("Русский");
  });

  it("digests a text the same way each time, and another text otherwise", () => {
    expect(sourceDigest("Wie geht es Ihnen?")).toMatch(/^[0-9a-f]{8}$/);
    expect(sourceDigest("Wie geht es Ihnen?")).toBe(sourceDigest("Wie geht es Ihnen?"));
    expect(sourceDigest("Wie geht es Ihnen?")).not.toBe(sourceDigest("Wie geht es Ihnen!"));
    // FNV-1a's published values.
    expect(sourceDigest("")).toBe("811c9dc5");
    expect(sourceDigest("a")).toBe("e40c292c");
  });

  it("lists every non-empty text by a stable key, in reading order, with its tab and field", () => {
    const texts = translatableTexts(full);
    expect(texts.map((t) => t.key)).toEqual([
      "Title",
      "Description",
      "IntroText",
      "attribute:5",
      "entry:51",
      "category:10",
      "question:100",
      "question:100:Hint",
      "answer:1000",
      "answer:1001",
      "question:101",
      "question:101:Unit",
      "question:102",
      "answer:1002",
      "OutroText",
      "ScoreTitle",
    ]);
    const byKey = new Map(texts.map((t) => [t.key, t]));
    expect(byKey.get("IntroText")).toMatchObject({ tab: "start", label: "intro", html: true, multiline: true });
    expect(byKey.get("Title")).toMatchObject({ tab: "start", label: "title", html: false, multiline: false });
    expect(byKey.get("entry:51")).toMatchObject({ tab: "patientForm", label: "entry", source: "weiblich" });
    expect(byKey.get("question:101")).toMatchObject({ tab: "questionnaire", kind: "subQuestion" });
    expect(byKey.get("question:100:Hint")).toMatchObject({ label: "hint", multiline: true, source: "Heute" });
    expect(byKey.get("answer:1002")).toMatchObject({ label: "marker", source: "Kopf" });
    expect(translatableTexts(survey({ ScoreTitle: null })).map((t) => t.key)).toEqual(["Title"]);
  });

  it("translates every text that has a translation, keeps the source elsewhere and leaves the input alone", () => {
    const withTr = {
      ...full,
      Languages: ["tr" as const],
      Translations: tr({
        Title: "Durum",
        "question:100": "Nasılsınız?",
        "question:100:Hint": "Bugün",
        "answer:1001": "Kötü",
        "question:101:Unit": "Gün",
        "answer:1002": "Baş",
        "entry:51": "kadın",
        "attribute:5": "",
        ScoreTitle: "Toplam",
      }),
    };
    const before = JSON.stringify(withTr);
    const t = translateSurvey(withTr, "tr");
    expect(JSON.stringify(withTr)).toBe(before);
    expect(t.Title).toBe("Durum");
    expect(t.Description).toBe("Worum es geht");
    expect(t.ScoreTitle).toBe("Toplam");
    const [q100, q102] = t.Categories[0]!.Questions;
    expect([q100!.Title, q100!.Hint]).toEqual(["Nasılsınız?", "Bugün"]);
    expect(q100!.AnswerOptions.map((o) => o.Text)).toEqual(["Gut", "Kötü"]);
    expect(q100!.AnswerOptions[1]!.SubQuestions[0]).toMatchObject({ Title: "Seit wann?", Unit: "Gün" });
    expect(q102!.AnswerOptions[0]).toMatchObject({ Title: "Baş" });
    expect(q102!.AnswerOptions[0]!.Text).toBeUndefined();
    // An empty translation keeps the source.
    expect(t.PatientForm[0]).toMatchObject({ Title: "Geschlecht" });
    expect(t.PatientForm[0]!.AnswerOptions.map((o) => o.Text)).toEqual(["kadın", ""]);
    // The source language, a language not offered and one unknown give the survey itself.
    expect(translateSurvey(withTr, "de")).toBe(withTr);
    expect(translateSurvey({ ...withTr, Languages: [] }, "tr").Title).toBe("Befinden");
    expect(translateSurvey(withTr, "xx")).toBe(withTr);
  });

  it("counts per tab and overall what is translated, what needs review and what is missing", () => {
    const digest = (key: string) =>
      key === "question:100" ? "stale" : sourceDigest(translatableTexts(full).find((t) => t.key === key)!.source);
    const s = {
      ...full,
      Languages: ["tr" as const],
      Translations: tr({ Title: "Durum", "question:100": "Nasılsınız?", "entry:51": "kadın", IntroText: "" }, digest),
    };
    const p = translationProgress(s, "tr");
    expect({ ...p.overall, missing: p.overall.missing.length }).toEqual({
      total: 16,
      translated: 3,
      review: 1,
      missing: 13,
    });
    expect(p.byTab.start).toMatchObject({ total: 5, translated: 1, review: 0 });
    expect(p.byTab.start.missing.map((t) => t.key)).toEqual(["Description", "IntroText", "OutroText", "ScoreTitle"]);
    expect(p.byTab.questionnaire).toMatchObject({ total: 9, translated: 1, review: 1 });
    expect(p.byTab.patientForm).toMatchObject({ total: 2, translated: 1, review: 0 });
    expect(translationProgress(s, "ar").overall).toMatchObject({ total: 16, translated: 0, review: 0 });
  });

  it("translates a survey of 150 questions well within a millisecond", () => {
    const long = longSurvey(150);
    const texts = translatableTexts(long);
    expect(texts.length).toBeGreaterThan(900);
    const s = {
      ...long,
      Languages: ["tr" as const],
      Translations: tr(Object.fromEntries(texts.map((t) => [t.key, `${t.source} (tr)`]))),
    };
    for (let i = 0; i < 20; i++) translateSurvey(s, "tr");
    const runs = 200;
    const start = performance.now();
    let out: Survey = s;
    for (let i = 0; i < runs; i++) out = translateSurvey(s, "tr");
    const perRun = (performance.now() - start) / runs;
    expect(out.Categories[14]!.Questions[9]!.AnswerOptions[3]!.Text).toBe("Antwort 3 (tr)");
    // Loose: a shared two-core machine; the budget the fill page needs is 1 ms.
    expect(perRun).toBeLessThan(1);
  });

  it("reads a survey kept before languages existed, and checks the request body", () => {
    const { SourceLanguage: _s, Languages: _l, Translations: _t, ...old } = full;
    const parsed = SurveySchema.parse(old);
    expect([parsed.SourceLanguage, parsed.Languages, parsed.Translations]).toEqual(["de", [], {}]);
    expect(PutTranslationsSchema.safeParse({ Texts: [{ Key: "Title", Text: "x" }] }).success).toBe(true);
    expect(
      PutTranslationsSchema.safeParse({
        Texts: [
          { Key: "Title", Text: "x" },
          { Key: "Title", Text: "y" },
        ],
      }).success,
    ).toBe(false);
    expect(PutTranslationsSchema.safeParse({ Texts: [{ Key: "Title", Text: "x", Digest: "y" }] }).success).toBe(false);
    expect(
      PutTranslationsSchema.safeParse({ Texts: Array.from({ length: 2001 }, (_, i) => ({ Key: `k${i}`, Text: "" })) })
        .success,
    ).toBe(false);
  });
});
