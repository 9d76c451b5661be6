import { createHash } from "node:crypto";
import { sql } from "kysely";
import { csvLine } from "~/domain/statistics";
import { optionScoreUnits, totalOfUnits } from "~/domain/scores";
import { answerText, type Question, type Survey } from "~/domain/survey";
import { dialectOf, type LeanReader } from "~/server/db/db.server";
import type { DB } from "~/server/db/types.server";
import { log } from "~/server/log.server";
import type { ClinicZone } from "~/server/time-zone.server";

/**
 * A case's line of responses.csv without the case's own cells, kept once written (case_export_rows,
 * docs/decisions/031-export-rows.md): the export and the readying in the background
 * (docs/decisions/032-export-lines-readied.md) write them the same way.
 */

/**
 * The case's own cells at the start of its line (patient id, state, created, closed, language, respondent and
 * the respondent's link), not kept.
 */
export const CASE_CELLS = 7;
/**
 * What a case's line is written from besides its answers: the clinic's time zone, the survey's preliminary and
 * questions with their options' texts and codes, and the line's format (FORMAT: raise it when the code that
 * writes a line changes, and every kept line is written anew; 2: date-times with their offset; 3: kept in
 * KEPT_SEP whatever the export's separator).
 */
const FORMAT = 3;

/**
 * The separator a line is kept in, whichever an export asks for: one kept line serves analysts working in
 * German (";") and in English (","), and `encodeIn` gives it in the other.
 */
export const KEPT_SEP = ";";

const encoder = new TextEncoder();

/**
 * Lines written in KEPT_SEP, as UTF-8 in `sep`. csvField quotes every text that holds a ";" or a "," in either
 * separator, so outside quotes a ";" is a separator and a "," a number's decimal mark, and inside quotes the
 * lines are the same in both. One pass over the bytes (a quote inside a text is doubled, which keeps the
 * count; UTF-8 uses none of these bytes inside another character): a fifth of what turning the text costs.
 */
export function encodeIn(text: string, sep: ";" | ","): Uint8Array {
  const bytes = encoder.encode(text);
  if (sep === KEPT_SEP) return bytes;
  let quoted = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === QUOTE) quoted = !quoted;
    else if (!quoted) {
      if (c === SEMICOLON) bytes[i] = COMMA;
      else if (c === COMMA) bytes[i] = POINT;
    }
  }
  return bytes;
}
const [QUOTE, SEMICOLON, COMMA, POINT] = [34, 59, 44, 46];

/** An option's code in the export: its value, or its id when it has none. */
export const code = (o: { Id: number; Value: string | null }) => o.Value?.trim() || String(o.Id);

export function layoutOf(survey: Survey, questions: Question[], zone: ClinicZone): string {
  const options = (list: { Id: number; Value: string | null }[], text: (o: never) => string) =>
    list.map((o) => [o.Id, text(o as never), code(o)]);
  const shape = [
    FORMAT,
    zone.name,
    survey.PatientForm.map((a) => [a.Id, options(a.AnswerOptions, (o: { Text: string }) => o.Text)]),
    questions.map((q) => [q.Id, q.Type, options(q.AnswerOptions, answerText)]),
    // The total's cell and the scores it adds (a survey without a total keeps the lines it had).
    ...(survey.ScoreTitle ? [["total", [...optionScoreUnits(survey)]]] : []),
  ];
  return createHash("sha256").update(JSON.stringify(shape)).digest("base64url");
}

/** One answer as the export reads it: question, option, text, number, date-time. */
type AnswerCells = [number, number | null, string | null, number | null, string | null];

/** The answers and preliminary answers of some cases, as the database handed them over. */
export interface CaseAnswers {
  answers: unknown[];
  prelims: unknown[];
  /** PostgreSQL: each case's chosen options as "question:option,…" in the order given (answers then holds the others). */
  choices: unknown[];
}

/** A kept line as the reads of cases return it beside the case's present answers version. */
export interface KeptOrNot {
  line: string | null;
  layout: string | null;
  kept_version: number | null;
  answers_version: number;
}

export interface KeptLine {
  patient_data_id: number;
  answers_version: number;
  layout: string;
  line: string;
}

