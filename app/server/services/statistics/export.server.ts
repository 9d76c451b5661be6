import { defaultCulture } from "~/domain/culture";
import { csvField, csvLine, csvSeparator, sanitiseFileName, type StatisticsFilters } from "~/domain/statistics";
import { storedToWireDateTime } from "~/domain/response-values";
import { answerText, type Question, type Survey } from "~/domain/survey";
import { allQuestions, topLevelQuestions } from "~/domain/visibility";
import { translate } from "~/server/locales.server";
import { createHash } from "node:crypto";
import { sql } from "kysely";
import { dialectOf, openLeanReader, type LeanReader } from "~/server/db/db.server";
import type { DB } from "~/server/db/types.server";
import { log } from "~/server/log.server";
import { surveyStructure } from "../fill/structure.server";
import type { SurveyCaller } from "../surveys.server";
import { auditReading } from "../audit-reading.server";
import { countedCondition, requireAnalyst } from "./cases.server";
import { zipStream, type ZipPart } from "./zip.server";

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

const code = (o: { Id: number; Value: string | null }) => o.Value?.trim() || String(o.Id);

function columnsOf(survey: Survey, questions: Question[], culture: string | null): Column[] {
  const t = (key: string, vars?: Record<string, string>) =>
    translate(culture ?? undefined, `statistics.codebook.${key}`, vars);
  const cols: Column[] = [
    { name: "PatientId", title: t("patientId"), kind: t("text"), codes: "" },
    { name: "State", title: t("state"), kind: t("text"), codes: "" },
    { name: "Created", title: t("created"), kind: t("isoDateTime"), codes: "" },
    { name: "Closed", title: t("closed"), kind: t("isoDateTime"), codes: "" },
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
    const plain = q.Unit ? t("unit", { type: q.Type, unit: q.Unit }) : q.Type;
    cols.push({ name: `Q${q.Id}`, title, kind: choice ? t("choiceTexts", { type: q.Type }) : plain, codes });
    if (choice) cols.push({ name: `Q${q.Id}_code`, title, kind: t("choiceCodes", { type: q.Type }), codes });
  }
  return cols;
}

/**
 * What a case's line is written from besides its answers: the separator, the survey's preliminary and
 * questions with their options' texts and codes, and the line's format (FORMAT: raise it when the code that
 * writes a line changes, and every kept line is written anew).
 */
const FORMAT = 1;
/** The case's own cells at the start of its line (patient id, state, created, closed), not kept. */
const CASE_CELLS = 4;
function layoutOf(survey: Survey, questions: Question[], sep: string): string {
  const options = (list: { Id: number; Value: string | null }[], text: (o: never) => string) =>
    list.map((o) => [o.Id, text(o as never), code(o)]);
  const shape = [
    FORMAT,
    sep,
    survey.PatientForm.map((a) => [a.Id, options(a.AnswerOptions, (o: { Text: string }) => o.Text)]),
    questions.map((q) => [q.Id, q.Type, options(q.AnswerOptions, answerText)]),
  ];
  return createHash("sha256").update(JSON.stringify(shape)).digest("base64url");
}

/**
 * responses.csv, a page of counted cases at a time. A case's line is kept once written (case_export_rows,
 * docs/decisions/031-export-rows.md), but for the case's own cells, and used again while the case's answers version and the survey's
 * layout are those it was written for; only the other cases' answers are read. Each page's answers are read as one array per case
 * (not an object per answer) and written straight into the cells of their case's row: a question's place in
 * the row is known from the survey, so a row is put together without collecting its answers first.
 */
