import { AppError } from "~/domain/errors";
import type { ErasurePreview, ErasureRequest, ErasureResult } from "~/domain/erasure";
import type { DB, Executor } from "~/server/db/types.server";
import { requireSurvey } from "~/server/services/survey-access.server";
import { actorOf, type SurveyCaller } from "~/server/services/surveys.server";
import type { AttachmentStore } from "~/server/storage/attachments.server";
import { eraseCase, erasureCounts } from "./erase.server";
import { patientKey } from "./keys.server";

/**
 * Erasure asked for by a person (docs/decisions/042-retention-and-erasure.md): the survey's approvers only,
 * as for its audit log. A patient id without a case answers 404, or 409 when a tombstone matches it.
 */
async function requireApprover(db: Executor, caller: SurveyCaller, surveyId: number) {
  const access = await requireSurvey(db, caller, surveyId, "see");
  if (!access.rights.CanApprove) throw new AppError("FORBIDDEN", "Only the survey's approvers erase its cases");
  return access;
}

async function caseToErase(db: Executor, key: string, surveyId: number, patientId: string) {
  const kase = await db
    .selectFrom("patient_data")
    .select(["id", "state", "closed_at"])
    .where("survey_id", "=", surveyId)
    .where("patient_id", "=", patientId)
    .executeTakeFirst();
  if (kase) return kase;
  return noCase(db, key, surveyId, patientId);
}

/**
 * A patient id without a case in the survey: 409 CASE_ALREADY_ERASED, with when and why, when a tombstone
 * matches it (the person learns that the data is gone, not that there never was any), else 404.
 */
export async function noCase(db: Executor, key: string, surveyId: number, patientId: string): Promise<never> {
  const tombstone = await db
    .selectFrom("case_erasures")
    .select(["erased_at", "reason"])
    .where("survey_id", "=", surveyId)
    .where("patient_key", "=", patientKey(key, surveyId, patientId))
    .orderBy("id", "desc")
    .executeTakeFirst();
  if (tombstone) {
    throw new AppError(
      "CASE_ALREADY_ERASED",
      `This patient id's case was erased on ${tombstone.erased_at}`,
      undefined,
      {
        ErasedAt: tombstone.erased_at,
        Reason: tombstone.reason,
      },
    );
  }
  throw new AppError("SURVEY_PATIENTID_NOT_FOUND", `There is no case ${patientId} in this survey`);
}

/** What erasing the patient id's case would remove (GET /erasures/preview). */
export async function erasurePreview(
  db: DB,
  key: string,
  caller: SurveyCaller,
  surveyId: number,
  patientId: string,
): Promise<ErasurePreview> {
  await requireApprover(db, caller, surveyId);
  const kase = await caseToErase(db, key, surveyId, patientId);
  const counts = await erasureCounts(db, kase.id);
  return {
    PatientId: patientId,
    Closed: kase.state === "Closed",
    ClosedAt: kase.closed_at,
    Answers: counts.answers,
    PreliminaryAnswers: counts.preliminaryAnswers,
    Attachments: counts.attachments,
    Signatures: counts.signatures,
  };
}

/** Erases the patient id's case of the survey (POST /erasures). */
export async function eraseOnRequest(
  db: DB,
  store: AttachmentStore,
  key: string,
  caller: SurveyCaller,
  request: ErasureRequest,
): Promise<ErasureResult> {
  await requireApprover(db, caller, request.SurveyId);
  const kase = await caseToErase(db, key, request.SurveyId, request.PatientId);
  const done = await eraseCase(db, store, key, actorOf(caller), {
    caseId: kase.id,
    surveyId: request.SurveyId,
    patientId: request.PatientId,
    reason: request.Reason,
  });
  if (!done) throw new AppError("CASE_ALREADY_ERASED", "This patient id's case was erased meanwhile");
  return {
    ErasureId: done.erasureId,
    ErasedAt: done.erasedAt,
    Reason: request.Reason,
    PatientId: request.PatientId,
    Answers: done.answers,
    PreliminaryAnswers: done.preliminaryAnswers,
    Attachments: done.attachments,
    Signatures: done.signatures,
    AuditRows: done.auditRows,
  };
}
