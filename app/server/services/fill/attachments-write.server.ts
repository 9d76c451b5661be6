import { AppError } from "~/domain/errors";
import {
  cleanFileName,
  contentMatchesExtension,
  contentTypeOf,
  fileExtension,
  isAllowedExtension,
  uploadRefusal,
  type UploadErrorKey,
} from "~/domain/uploads";
import { visibleQuestionIds } from "~/domain/visibility";
import type { DB, Trx } from "~/server/db/types.server";
import { log } from "~/server/log.server";
import type { AttachmentStore } from "~/server/storage/attachments.server";
import type { SurveyCaller } from "../surveys.server";
import { auditCase, requireFillableSurvey } from "./access.server";
import { answerRowsOf, preliminaryOf, toAnswers } from "./case-answers.server";
import { findCaseById, requireOpen, touchCase } from "./cases.server";
import { surveyStructure } from "./structure.server";

export interface AttachmentTarget {
  surveyId: number;
  questionId: number;
  patientDataId: number;
}

export interface IncomingFile {
  name: string;
  bytes: Uint8Array;
}

export type UploadResult =
  | { FileName: string; Uploaded: true; Id: number; FileExtension: string }
  | { FileName: string; Uploaded: false; Type: UploadErrorKey; Error: UploadErrorKey; Message: string };

const messages: Record<UploadErrorKey, string> = {
  SURVEY_ATTACHMENTS_TOO_MANY: "A question holds up to 5 files",
  SURVEY_ATTACHMENTS_NOT_ALLOWED: "This question takes no files, or the file name cannot be used",
  SURVEY_ATTACHMENTS_EXTENSTION_UNALLOWED: "This file type is not allowed",
  SURVEY_ATTACHMENTS_CONTENT_MISMATCH: "The file's content is not what its extension says",
  SURVEY_ATTACHMENTS_TOO_LARGE: "The file is larger than 4,000,000 bytes",
  SURVEY_ATTACHMENTS_DUPLICATED_FILENAME: "A file with this name is attached to this question already",
};

const refused = (FileName: string, key: UploadErrorKey): UploadResult => ({
  FileName,
  Uploaded: false,
  Type: key,
  Error: key,
  Message: messages[key],
});

/** Checks that the caller may change this question's files now; the Open case, locked in a transaction. */
async function writableTarget(db: DB | Trx, caller: SurveyCaller, target: AttachmentTarget) {
  const access = await requireFillableSurvey(db, caller, target.surveyId);
  const found = await findCaseById(db, target.patientDataId, { lock: db.isTransaction });
  // A patient's link writes to its own case only (decision 057).
  const own = found?.survey_id === target.surveyId && (!caller.link || caller.link.patientDataId === found.id);
  const kase = requireOpen(own ? found : undefined, String(target.patientDataId));
  const structure = await surveyStructure(db, access);
  const question = structure.questions.get(target.questionId);
  if (!question) {
    throw new AppError("VALIDATION_ERROR", `Question ${target.questionId} is not part of survey ${target.surveyId}`);
  }
  const [preliminary, rows] = await Promise.all([preliminaryOf(db, kase.id), answerRowsOf(db, kase.id)]);
  if (!visibleQuestionIds(structure.topLevel, preliminary, toAnswers(rows)).has(question.Id)) {
    throw new AppError("VALIDATION_ERROR", `Question ${question.Id} is not shown for this case`);
  }
  return { kase, question };
}

function namesOf(db: DB | Trx, target: AttachmentTarget) {
  return db
    .selectFrom("file_attachments")
    .select("file_name")
    .where("patient_data_id", "=", target.patientDataId)
    .where("question_id", "=", target.questionId)
    .execute()
    .then((rows) => rows.map((r) => r.file_name));
}

/** Each file in turn against the rules (extension, size, count, duplicate name, content). */
function judge(files: readonly IncomingFile[], existing: readonly string[], allowsAttachments: boolean) {
  const names = [...existing];
  return files.map((file) => {
    const key = uploadRefusal({ name: file.name, size: file.bytes.length }, names, { allowsAttachments });
    const name = cleanFileName(file.name) ?? file.name;
    if (key) return { file, name, key };
    const extension = fileExtension(name);
    if (!isAllowedExtension(extension)) {
      return { file, name, key: "SURVEY_ATTACHMENTS_EXTENSTION_UNALLOWED" as const };
    }
    if (!contentMatchesExtension(extension, file.bytes)) {
      return { file, name, key: "SURVEY_ATTACHMENTS_CONTENT_MISMATCH" as const };
    }
    names.push(name);
    return { file, name, key: null, extension };
  });
}