async function* responsesCsv(
  reader: LeanReader,
  survey: Survey,
  questions: Question[],
  filters: StatisticsFilters,
  sep: ";" | ",",
) {
  const db = reader.db;
  const cols = columnsOf(survey, questions, null);
  yield encoder.encode(
    BOM +
      csvLine(
        cols.map((c) => c.name),
        sep,
      ),
  );
  // Where each question's cells start (a choice question has two: texts and codes), and each preliminary's.
  const firstCell = new Map<number, number>();
  const choice = new Set<number>();
  let width = CASE_CELLS + 2 * survey.PatientForm.length;
  for (const q of questions) {
    firstCell.set(q.Id, width);
    if (q.AnswerOptions.length > 0) choice.add(q.Id);
    width += q.AnswerOptions.length > 0 ? 2 : 1;
  }
  const prelimCell = new Map(survey.PatientForm.map((a, i) => [a.Id, CASE_CELLS + 2 * i] as const));
  const options = new Map(questions.flatMap((q) => q.AnswerOptions.map((o) => [o.Id, o] as const)));
  const prelimOptions = new Map(survey.PatientForm.flatMap((a) => a.AnswerOptions.map((o) => [o.Id, o] as const)));
  const perCase = dialectOf(db) === "sqlite";
  const layout = layoutOf(survey, questions, sep);
  /** A case whose kept line was written for its present answers and the survey's present layout. */
  const keptLine = (c: {
    line: string | null;
    layout: string | null;
    kept_version: number | null;
    answers_version: number;
  }) => c.line !== null && c.layout === layout && Number(c.kept_version) === Number(c.answers_version);
  /** One page of counted cases after a case id, in id order (a walk along the primary key), with their answers. */
  const readPage = async (after: number, size: number) => {
    const cases = await db
      .selectFrom("patient_data as pd")
      .leftJoin("case_export_rows as kept", "kept.patient_data_id", "pd.id")
      .select(["pd.id", "pd.patient_id", "pd.state", "pd.created_at", "pd.closed_at", "pd.answers_version"])
      .select(["kept.answers_version as kept_version", "kept.layout", "kept.line"])
      .where("pd.survey_id", "=", survey.Id)
      .where(countedCondition(db, filters))
      .where("pd.id", ">", after)
      .orderBy("pd.id")
      .limit(size)
      .execute();
    if (cases.length === 0) return null;
    // The version was read before the answers below: a line written from newer answers than its version says
    // is written anew next time, never taken for current.
    const ids = cases.filter((c) => !keptLine(c)).map((c) => c.id);
    if (ids.length === 0) return { cases, answers: [], prelims: [] };
    const [answers, prelims] = await Promise.all([
      reader.rows(
        perCase
          ? db
              .selectFrom("question_responses")
              .select(["patient_data_id", sql<string>`${ANSWERS_OF_CASE}`.as("answers")])
              .where("patient_data_id", "in", ids)
              .groupBy("patient_data_id")
          : db
              .selectFrom("question_responses")
              .select([
                "patient_data_id",
                "question_id",
                "answer_option_id",
                "text_response",
                "numerical_response",
                "date_time_response",
              ])
              .where("patient_data_id", "in", ids)
              // A multiple choice lists its answers in the order they were given.
              .orderBy("id"),
      ),
      reader.rows(
        db
          .selectFrom("attribute_responses")
          .select(["patient_data_id", "attribute_id", "answer_option_id"])
          .where("patient_data_id", "in", ids),
      ),
    ]);
    return { cases, answers, prelims };
  };
  // The next page is read while this one is written: on PostgreSQL the database works beside this process.
  let next = readPage(0, PAGE);
  try {
    for (;;) {
      const page = await next;
      if (!page) return;
      const { cases, answers, prelims } = page;
      // A round of kept lines is likely followed by another (cases closed long ago); a round that needed
      // answers, by more of those, whose reading stays bounded in rounds of PAGE.
      next = readPage(cases[cases.length - 1].id, cases.every(keptLine) ? KEPT_PAGE : PAGE);
      const rowOf = new Map<number, (string | number | null)[]>();
      const fresh = new Set(cases.filter(keptLine).map((c) => c.id));
      for (const c of cases) {
        if (fresh.has(c.id)) continue;
        rowOf.set(c.id, new Array<string | number | null>(width).fill(null));
      }
      for (const [caseId, attributeId, optionId] of prelims as [number, number, number][]) {
        const row = rowOf.get(caseId);
        const at = prelimCell.get(attributeId);
        const o = prelimOptions.get(optionId);
        if (!row || at === undefined || !o) continue;
        row[at] = o.Text;
        row[at + 1] = code(o);
      }
      const put = (
        row: (string | number | null)[] | undefined,
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
        } else if (row[at] === null) {
          row[at] = text ?? number ?? (dateTime ? storedToWireDateTime(dateTime) : null);
        }
      };
      if (perCase) {
        for (const [caseId, cells] of answers as [number, string][]) {
          const row = rowOf.get(caseId);
          for (const [q, o, t, n, d] of JSON.parse(cells) as AnswerCells[]) put(row, q, o, t, n, d);
        }
      } else {
        for (const [caseId, q, o, t, n, d] of answers as [number, ...AnswerCells][])
          put(rowOf.get(caseId), q, o, t, n, d);
      }
      let out = "";
      const written: { patient_data_id: number; answers_version: number; layout: string; line: string }[] = [];
      for (const c of cases) {
        // The case's own cells are written each time (a reopened case closes again later); its answers' cells
        // come from the kept line or are written and kept.
        let line = c.line!;
        if (!fresh.has(c.id)) {
          line = csvLine(rowOf.get(c.id)!.slice(CASE_CELLS), sep);
          written.push({ patient_data_id: c.id, answers_version: Number(c.answers_version), layout, line });
        }
        const own = [c.patient_id, c.state, c.created_at, c.closed_at].map((v) => csvField(v, sep)).join(sep);
        out += width > CASE_CELLS ? `${own}${sep}${line}` : `${own}\r\n`;
      }
      if (written.length > 0) await keepLines(reader.writer(), written);
      yield encoder.encode(out);
    }
  } finally {
    // Left early (the download was cancelled): the page being read is not waited for, and its end is quiet.
    next.catch(() => undefined);
  }
}

