import { sql } from "kysely";
import { AppError } from "~/domain/errors";
import { translateSurvey } from "~/domain/content-languages";
import { statisticsLanguages } from "~/domain/statistics-languages";
import { respondentKinds } from "~/domain/respondents";
import {
  sanitiseFileName,
  uniqueFileName,
  type FreeTextPage,
  type StatisticsFilterData,
  type StatisticsFilters,
} from "~/domain/statistics";
import type { DB } from "~/server/db/types.server";
import type { AttachmentStore } from "~/server/storage/attachments.server";
import { dialectOf } from "~/server/db/db.server";
import { surveyStructure } from "../fill/structure.server";
import type { SurveyCaller } from "../surveys.server";
import { countedCases, requireAnalyst } from "./cases.server";
import { zipStream, type ZipPart } from "./zip.server";

/** The most files one archive request may name. */
export const ARCHIVE_MAX_FILES = 10_000;

/**
 * The answer text in lower case for a case-insensitive search. SQLite's lower() folds ASCII letters only,
 * so there the needle's other letters (Ä, Ö, Ü, É, ...) are folded in the text one by one.
 */
function lowerText(db: DB, needle: string) {
  let expr = sql<string>`lower(qr.text_response)`;
  if (dialectOf(db) !== "sqlite") return expr;
  for (const letter of new Set([...needle].filter((c) => c > "\u007f"))) {
    const upper = letter.toUpperCase();
    if (upper !== letter && [...upper].length === 1) expr = sql<string>`replace(${expr}, ${upper}, ${letter})`;
  }
  return expr;
}

/** POST /statistics/{surveyId}/free-text/{questionId}: a page of the counted cases' answers, newest first. */
export async function freeTextPage(
  db: DB,
  caller: SurveyCaller,
  ref: { surveyId: number; questionId: number; take: number; skip: number; filterString?: string },
  filters: StatisticsFilters,
): Promise<FreeTextPage> {
  await requireAnalyst(db, caller, ref.surveyId);
  let query = db
    .selectFrom("question_responses as qr")
    .innerJoin("patient_data as p", "p.id", "qr.patient_data_id")
    .where("qr.survey_id", "=", ref.surveyId)
    .where("qr.question_id", "=", ref.questionId)
    .where("qr.text_response", "is not", null)
    .where("qr.patient_data_id", "in", countedCases(db, ref.surveyId, filters));
  const needle = ref.filterString?.trim().toLowerCase();
  if (needle) {
    const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where(sql<boolean>`${lowerText(db, needle)} like ${pattern} escape '\\'`);
  }
  const [total, rows] = await Promise.all([
    query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    query
      .select(["p.patient_id", "qr.text_response", "qr.updated_at"])
      .orderBy("qr.updated_at", "desc")
      .orderBy("qr.id", "desc")
      .limit(ref.take)
      .offset(ref.skip)
      .execute(),
  ]);
  return {
    Data: rows.map((r) => ({ PatientId: r.patient_id, Response: r.text_response!, DateTime: r.updated_at })),
    Total: Number(total.n),
  };
}

/**
 * GET /statisticsFilterData: the teams one can filter by, the survey's preliminary questions (their texts in
 * `language`, docs/decisions/056-statistics-languages.md), the languages the cases can be filtered by and who
 * can have answered them (docs/decisions/057-patient-links.md).
 */
export async function filterData(
  db: DB,
  caller: SurveyCaller,
  surveyId: number,
  language?: string,
): Promise<StatisticsFilterData> {
  const access = await requireAnalyst(db, caller, surveyId);
  const [{ survey: source }, teams] = await Promise.all([
    surveyStructure(db, access),
    db.selectFrom("teams").select(["id", "name", "disabled"]).orderBy("name").execute(),
  ]);
  const survey = language ? translateSurvey(source, language) : source;
  return {
    Teams: teams.map((t) => ({ Id: t.id, Name: t.name, Disabled: t.disabled === 1 })),
    PreliminaryQuestions: survey.PatientForm.map((a) => ({
      Id: a.Id,
      Title: a.Title,
      AnswerOptions: a.AnswerOptions.map((o) => ({ Id: o.Id, Text: o.Text })),
    })),
    Languages: statisticsLanguages(source),
    // Who answered a case (docs/decisions/057-patient-links.md): any survey's cases may come from each.
    Respondents: [...respondentKinds],
  };
}

/** POST /file-attachments/get-by-question-id/{id}: the files of a question in the counted cases. */
export async function questionAttachments(
  db: DB,
  caller: SurveyCaller,
  ref: { surveyId: number; questionId: number },
  filters: StatisticsFilters,
) {
  await requireAnalyst(db, caller, ref.surveyId);
  const rows = await db
    .selectFrom("file_attachments as f")
    .innerJoin("patient_data as p", "p.id", "f.patient_data_id")
    .select(["f.id", "f.file_name", "f.file_extension", "p.patient_id"])
    .where("f.survey_id", "=", ref.surveyId)
    .where("f.question_id", "=", ref.questionId)
    .where("f.patient_data_id", "in", countedCases(db, ref.surveyId, filters))
    .orderBy("f.id")
    .execute();
  return {
    Data: rows.map((r) => ({
      Id: r.id,
      FileName: r.file_name,
      FileExtension: r.file_extension,
      PatientId: r.patient_id,
    })),
  };
}

/**
 * POST /file-attachments/get-archived: the named files of one question as a zip, streamed. Every file must
 * belong to that question of a survey the caller analyses; names inside the archive are made safe and
 * unique, each under its patient id.
 */
export async function archivedAttachments(
  db: DB,
  store: AttachmentStore,
  caller: SurveyCaller,
  req: { QuestionId: number; SurveyFileAttachmentIds: number[] },
) {
  const question = await db
    .selectFrom("questions")
    .select(["survey_id", "title"])
    .where("id", "=", req.QuestionId)
    .executeTakeFirst();
  if (!question) throw new AppError("NOT_FOUND", `There is no question ${req.QuestionId}`);
  await requireAnalyst(db, caller, question.survey_id);
  const ids = [...new Set(req.SurveyFileAttachmentIds)];
  const rows = await db
    .selectFrom("file_attachments as f")
    .innerJoin("patient_data as p", "p.id", "f.patient_data_id")
    .select(["f.id", "f.file_name", "f.storage_key", "p.patient_id"])
    .where("f.question_id", "=", req.QuestionId)
    .where("f.id", "in", ids)
    .orderBy("f.id")
    .execute();
  if (rows.length !== ids.length)
    throw new AppError("VALIDATION_ERROR", "Some files are not attachments of this question");
  const used = new Set<string>();
  async function* parts(): AsyncIterable<ZipPart> {
    for (const r of rows) {
      const name = uniqueFileName(
        `${sanitiseFileName(r.patient_id, "case")}/${sanitiseFileName(r.file_name, "file")}`,
        used,
      );
      const body = await store.open(r.storage_key);
      if (!body) continue;
      yield { name, chunks: body.chunks, store: true };
    }
  }
  return { fileName: `${sanitiseFileName(question.title, "attachments")}.zip`, body: zipStream(parts()) };
}