/**
 * POST /file-attachments/upload: checks each file against the rules and stores those that pass; the
 * answer lists every file's outcome. The caller's permission is checked before the files are read.
 */
export async function uploadAttachments(
  db: DB,
  store: AttachmentStore,
  caller: SurveyCaller,
  target: AttachmentTarget,
  readFiles: () => Promise<IncomingFile[]>,
): Promise<UploadResult[]> {
  const { question } = await writableTarget(db, caller, target);
  const files = await readFiles();
  if (files.length === 0) throw new AppError("VALIDATION_ERROR", "Send one or more files in the form field files");
  const verdicts = judge(files, await namesOf(db, target), question.AllowFileAttachments);
  // A store outside the database gets the bytes before the row commits (they are removed again below if
  // the row does not); the database store writes them in the row's own transaction.
  const keys = new Map<number, string>();
  try {
    if (!store.transactional) {
      for (const [i, v] of verdicts.entries()) if (!v.key) keys.set(i, await store.put(v.file.bytes));
    }
    return await db.transaction().execute(async (trx) => {
      const { kase } = await writableTarget(trx, caller, target);
      // Checked again under the lock: another upload may have added files meanwhile.
      const final = judge(files, await namesOf(trx, target), question.AllowFileAttachments);
      const results: UploadResult[] = [];
      for (const [i, v] of final.entries()) {
        // A file that passed the first check but not this one is refused (its early blob is removed below).
        if (v.key || verdicts[i].key || !v.extension) {
          results.push(refused(v.name, v.key ?? "SURVEY_ATTACHMENTS_TOO_MANY"));
          continue;
        }
        const key = store.transactional ? await store.put(v.file.bytes, { db: trx }) : keys.get(i)!;
        const row = await trx
          .insertInto("file_attachments")
          .values({
            survey_id: target.surveyId,
            patient_data_id: kase.id,
            question_id: question.Id,
            file_name: v.name,
            file_extension: v.extension,
            content_type: contentTypeOf(v.extension),
            size: v.file.bytes.length,
            storage_key: key,
            uploaded_by_user_id: caller.link ? null : caller.surveyUserDataId,
            created_at: new Date().toISOString(),
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        keys.delete(i);
        results.push({ FileName: v.name, Uploaded: true, Id: row.id, FileExtension: v.extension });
      }
      const stored = results.filter((r) => r.Uploaded);
      if (stored.length > 0) {
        await touchCase(trx, kase.id);
        await auditCase(trx, caller, {
          action: "attachment.upload",
          entity: "file_attachment",
          entityId: question.Id,
          surveyId: target.surveyId,
          patientDataId: kase.id,
          after: stored,
        });
      }
      return results;
    });
  } finally {
    // Blobs that did not end up in a row (refused under the lock, or the transaction failed).
    for (const key of keys.values())
      await store.delete(key).catch((e: unknown) => log.error("attachment.cleanup", { error: String(e) }));
  }
}

/** DELETE /file-attachments/delete: removes one file (by name) from a question of an Open case. */
export async function deleteAttachment(
  db: DB,
  store: AttachmentStore,
  caller: SurveyCaller,
  ref: Omit<AttachmentTarget, "surveyId">,
  fileName: string,
): Promise<void> {
  const found = await findCaseById(db, ref.patientDataId);
  if (!found) throw new AppError("SURVEY_PATIENTID_NOT_FOUND", `There is no case ${ref.patientDataId}`);
  const target = { ...ref, surveyId: found.survey_id };
  const key = await db.transaction().execute(async (trx) => {
    const { kase } = await writableTarget(trx, caller, target);
    const row = await trx
      .selectFrom("file_attachments")
      .select(["id", "storage_key", "file_name", "size"])
      .where("patient_data_id", "=", kase.id)
      .where("question_id", "=", target.questionId)
      .where("file_name", "=", fileName)
      .executeTakeFirst();
    if (!row) throw new AppError("NOT_FOUND", `No file ${fileName} is attached to this question`);
    await trx.deleteFrom("file_attachments").where("id", "=", row.id).execute();
    if (store.transactional) await store.delete(row.storage_key, { db: trx });
    await touchCase(trx, kase.id);
    await auditCase(trx, caller, {
      action: "attachment.delete",
      entity: "file_attachment",
      entityId: row.id,
      surveyId: target.surveyId,
      patientDataId: kase.id,
      before: { FileName: row.file_name, Size: row.size },
    });
    return row.storage_key;
  });
  if (!store.transactional)
    await store.delete(key).catch((e: unknown) => log.error("attachment.cleanup", { error: String(e) }));
}
