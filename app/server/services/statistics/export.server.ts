import { defaultCulture } from "~/domain/culture";
import { contentLanguages, languageName, offersLanguage, translateSurvey } from "~/domain/content-languages";
import { respondentKinds } from "~/domain/respondents";
import { sql } from "kysely";
import { csvLine, csvSeparator, sanitiseFileName, type StatisticsFilters } from "~/domain/statistics";
import { answerText, type Question, type Survey } from "~/domain/survey";
import { surveyQuestions } from "~/domain/visibility";
import { translate } from "~/server/locales.server";
import { dialectOf, openLeanReader, type LeanReader } from "~/server/db/db.server";
import type { DB } from "~/server/db/types.server";
import { exportDuration, timedStream } from "~/server/metrics.server";
import { clinicZone, type ClinicZone } from "~/server/time-zone.server";
import { surveyStructure } from "../fill/structure.server";
import type { SurveyCaller } from "../surveys.server";
import { auditReading } from "../audit-reading.server";
import { countedCondition, requireAnalyst } from "./cases.server";
import type { DeflatedBlock } from "./deflate-blocks.server";
import { responseBlocks } from "./export-blocks.server";
import { caseLines, code, encodeIn, keepLines } from "./export-lines.server";
import { pageText, readCasesPage } from "./export-page.server";
import { scriptParts } from "./scripts.server";
import { variablePlan } from "./variables.server";
import { zipStream, type ZipPart } from "./zip.server";

export { casesPage } from "./export-page.server";

/** Cases read per round: memory stays bounded whatever the survey's size. */
const PAGE = 200;
/**
 * Cases read per round after a round whose lines were all kept: only the lines travel then, and fewer, larger
 * rounds halve the reading (PostgreSQL, 100,000 kept lines: 1.1 s in rounds of 1,000, 2.1–2.6 s in 200).
 */
const KEPT_PAGE = 1000;
const encoder = new TextEncoder();
const BOM = "\uFEFF";

interface Column {
  name: string;
  title: string;
  kind: string;
  codes: string;
}

/** The respondents' codes with their names in the export's language: "staff = Personal; link = …". */
function respondentCodes(culture: string | null): string {
  return respondentKinds
    .map((r) => `${r} = ${translate(culture ?? undefined, `statistics.codebook.respondents.${r}`)}`)
    .join("; ");
}

/** The languages' codes with their names in the export's language: "de = Deutsch; en = Englisch; …". */
function languageCodes(culture: string | null): string {
  const inLanguage = culture ?? defaultCulture;
  return contentLanguages.map((l) => `${l} = ${languageName(l, inLanguage)}`).join("; ");
}

export function columnsOf(survey: Survey, questions: Question[], culture: string | null, zone: string): Column[] {
  const t = (key: string, vars?: Record<string, string>) =>
    translate(culture ?? undefined, `statistics.codebook.${key}`, vars);
  const cols: Column[] = [
    { name: "PatientId", title: t("patientId"), kind: t("text"), codes: "" },
    { name: "State", title: t("state"), kind: t("text"), codes: "" },
    { name: "Created", title: t("created"), kind: t("dateTime", { zone }), codes: "" },
    { name: "Closed", title: t("closed"), kind: t("dateTime", { zone }), codes: "" },
    // The language the case was filled in (docs/decisions/056-statistics-languages.md), its code.
    { name: "Language", title: t("language"), kind: t("languageKind"), codes: languageCodes(culture) },
    // Who answered it, and the link's number where a link did (docs/decisions/057-patient-links.md).
    { name: "Respondent", title: t("respondent"), kind: t("respondentKind"), codes: respondentCodes(culture) },
    { name: "RespondentLink", title: t("respondentLink"), kind: t("respondentLinkKind"), codes: "" },
  ];
  for (const a of survey.PatientForm) {
    const codes = a.AnswerOptions.map((o) => `${code(o)} = ${o.Text}`).join("; ");
    cols.push({ name: `P${a.Id}`, title: a.Title, kind: t("preliminaryText"), codes });
    cols.push({ name: `P${a.Id}_code`, title: a.Title, kind: t("preliminaryCode"), codes });
  }
  const parents = new Map(questions.flatMap((q) => q.AnswerOptions.map((o) => [o.Id, answerText(o)] as const)));
  for (const q of questions) {
    const choice = q.AnswerOptions.length > 0;
    const codes = q.AnswerOptions.map((o) => `${code(o)} = ${answerText(o)}`).join("; ");
    const answer = q.ParentAnswerOptionId ? parents.get(q.ParentAnswerOptionId) : undefined;
    const title = answer === undefined ? q.Title : t("subQuestion", { title: q.Title, answer });
    const plain = q.Unit
      ? t("unit", { type: q.Type, unit: q.Unit })
      : q.Type === "DateTime"
        ? t("dateTimeQuestion", { type: q.Type, zone })
        : q.Type;
    cols.push({ name: `Q${q.Id}`, title, kind: choice ? t("choiceTexts", { type: q.Type }) : plain, codes });
    if (choice) cols.push({ name: `Q${q.Id}_code`, title, kind: t("choiceCodes", { type: q.Type }), codes });
  }
  // The case's total score, last, headed by its title (docs/decisions/051-instrument-scores.md).
  if (survey.ScoreTitle) cols.push({ name: survey.ScoreTitle, title: survey.ScoreTitle, kind: t("total"), codes: "" });
  return cols;
}