/**
 * Keeps the lines just written for the next export. Only an optimisation: a case removed meanwhile (its
 * line has nothing to belong to) or a database that refuses the write leaves the export as it is.
 */
async function keepLines(
  store: DB,
  rows: { patient_data_id: number; answers_version: number; layout: string; line: string }[],
) {
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
  } catch (error) {
    log.info("export.lines_not_kept", { cases: rows.length, error: String(error) });
  }
}

/** One answer as the export reads it: question, option, text, number, date-time. */
type AnswerCells = [number, number | null, string | null, number | null, string | null];

/**
 * SQLite: a case's answers as one JSON array of answer arrays, in the order they were given (a multiple
 * choice lists its answers so). The database then hands over one value per case instead of one row per
 * answer, which the driver would each turn into JavaScript values (about 1.3 µs of CPU per answer row);
 * numbers keep every digit (SQLite writes 17 where the shortest text would not read back the same), so the
 * cells are the same as read one by one. On PostgreSQL building the JSON cost the database more than the
 * driver saved (17–21 s against 19 s at 100,000 cases), so it reads one row per answer.
 */
const ANSWERS_OF_CASE = sql.raw(
  "json_group_array(json_array(question_id, answer_option_id, text_response, numerical_response, date_time_response) order by id)",
);

async function* codebookCsv(survey: Survey, questions: Question[], sep: ";" | ",", culture: string | null) {
  const t = (key: string) => translate(culture ?? undefined, `statistics.codebook.${key}`);
  const lines = [csvLine([t("column"), t("question"), t("kind"), t("codes")], sep)];
  for (const c of columnsOf(survey, questions, culture)) lines.push(csvLine([c.name, c.title, c.kind, c.codes], sep));
  yield encoder.encode(BOM + lines.join(""));
}

/**
 * POST /statistics/{id}/csv: the counted cases as a zip of responses.csv (one row per case, one column per
 * preliminary question, question and sub-question, answer texts and codes) and codebook.csv, streamed.
 * UTF-8 with a byte-order mark and the culture's separator, so spreadsheets open it as it is; cells that
 * would run as formulas are neutralised.
 */
export async function exportResponses(db: DB, caller: SurveyCaller, surveyId: number, filters: StatisticsFilters) {
  const access = await requireAnalyst(db, caller, surveyId);
  // The export carries every counted case's answers: reading them is logged (decision 028).
  await auditReading(db, caller, { action: "statistics.export", surveyId, after: { Filters: filters } });
  const { survey } = await surveyStructure(db, access);
  const questions = allQuestions(topLevelQuestions(survey.Categories));
  // A person who never chose a language works in the default one, and gets its separator and decimal mark.
  const culture = caller.culture ?? defaultCulture;
  const sep = csvSeparator(culture);
  async function* parts(): AsyncIterable<ZipPart> {
    const reader = openLeanReader(db);
    try {
      yield { name: "responses.csv", chunks: responsesCsv(reader, survey, questions, filters, sep) };
    } finally {
      await reader.close();
    }
    yield { name: "codebook.csv", chunks: codebookCsv(survey, questions, sep, culture) };
  }
  return { fileName: `${sanitiseFileName(survey.Title)}.zip`, body: zipStream(parts()) };
}
