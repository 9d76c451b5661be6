import { describe, expect, it } from "vitest";
import { sourceDigest } from "./content-languages";
import { answer, category, question, survey } from "./content-languages.test-support";
import {
  exportCsv,
  exportXliff,
  importPlan,
  isRefusal,
  readCsv,
  readTranslationCsv,
  readXliff,
  type TranslationFile,
} from "./translation-files";
import { readXml } from "./xml-reader";

const tricky = "Größe <in cm> & \"Gewicht\" 'kg'";
const s = survey({
  Id: 7,
  Title: "Befinden",
  IntroText: "<p>Willkommen &amp; <strong>danke</strong></p>",
  Categories: [
    category(10, "Allgemein", [
      question(100, tricky, { AnswerOptions: [answer(1000, "=1+1"), answer(1001, "Zeile 1\nZeile 2, mit Komma")] }),
    ]),
  ],
  Languages: ["ar", "tr"],
  Translations: {
    ar: {
      Title: { Text: "الحالة", Digest: sourceDigest("Befinden") },
      "question:100": { Text: 'الطول <سم> & "الوزن"', Digest: sourceDigest(tricky) },
    },
  },
});

const plan = (file: TranslationFile | ReturnType<typeof readXliff>, lang: "ar" | "tr" = "ar") => {
  if (isRefusal(file)) throw new Error(`refused: ${file.kind}`);
  return importPlan(s, lang, file);
};

