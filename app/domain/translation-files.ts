/**
 * A language's translations as files for translators (docs/decisions/054-content-languages.md): XLIFF 2.0,
 * which translation tools read and write, and CSV for a spreadsheet. Each says which survey and languages it
 * holds (XLIFF in its attributes, CSV in its header line). Export writes every translatable text with its
 * translation; import reads one back and says what it would change, or why it cannot be taken.
 * Pure: the editor reads and writes the files in the browser.
 */
import { translatableTexts, type ContentLanguage, type TranslatableText } from "./content-languages";
import type { Survey } from "./survey";
import { childrenNamed, escapeXml, readXml, textOf, XmlError } from "./xml-reader";

type Translated = Pick<
  Survey,
  | "Id"
  | "Title"
  | "Description"
  | "IntroText"
  | "OutroText"
  | "ScoreTitle"
  | "Categories"
  | "PatientForm"
  | "SourceLanguage"
  | "Translations"
>;

const XLIFF_NS = "urn:oasis:names:tc:xliff:document:2.0";

/** The file element's id, which names the survey a file belongs to. */
export const fileIdOf = (surveyId: number) => `survey-${surveyId}`;

/** The file name of a language's export. */
export function translationFileName(survey: Pick<Survey, "Id">, lang: string, format: "xliff" | "csv"): string {
  return `survey-${survey.Id}-${lang}.${format === "xliff" ? "xlf" : "csv"}`;
}