/**
 * SQLite: a case's answers as one JSON array of answer arrays, in the order they were given (a multiple
 * choice lists its answers so). The database then hands over one value per case instead of one row per
 * answer, which the driver would each turn into JavaScript values (about 1.3 µs of CPU per answer row);
 * numbers keep every digit (SQLite writes 17 where the shortest text would not read back the same), so the
 * cells are the same as read one by one. On PostgreSQL building the JSON cost the database more than the
 * driver saved (17–21 s against 19 s at 100,000 cases), so it reads one row per answer but for the chosen
 * options (two answers in three), CHOICES_OF_CASE.
 */
const ANSWERS_OF_CASE = sql.raw(
  "json_group_array(json_array(question_id, answer_option_id, text_response, numerical_response, date_time_response) order by id)",
);
/**
 * PostgreSQL: a case's chosen options as one text, "question:option" in the order given, joined by ",": two
 * integers need no quoting, and the database joins them for less than the driver takes to read them a row each.
 * A choice question's cells never come from another kind of answer, nor another question's from a chosen option
 * (`put`), so reading the two apart writes the same line.
 */
const CHOICES_OF_CASE = sql.raw("string_agg(question_id || ':' || answer_option_id, ',' order by id)");

/**
 * The lines of one survey's cases, in KEPT_SEP: where each question's cells stand, whether a kept line is the
 * present one, and the lines of cases from their answers. A question's place in the row is known from
 * the survey, so a row is put together without collecting its answers first. A date-time answer is written
 * in the clinic's zone with its offset ("2024-03-01T08:00:00+01:00", docs/decisions/053-clinic-time-zone.md).
 */
