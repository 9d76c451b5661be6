import { AppError } from "~/domain/errors";
import { prepared } from "~/server/db/prepared.server";
import type { DB } from "~/server/db/types.server";
import type { AttachmentStore } from "~/server/storage/attachments.server";
import type { SurveyCaller } from "../surveys.server";
import { requireCaseReader } from "./access.server";
import { signAttachmentToken, verifyAttachmentToken } from "./attachment-links.server";
import { findCaseById } from "./cases.server";

/**
 * Reading attachments: those who may take part in the survey (the fill page) and those who analyse it
 * (its editors and approvers).
 */
async function readableCase(db: DB, caller: SurveyCaller, patientDataId: number) {
  // A patient's link reads its own case's files only (decision 057).
  const kase =
    caller.link && caller.link.patientDataId !== patientDataId ? undefined : await findCaseById(db, patientDataId);
  if (!kase) throw new AppError("SURVEY_PATIENTID_NOT_FOUND", `There is no case ${patientDataId}`);
  await requireCaseReader(db, caller, kase.survey_id);
  return kase;
}

/** GET /file-attachments: the files attached to one question of a case. */
export async function listAttachments(
  db: DB,
  caller: SurveyCaller,
  ref: { questionId: number; patientDataId: number },
) {
  await readableCase(db, caller, ref.patientDataId);
  const rows = await db
    .selectFrom("file_attachments")
    .select(["id", "file_name", "file_extension"])
    .where("patient_data_id", "=", ref.patientDataId)
    .where("question_id", "=", ref.questionId)
    .orderBy("id")
    .execute();
  return rows.map((r) => ({ Id: r.id, FileName: r.file_name, FileExtension: r.file_extension }));
}

const filesPerQuestion = prepared<[number], { question_id: number; n: number }>((db, $) =>
  db
    .selectFrom("file_attachments")
    .select((eb) => ["question_id", eb.fn.countAll<number>().as("n")])
    .where("patient_data_id", "=", $(0))
    .groupBy("question_id")
    .orderBy("question_id"),
);

/** GET /file-attachments/count: how many files each question of a case holds (questions with none left out). */
export async function countAttachments(db: DB, caller: SurveyCaller, patientDataId: number) {
  await readableCase(db, caller, patientDataId);
  const rows = await filesPerQuestion.all(db, patientDataId);
  return rows.map((r) => ({ QuestionId: r.question_id, NumberOfFileAttachment: Number(r.n) }));
}

/** GET /file-attachments/get-sas-blob-url: a download link for one file that expires in 10 minutes. */
export async function attachmentLink(
  db: DB,
  caller: SurveyCaller,
  attachmentId: number,
  opts: { secret: string; baseUrl: string },
) {
  const row = await db
    .selectFrom("file_attachments")
    .select(["id", "patient_data_id"])
    .where("id", "=", attachmentId)
    .executeTakeFirst();
  if (!row) throw new AppError("NOT_FOUND", `There is no attachment ${attachmentId}`);
  await readableCase(db, caller, row.patient_data_id);
  const token = signAttachmentToken(opts.secret, row.id);
  return { Url: `${opts.baseUrl}/file-attachments/download?token=${encodeURIComponent(token)}` };
}

/** GET /file-attachments/download: the file a valid, unexpired link names. */
export async function downloadAttachment(db: DB, store: AttachmentStore, secret: string, token: string) {
  const attachmentId = verifyAttachmentToken(secret, token);
  if (attachmentId === null) throw new AppError("FORBIDDEN", "The download link is not valid or has expired");
  const row = await db
    .selectFrom("file_attachments")
    .select(["file_name", "content_type", "storage_key"])
    .where("id", "=", attachmentId)
    .executeTakeFirst();
  const body = row ? await store.open(row.storage_key) : null;
  if (!row || !body) throw new AppError("NOT_FOUND", "The file no longer exists");
  return { body, fileName: row.file_name, contentType: row.content_type };
}