/** The first line of responses.csv: the byte-order mark and the columns' names. */
function headerOf(survey: Survey, questions: Question[], sep: ";" | ",", zone: ClinicZone): Uint8Array {
  const cols = columnsOf(survey, questions, null, zone.name);
  return encoder.encode(
    BOM +
      csvLine(
        cols.map((c) => c.name),
        sep,
      ),
  );
}

/** responses.csv of every counted case as deflate blocks: the header, then the cases' blocks. */
async function* responseEntry(
  reader: LeanReader,
  survey: Survey,
  questions: Question[],
  sep: ";" | ",",
  zone: ClinicZone,
  seen: { breaks: boolean },
): AsyncGenerator<Uint8Array | DeflatedBlock> {
  yield headerOf(survey, questions, sep, zone);
  yield* responseBlocks(reader, survey, caseLines(survey, questions, zone), sep, zone, seen);
}

/**
 * responses.csv, a page of counted cases at a time. A case's line is kept once written (case_export_rows,
 * docs/decisions/031-export-rows.md), but for the case's own cells, and used again while the case's answers
 * version and the survey's layout are those it was written for; only the other cases' answers are read.
 * Each page's answers are read as one array per case (not an object per answer) and written straight into
 * the cells of their case's row (export-lines.server.ts). Every date-time is in the clinic's zone with its
 * offset, the case's started and closed times too (docs/decisions/053-clinic-time-zone.md).
 */
async function* responsesCsv(
  reader: LeanReader,
  survey: Survey,
  questions: Question[],
  filters: StatisticsFilters,
  sep: ";" | ",",
  zone: ClinicZone,
  seen: { flatten: boolean; breaks: boolean },
) {
  const db = reader.db;
  yield headerOf(survey, questions, sep, zone);
  const lines = caseLines(survey, questions, zone);
  const sqlite = dialectOf(db) === "sqlite";
  const readPage = (after: number, size: number) => readCasesPage(reader, lines, survey.Id, filters, after, size);
  // The next page is read while this one is written: on PostgreSQL the database works beside this process.
  let next = readPage(0, PAGE);
  try {
    for (;;) {
      const page = await next;
      if (!page) return;
      const { cases, stale } = page;
      // A round of kept lines is likely followed by another (cases closed long ago); a round that needed
      // answers, by more of those, whose reading stays bounded in rounds of PAGE.
      next = readPage(cases[cases.length - 1].id, stale.length === 0 ? KEPT_PAGE : PAGE);
      const { text: out, kept, breaks } = pageText(page, lines, survey, zone, seen.flatten, sqlite);
      seen.breaks ||= breaks;
      await keepLines(reader.writer(), kept);
      yield encodeIn(out, sep);
    }
  } finally {
    // Left early (the download was cancelled): the page being read is not waited for, and its end is quiet.
    next.catch(() => undefined);
  }
}