export function caseLines(survey: Survey, questions: Question[], zone: ClinicZone) {
  // Where each question's cells start (a choice question has two: texts and codes), and each preliminary's.
  const firstCell = new Map<number, number>();
  const choice = new Set<number>();
  let width = CASE_CELLS + 2 * survey.PatientForm.length;
  for (const q of questions) {
    firstCell.set(q.Id, width);
    if (q.AnswerOptions.length > 0) choice.add(q.Id);
    width += q.AnswerOptions.length > 0 ? 2 : 1;
  }
  // The case's total score last (docs/decisions/051-instrument-scores.md), from the options it chose.
  const totalCell = survey.ScoreTitle ? width++ : null;
  const scores = optionScoreUnits(survey);
  const prelimCell = new Map(survey.PatientForm.map((a, i) => [a.Id, CASE_CELLS + 2 * i] as const));
  const options = new Map(questions.flatMap((q) => q.AnswerOptions.map((o) => [o.Id, o] as const)));
  const prelimOptions = new Map(survey.PatientForm.flatMap((a) => a.AnswerOptions.map((o) => [o.Id, o] as const)));
  const layout = layoutOf(survey, questions, zone);

  /** The options each case chose that have a score, for its total. */
  const chosen = new Map<number, number[]>();
  const put = (
    row: (string | number | null)[] | undefined,
    caseId: number,
    questionId: number,
    optionId: number | null,
    text: string | null,
    number: number | null,
    dateTime: string | null,
  ) => {
    const at = firstCell.get(questionId);
    if (!row || at === undefined) return;
    if (choice.has(questionId)) {
      const o = options.get(optionId ?? -1);
      if (!o) return;
      row[at] = row[at] === null ? answerText(o) : `${row[at]} | ${answerText(o)}`;
      row[at + 1] = row[at + 1] === null ? code(o) : `${row[at + 1]} | ${code(o)}`;
      if (scores.has(o.Id)) {
        const list = chosen.get(caseId);
        if (list) list.push(o.Id);
        else chosen.set(caseId, [o.Id]);
      }
    } else if (row[at] === null) {
      row[at] = text ?? number ?? (dateTime ? zone.wallClock(dateTime) : null);
    }
  };

  return {
    layout,
    /** The row's width in cells, the case's own included. */
    width,
    /** A case whose kept line was written for its present answers and the survey's present layout. */
    isKept: (c: KeptOrNot) =>
      c.line !== null && c.layout === layout && Number(c.kept_version) === Number(c.answers_version),

    /**
     * The answers of these cases. Read after their answers versions: a line written from newer answers than
     * its version says is written anew next time, never taken for current.
     */
    async read(reader: LeanReader, ids: number[]): Promise<CaseAnswers> {
      if (ids.length === 0) return { answers: [], prelims: [], choices: [] };
      const db = reader.db;
      const sqlite = dialectOf(db) === "sqlite";
      const answers = db.selectFrom("question_responses").where("patient_data_id", "in", ids);
      const [rows, choices, prelims] = await Promise.all([
        reader.rows(
          sqlite
            ? answers
                .select(["patient_data_id", sql<string>`${ANSWERS_OF_CASE}`.as("answers")])
                .groupBy("patient_data_id")
            : answers
                .select([
                  "patient_data_id",
                  "question_id",
                  "answer_option_id",
                  "text_response",
                  "numerical_response",
                  "date_time_response",
                ])
                .where("answer_option_id", "is", null)
                .orderBy("id"),
        ),
        sqlite
          ? []
          : reader.rows(
              answers
                .select(["patient_data_id", sql<string>`${CHOICES_OF_CASE}`.as("choices")])
                .where("answer_option_id", "is not", null)
                .groupBy("patient_data_id"),
            ),
        reader.rows(
          db
            .selectFrom("attribute_responses")
            .select(["patient_data_id", "attribute_id", "answer_option_id"])
            .where("patient_data_id", "in", ids),
        ),
      ]);
      return { answers: rows, prelims, choices };
    },

    /** The lines (without the case's own cells, in KEPT_SEP) of these cases from their answers, by case id. */
    linesOf(ids: number[], { answers, prelims, choices }: CaseAnswers, sqlite: boolean): Map<number, string> {
      const rowOf = new Map<number, (string | number | null)[]>();
      for (const id of ids) rowOf.set(id, new Array<string | number | null>(width).fill(null));
      for (const [caseId, attributeId, optionId] of prelims as [number, number, number][]) {
        const row = rowOf.get(caseId);
        const at = prelimCell.get(attributeId);
        const o = prelimOptions.get(optionId);
        if (!row || at === undefined || !o) continue;
        row[at] = o.Text;
        row[at + 1] = code(o);
      }
      chosen.clear();
      if (sqlite) {
        for (const [caseId, cells] of answers as [number, string][]) {
          const row = rowOf.get(caseId);
          for (const [q, o, t, n, d] of JSON.parse(cells) as AnswerCells[]) put(row, caseId, q, o, t, n, d);
        }
      } else {
        for (const [caseId, pairs] of choices as [number, string][]) {
          const row = rowOf.get(caseId);
          for (const pair of pairs.split(",")) {
            const colon = pair.indexOf(":");
            put(row, caseId, Number(pair.slice(0, colon)), Number(pair.slice(colon + 1)), null, null, null);
          }
        }
        for (const [caseId, q, o, t, n, d] of answers as [number, ...AnswerCells][])
          put(rowOf.get(caseId), caseId, q, o, t, n, d);
      }
      const lines = new Map<number, string>();
      for (const [id, row] of rowOf) {
        if (totalCell !== null) row[totalCell] = totalOfUnits(scores, chosen.get(id) ?? []);
        lines.set(id, csvLine(row.slice(CASE_CELLS), KEPT_SEP));
      }
      return lines;
    },
  };
}

/**
 * Keeps the lines just written for the next export; false when they were not kept. Only an optimisation: a
 * case removed meanwhile (its line has nothing to belong to) or a database that refuses the write leaves the
 * export as it is.
 */
export async function keepLines(store: DB, rows: KeptLine[]): Promise<boolean> {
  if (rows.length === 0) return true;
  try {
    await store
      .insertInto("case_export_rows")
      .values(rows)
      .onConflict((oc) =>
        oc.column("patient_data_id").doUpdateSet((eb) => ({
          answers_version: eb.ref("excluded.answers_version"),
          layout: eb.ref("excluded.layout"),
          line: eb.ref("excluded.line"),
        })),
      )
      .execute();
    return true;
  } catch (error) {
    log.info("export.lines_not_kept", { cases: rows.length, error: String(error) });
    return false;
  }
}