describe("translation files", () => {
  it("writes XLIFF 2.0 that reads back as it was written, escaped and with its languages and survey", () => {
    const xml = exportXliff(s, "ar");
    expect(xml).toContain('srcLang="de" trgLang="ar"');
    expect(xml).toContain('<file id="survey-7">');
    expect(xml).toContain("<source>Größe &lt;in cm&gt; &amp; &quot;Gewicht&quot; &apos;kg&apos;</source>");
    const file = readXliff(xml);
    if (isRefusal(file)) throw new Error(file.kind);
    expect(file).toMatchObject({ format: "xliff", surveyId: 7, srcLang: "de", trgLang: "ar" });
    expect(file.units.map((u) => u.key)).toEqual([
      "Title",
      "IntroText",
      "category:10",
      "question:100",
      "answer:1000",
      "answer:1001",
    ]);
    expect(file.units[3]).toEqual({ key: "question:100", source: tricky, target: 'الطول <سم> & "الوزن"' });
    expect(file.units[1]!.source).toBe(s.IntroText);
    expect(file.units[5]!.source).toBe("Zeile 1\nZeile 2, mit Komma");
    // Read back unchanged: nothing to import.
    expect(plan(file)).toEqual({ changes: [], unchanged: 6 });
  });

  it("reads what a translation tool adds: groups, inline markup, comments, CDATA, references", () => {
    const xml = `\uFEFF<?xml version="1.0" encoding="UTF-8"?>
<!-- made elsewhere -->
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="de" trgLang="ar">
  <file id="survey-7"><notes><note>x</note></notes>
    <group id="g"><unit id="answer:1000"><segment state="translated"><source>=1+1</source>
      <target>واحد <mrk id="m1" translate="no">+</mrk> &#x648;&#1575;&#1581;&#1583;</target></segment></unit></group>
    <unit id='category:10'><segment><source>Allgemein</source><target><![CDATA[عام <عام>]]></target></segment></unit>
  </file>
</xliff>`;
    const result = plan(readXliff(xml));
    if (isRefusal(result)) throw new Error(result.kind);
    expect(result.changes.map((c) => [c.text.key, c.after, c.sourceChanged])).toEqual([
      ["answer:1000", "واحد + واحد", false],
      ["category:10", "عام <عام>", false],
    ]);
  });

  it("refuses files for another survey, source or language, with unknown keys, or not well-formed", () => {
    const xml = exportXliff(s, "ar");
    expect(plan(readXliff(xml.replace("survey-7", "survey-8")))).toEqual({ kind: "otherSurvey", surveyId: 8 });
    expect(plan(readXliff(xml.replace('id="survey-7"', 'id="f1"')))).toEqual({ kind: "noSurvey" });
    expect(plan(readXliff(xml.replace('trgLang="ar"', 'trgLang="tr"')))).toEqual({ kind: "otherLanguage", lang: "tr" });
    expect(plan(readXliff(xml.replace('srcLang="de"', 'srcLang="en"')))).toEqual({ kind: "otherSource", lang: "en" });
    expect(plan(readXliff(xml.replace('unit id="answer:1000"', 'unit id="answer:999"')))).toEqual({
      kind: "unknownKeys",
      keys: ["answer:999"],
    });
    expect(readXliff(xml.replace("</file>", ""))).toMatchObject({ kind: "unreadable" });
    expect(readXliff(xml.replace('version="2.0"', 'version="1.2"'))).toEqual({ kind: "notXliff" });
    expect(readXliff('<!DOCTYPE x [<!ENTITY a "b">]><xliff version="2.0"/>')).toMatchObject({ kind: "unreadable" });
    expect(() => readXml("<a>&unknown;</a>")).toThrow(/Unknown reference/);
    expect(() => readXml("<a>A & B</a>")).toThrow();
  });

  it("writes CSV per RFC 4180 with a byte order mark, guards formulas, and reads it back", () => {
    const csv = exportCsv(s, "ar");
    expect(csv.startsWith("\uFEFFkey,de,ar,survey-7\r\n")).toBe(true);
    expect(csv).toContain(`question:100,"Größe <in cm> & ""Gewicht"" 'kg'","الطول <سم> & ""الوزن""",\r\n`);
    expect(csv).toContain("answer:1000,'=1+1,,\r\n");
    expect(csv).toContain('answer:1001,"Zeile 1\nZeile 2, mit Komma",,\r\n');
    const file = readTranslationCsv(csv);
    if (isRefusal(file)) throw new Error(file.kind);
    expect(file).toMatchObject({ format: "csv", surveyId: 7, srcLang: "de", trgLang: "ar" });
    expect(file.units.find((u) => u.key === "answer:1000")).toEqual({ key: "answer:1000", source: "=1+1", target: "" });
    expect(plan(file)).toEqual({ changes: [], unchanged: 6 });
    expect(readCsv('a,"b\r\nc",d\ne,f')).toEqual([
      ["a", "b\r\nc", "d"],
      ["e", "f"],
    ]);
    expect(() => readCsv('a,"b')).toThrow();
  });

  it("reads a CSV file a spreadsheet saved with semicolons or tabs (a German setting), commas kept in its texts", () => {
    const semicolons = '\uFEFFkey;de;ar;survey-7\r\nquestion:100;"Größe, Gewicht";"الطول; الوزن"\r\n';
    const file = readTranslationCsv(semicolons);
    if (isRefusal(file)) throw new Error(file.kind);
    expect(file).toMatchObject({ surveyId: 7, srcLang: "de", trgLang: "ar" });
    expect(file.units).toEqual([{ key: "question:100", source: "Größe, Gewicht", target: "الطول; الوزن" }]);
    const tabs = readTranslationCsv("key\tde\tar\tsurvey-7\nTitle\tBefinden, heute\tالحالة\n");
    if (isRefusal(tabs)) throw new Error(tabs.kind);
    expect(tabs.units).toEqual([{ key: "Title", source: "Befinden, heute", target: "الحالة" }]);
  });

  it("plans an import: new and changed translations, the source changed since, empty ones left alone", () => {
    const csv = ["key,de,ar,survey-7", "Title,Befinden,", `question:100,alt,الطول`, "answer:1001,,سطر"].join("\n");
    const result = plan(readTranslationCsv(csv));
    if (isRefusal(result)) throw new Error(result.kind);
    expect(result.unchanged).toBe(1);
    expect(
      result.changes.map((c) => ({ key: c.text.key, before: c.before, after: c.after, changed: c.sourceChanged })),
    ).toEqual([
      { key: "question:100", before: 'الطول <سم> & "الوزن"', after: "الطول", changed: true },
      { key: "answer:1001", before: "", after: "سطر", changed: false },
    ]);
    expect(readTranslationCsv("a,b\n1,2")).toEqual({ kind: "noColumns" });
    expect(plan(readTranslationCsv("key,de,ar,survey-7\nBogus,,x"))).toEqual({ kind: "unknownKeys", keys: ["Bogus"] });
  });

  it("refuses a CSV file for another survey or language by what its header says, and one without it", () => {
    const csv = exportCsv(s, "ar").replace("Befinden,الحالة", "Befinden,durum");
    expect(plan(readTranslationCsv(csv.replace("survey-7", "survey-8")))).toEqual({ kind: "otherSurvey", surveyId: 8 });
    expect(plan(readTranslationCsv(csv), "tr")).toEqual({ kind: "otherLanguage", lang: "ar" });
    expect(plan(readTranslationCsv(csv.replace("key,de,ar", "key,en,ar")))).toEqual({
      kind: "otherSource",
      lang: "en",
    });
    // As a spreadsheet saves it again: without the byte order mark, cells quoted, header in capitals, LF.
    const resaved = csv.replace("\uFEFFkey,de,ar,survey-7\r\n", '"Key","DE","AR","Survey-7"\n').replace(/\r\n/g, "\n");
    const result = plan(readTranslationCsv(resaved));
    if (isRefusal(result)) throw new Error(result.kind);
    expect(result.changes.map((c) => [c.text.key, c.after])).toEqual([["Title", "durum"]]);
    // Written before the header said which survey and language: refused, not guessed.
    expect(readTranslationCsv("key,source,translation\nTitle,Befinden,durum")).toEqual({ kind: "oldCsv" });
    expect(readTranslationCsv("key,de,ar\nTitle,Befinden,durum")).toEqual({ kind: "noColumns" });
    expect(readTranslationCsv("key,de,ar,7\nTitle,Befinden,durum")).toEqual({ kind: "noColumns" });
  });
});