/** Whether the filters leave every counted case in (the same condition as none). */
function unfiltered(db: DB, filters: StatisticsFilters): boolean {
  const compiled = (f: StatisticsFilters) => sql`${countedCondition(db, f)}`.compile(db);
  const [some, none] = [compiled(filters), compiled({})];
  return some.sql === none.sql && JSON.stringify(some.parameters) === JSON.stringify(none.parameters);
}

async function* codebookCsv(
  survey: Survey,
  questions: Question[],
  sep: ";" | ",",
  culture: string | null,
  zone: string,
) {
  const t = (key: string) => translate(culture ?? undefined, `statistics.codebook.${key}`);
  const lines = [csvLine([t("column"), t("question"), t("kind"), t("codes")], sep)];
  for (const c of columnsOf(survey, questions, culture, zone))
    lines.push(csvLine([c.name, c.title, c.kind, c.codes], sep));
  yield encoder.encode(BOM + lines.join(""));
}

/**
 * POST /statistics/{id}/csv: the counted cases as a zip of responses.csv (one row per case, one column per
 * preliminary question, question and sub-question, answer texts and codes) and codebook.csv, then the scripts
 * for R, SPSS and Stata that read it (docs/decisions/041-statistics-scripts.md), streamed.
 * UTF-8 with a byte-order mark and the culture's separator, so spreadsheets open it as it is; cells that
 * would run as formulas are neutralised. `timeZone` is the clinic's (CLINIC_TIME_ZONE).
 */
export async function exportResponses(
  db: DB,
  caller: SurveyCaller,
  surveyId: number,
  filters: StatisticsFilters,
  timeZone: string,
  language?: string,
) {
  const access = await requireAnalyst(db, caller, surveyId);
  const { survey } = await surveyStructure(db, access);
  // The export carries every counted case's answers: reading them is logged (decision 028), with the language
  // its labels are in (decision 056).
  const labels = language && offersLanguage(survey, language) ? language : survey.SourceLanguage;
  await auditReading(db, caller, {
    action: "statistics.export",
    surveyId,
    after: { Filters: filters, Language: labels },
  });
  const questions = surveyQuestions(survey);
  // The codebook's and the scripts' labels in `language`; responses.csv's lines, and every code, are the
  // same in every language (docs/decisions/056-statistics-languages.md).
  const labelled = language ? translateSurvey(survey, language) : survey;
  const labelledQuestions = surveyQuestions(labelled);
  // A person who never chose a language works in the default one, and gets its separator and decimal mark.
  const culture = caller.culture ?? defaultCulture;
  const sep = csvSeparator(culture);
  const zone = clinicZone(timeZone);
  async function* parts(): AsyncIterable<ZipPart> {
    const seen = { flatten: false, breaks: false };
    const reader = openLeanReader(db);
    try {
      // Every case: from the blocks kept deflated (docs/decisions/061-export-blocks.md); some: line by line.
      if (unfiltered(db, filters))
        yield { name: "responses.csv", blocks: responseEntry(reader, survey, questions, sep, zone, seen) };
      else yield { name: "responses.csv", chunks: responsesCsv(reader, survey, questions, filters, sep, zone, seen) };
      // Only when a text holds a line break: the same lines again, each on one line, for SPSS.
      if (seen.breaks) {
        const flat = { flatten: true, breaks: false };
        const chunks = responsesCsv(reader, survey, questions, filters, sep, zone, flat);
        yield { name: "responses-lines.csv", chunks };
      }
    } finally {
      await reader.close();
    }
    yield { name: "codebook.csv", chunks: codebookCsv(labelled, labelledQuestions, sep, culture, timeZone) };
    const columns = columnsOf(survey, questions, null, timeZone).map((c) => c.name);
    const plan = variablePlan(labelled, labelledQuestions, columns, culture, timeZone);
    yield* scriptParts(plan, sep, seen.breaks ? "responses-lines.csv" : "responses.csv");
  }
  return { fileName: `${sanitiseFileName(survey.Title)}.zip`, body: timedStream(zipStream(parts()), exportDuration) };
}
