import { defaultCulture } from "~/domain/culture";
import { csvLine, csvSeparator, sanitiseFileName, type StatisticsFilters } from "~/domain/statistics";
import { storedToWireDateTime } from "~/domain/response-values";
import { answerText, type Question, type Survey } from "~/domain/survey";
import { allQuestions, topLevelQuestions } from "~/domain/visibility";
import { translate } from "~/server/locales.server";
import { openLeanReader } from "~/server/db/db.server";
import type { DB } from "~/server/db/types.server";
import { surveyStructure } from "../fill/structure.server";
import type { SurveyCaller } from "../surveys.server";
import { countedCondition, requireAnalyst } from "./cases.server";
import { zipStream, type ZipPart } from "./zip.server";

/** Cases read per round: memory stays bounded whatever the survey's size. */
const PAGE = 200;
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

async function* responsesCsv(
  db: DB,
  survey: Survey,
  questions: Question[],
  filters: StatisticsFilters,
  sep: ";" | ",",
) {
  const cols = columnsOf(survey, questions, null);
  yield encoder.encode(
    BOM +
      csvLine(
        cols.map((c) => c.name),
        sep,
      ),
  );
  const options = new Map(questions.flatMap((q) => q.AnswerOptions.map((o) => [o.Id, o] as const)));
  const prelimOptions = new Map(survey.PatientForm.flatMap((a) => a.AnswerOptions.map((o) => [o.Id, o] as const)));
  let after = 0;
  for (;;) {
    // The next page of counted cases in id order: a walk along the primary key, not a new case list per page.
    const cases = await db
      .selectFrom("patient_data as pd")
      .select(["pd.id", "pd.patient_id", "pd.state", "pd.created_at", "pd.closed_at"])
      .where("pd.survey_id", "=", survey.Id)
      .where(countedCondition(db, filters))
      .where("pd.id", ">", after)
      .orderBy("pd.id")
      .limit(PAGE)
      .execute();
    if (cases.length === 0) return;
    after = cases[cases.length - 1].id;
    const ids = cases.map((c) => c.id);
    const [answers, prelims] = await Promise.all([
      db
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
        .orderBy("id")
        .execute(),
      db
        .selectFrom("attribute_responses")
        .select(["patient_data_id", "attribute_id", "answer_option_id"])
        .where("patient_data_id", "in", ids)
        .execute(),
    ]);
    // Each case's answers by question, so that a row is put together without searching its answers again
    // for every column.
    const byCase = new Map<number, Map<number, typeof answers>>();
    for (const a of answers) {
      const mine = byCase.get(a.patient_data_id) ?? byCase.set(a.patient_data_id, new Map()).get(a.patient_data_id)!;
      (mine.get(a.question_id) ?? mine.set(a.question_id, []).get(a.question_id)!).push(a);
    }
    const prelimByCase = new Map<number, Map<number, number>>();
    for (const p of prelims)
      (
        prelimByCase.get(p.patient_data_id) ?? prelimByCase.set(p.patient_data_id, new Map()).get(p.patient_data_id)!
      ).set(p.attribute_id, p.answer_option_id);
    let out = "";
    for (const c of cases) {
      const row: (string | number | null)[] = [c.patient_id, c.state, c.created_at, c.closed_at];
      const chosen = prelimByCase.get(c.id);
      for (const a of survey.PatientForm) {
        const o = prelimOptions.get(chosen?.get(a.Id) ?? -1);
        row.push(o?.Text ?? null, o ? code(o) : null);
      }
      const rows = byCase.get(c.id);
      for (const q of questions) {
        const mine = rows?.get(q.Id) ?? [];
        if (q.AnswerOptions.length > 0) {
          const picked = mine.map((r) => options.get(r.answer_option_id ?? -1)).filter((o) => o !== undefined);
          row.push(picked.length ? picked.map(answerText).join(" | ") : null);
          row.push(picked.length ? picked.map(code).join(" | ") : null);
        } else {
          const r = mine[0];
          row.push(
            r
              ? (r.text_response ??
                  r.numerical_response ??
                  (r.date_time_response ? storedToWireDateTime(r.date_time_response) : null))
              : null,
          );
        }
      }
      out += csvLine(row, sep);
    }
    yield encoder.encode(out);
  }
}

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
  const { survey } = await surveyStructure(db, access);
  const questions = allQuestions(topLevelQuestions(survey.Categories));
  // A person who never chose a language works in the default one, and gets its separator and decimal mark.
  const culture = caller.culture ?? defaultCulture;
  const sep = csvSeparator(culture);
  async function* parts(): AsyncIterable<ZipPart> {
    const reader = openLeanReader(db);
    try {
      yield { name: "responses.csv", chunks: responsesCsv(reader.db, survey, questions, filters, sep) };
    } finally {
      await reader.close();
    }
    yield { name: "codebook.csv", chunks: codebookCsv(survey, questions, sep, culture) };
  }
  return { fileName: `${sanitiseFileName(survey.Title)}.zip`, body: zipStream(parts()) };
}