/** XLIFF 2.0: srcLang the survey's language, trgLang the translation's, one unit per text, by its key. */
export function exportXliff(survey: Translated, lang: ContentLanguage): string {
  const stored = survey.Translations[lang] ?? {};
  const units = translatableTexts(survey).map((text) => {
    const target = stored[text.key]?.Text;
    return [
      `    <unit id="${escapeXml(text.key)}">`,
      "      <segment>",
      `        <source>${escapeXml(text.source)}</source>`,
      ...(target ? [`        <target>${escapeXml(target)}</target>`] : []),
      "      </segment>",
      "    </unit>",
    ].join("\n");
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<xliff xmlns="${XLIFF_NS}" version="2.0" srcLang="${survey.SourceLanguage}" trgLang="${lang}">`,
    `  <file id="${fileIdOf(survey.Id)}">`,
    ...units,
    "  </file>",
    "</xliff>",
    "",
  ].join("\n");
}

/** RFC 4180: fields quoted where they hold a comma, a quote or a line break; lines end with CRLF. */
function csvField(value: string): string {
  // A spreadsheet would run a cell that starts with = + - @ as a formula: such a text starts with a quote mark.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * CSV for spreadsheets, UTF-8 with a byte order mark. The header line says what the file holds, in cells a
 * spreadsheet keeps as they are (text, never a number or a date): `key`, the source language's code above
 * the sources, the target language's above the translations, and the survey (`survey-<id>`) above an empty
 * column: `key,de,tr,survey-7`.
 */
export function exportCsv(survey: Translated, lang: ContentLanguage): string {
  const stored = survey.Translations[lang] ?? {};
  const rows = [["key", survey.SourceLanguage, lang, fileIdOf(survey.Id)]].concat(
    translatableTexts(survey).map((t) => [t.key, t.source, stored[t.key]?.Text ?? "", ""]),
  );
  return "\uFEFF" + rows.map((r) => r.map(csvField).join(",")).join("\r\n") + "\r\n";
}

/**
 * The separator a file uses, read from its first line: a comma as written here; a semicolon or a tab where a
 * spreadsheet saved it in a German (or other comma-decimal) setting.
 */
export function csvSeparator(text: string): string {
  const first = text.slice(0, text.search(/\r|\n|$/));
  const counts = [",", ";", "\t"].map((c) => [c, first.split(c).length - 1] as const);
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0];
}

/** Reads RFC 4180 CSV (a byte order mark, LF or CRLF line ends); throws for a quote left open. */
export function readCsv(text: string, separator = csvSeparator(text)): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === separator) {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (quoted) throw new Error("A quoted field is not closed");
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.length > 1 || r[0] !== "");
}

/** The cell as it was written: a text the export guarded against formulas comes back without its mark. */
const unguard = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

/** What a file holds: per key, the source it was made from and the translation (empty: none). */
export interface TranslationFile {
  format: "xliff" | "csv";
  /** The file's survey (null: it names none), source and target languages; an XLIFF may leave out a language. */
  surveyId: number | null;
  srcLang?: string;
  trgLang?: string;
  units: { key: string; source: string; target: string }[];
}

export type FileRefusal =
  | { kind: "unreadable"; detail: string }
  | { kind: "notXliff" }
  | { kind: "noSurvey" }
  | { kind: "otherSurvey"; surveyId: number }
  | { kind: "otherSource"; lang: string }
  | { kind: "otherLanguage"; lang: string }
  | { kind: "noColumns" }
  | { kind: "oldCsv" }
  | { kind: "unknownKeys"; keys: string[] };

export function readXliff(text: string): TranslationFile | FileRefusal {
  let root;
  try {
    root = readXml(text);
  } catch (error) {
    return { kind: "unreadable", detail: error instanceof XmlError ? error.message : String(error) };
  }
  if (root.local !== "xliff" || root.attributes.version !== "2.0") return { kind: "notXliff" };
  const units: TranslationFile["units"] = [];
  let surveyId: number | null = null;
  for (const file of childrenNamed(root, "file")) {
    const id = /^survey-(\d+)$/.exec(file.attributes.id ?? "");
    surveyId = id ? Number(id[1]) : null;
    const walk = (parent: typeof file) => {
      for (const group of childrenNamed(parent, "group")) walk(group);
      for (const unit of childrenNamed(parent, "unit")) {
        const segments = childrenNamed(unit, "segment");
        const part = (name: string) => segments.map((s) => childrenNamed(s, name).map(textOf).join("")).join("");
        units.push({ key: unit.attributes.id ?? "", source: part("source"), target: part("target") });
      }
    };
    walk(file);
  }
  return { format: "xliff", surveyId, srcLang: root.attributes.srcLang, trgLang: root.attributes.trgLang, units };
}

export function readTranslationCsv(text: string): TranslationFile | FileRefusal {
  let rows: string[][];
  try {
    rows = readCsv(text);
  } catch (error) {
    return { kind: "unreadable", detail: error instanceof Error ? error.message : String(error) };
  }
  const [head = [], ...body] = rows;
  const [key, srcLang, trgLang, survey] = head.map((cell) => cell.trim().toLowerCase());
  if (key !== "key") return { kind: "noColumns" };
  // Written before the header named the survey and the languages: it cannot say which it belongs to.
  if (srcLang === "source" || trgLang === "translation") return { kind: "oldCsv" };
  const surveyId = /^survey-(\d+)$/.exec(survey ?? "");
  if (!srcLang || !trgLang || !surveyId) return { kind: "noColumns" };
  return {
    format: "csv",
    surveyId: Number(surveyId[1]),
    srcLang,
    trgLang,
    units: body.map((r) => ({ key: r[0] ?? "", source: unguard(r[1] ?? ""), target: unguard(r[2] ?? "") })),
  };
}

/** One text an import would change, with where it is and what it was. */
export interface ImportChange {
  text: TranslatableText;
  before: string;
  after: string;
  /** The file's source is not the survey's source as it is now: translated from an older text. */
  sourceChanged: boolean;
}

/**
 * What importing a file would do to a language's translations: the texts whose translation it changes (an
 * empty target leaves a translation as it is). A file for another survey, source language or target
 * language, or naming a key the survey does not have, is refused with what is wrong.
 */
export function importPlan(
  survey: Translated,
  lang: ContentLanguage,
  file: TranslationFile,
): { changes: ImportChange[]; unchanged: number } | FileRefusal {
  if (file.surveyId === null) return { kind: "noSurvey" };
  if (file.surveyId !== survey.Id) return { kind: "otherSurvey", surveyId: file.surveyId };
  if (file.srcLang !== undefined && file.srcLang !== survey.SourceLanguage) {
    return { kind: "otherSource", lang: file.srcLang };
  }
  if (file.trgLang !== undefined && file.trgLang !== lang) return { kind: "otherLanguage", lang: file.trgLang };
  const texts = new Map(translatableTexts(survey).map((t) => [t.key, t]));
  const unknown = file.units.map((u) => u.key).filter((key) => !texts.has(key));
  if (unknown.length > 0) return { kind: "unknownKeys", keys: unknown };
  const stored = survey.Translations[lang] ?? {};
  const changes: ImportChange[] = [];
  let unchanged = 0;
  for (const unit of file.units) {
    const text = texts.get(unit.key)!;
    const before = stored[unit.key]?.Text ?? "";
    if (!unit.target.trim() || unit.target === before) {
      unchanged++;
      continue;
    }
    const sourceChanged = file.format === "xliff" || unit.source ? unit.source !== text.source : false;
    changes.push({ text, before, after: unit.target, sourceChanged });
  }
  return { changes, unchanged };
}

export function isRefusal(value: object): value is FileRefusal {
  return "kind" in value;
}
