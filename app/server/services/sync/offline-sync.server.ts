import { AppError } from "~/domain/errors";
import { writeTransaction } from "~/server/db/group-commit.server";
import type { OfflineSyncPayload, OfflineSyncResult } from "~/domain/offline-sync";
import { isUniqueViolation } from "~/server/db/db.server";
import type { DB } from "~/server/db/types.server";
import { auditAll } from "../audit.server";
import { findCase } from "../fill/cases.server";
import { surveyStructure } from "../fill/structure.server";
import { requireSurvey } from "../survey-access.server";
import { actorOf, type SurveyCaller } from "../surveys.server";
import { caseEntry, clearCase, createSyncCase, finishCase, writePlan } from "./sync-case.server";
import { planFill } from "./sync-plan.server";
import { findApplied, recordApplied, replay, requestHash } from "./sync-requests.server";

export interface OfflineSync {
  surveyId: number;
  /** The Idempotency-Key header; without one a repeated request is applied again (and meets its own case). */
  key: string | null;
  payload: OfflineSyncPayload;
}

/**
 * POST /survey-offline-sync/{surveyId} (docs/decisions/008-offline-sync.md): applies one offline fill to its
 * case in one transaction of its own and answers the case's id. A request whose key this person already applied answers
 * the same id again and changes nothing.
 */
export async function syncOfflineFill(db: DB, caller: SurveyCaller, sync: OfflineSync): Promise<OfflineSyncResult> {
  const hash = requestHash(sync.surveyId, sync.payload);
  try {
    return await applySync(db, caller, sync, hash);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  // Another request made the case (or applied the same key) meanwhile; now that it is committed, decide again.
  try {
    return await applySync(db, caller, sync, hash);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new AppError("SYNC_SURVEY_PATIENTID_CLASH", `A case ${sync.payload.PatientId} was started meanwhile`);
  }
}

function applySync(db: DB, caller: SurveyCaller, sync: OfflineSync, hash: string): Promise<OfflineSyncResult> {
  const { surveyId, key, payload } = sync;
  return writeTransaction(db, async (trx) => {
    const access = await requireSurvey(trx, caller, surveyId, "participate");
    // The case first, then the key: a sync that committed both meanwhile shows its key to every later
    // statement (PostgreSQL reads each statement's own snapshot), so a copy of it replays instead of clashing.
    const existing = await findCase(trx, surveyId, payload.PatientId, { lock: true });
    if (key) {
      const applied = await findApplied(trx, caller.surveyUserDataId, key);
      if (applied) return replay(applied, hash);
    }
    if (access.status !== "Active") {
      throw new AppError(
        "SYNC_SURVEY_INVALID_STATUS",
        `The survey is ${access.status}; only an Active survey is filled`,
      );
    }
    if (access.row.hash !== payload.SurveyHash) {
      throw new AppError("SYNC_SURVEY_OUTDATED_HASH", "The survey has changed since the fill was made");
    }
    if (existing?.state === "Closed") {
      throw new AppError("SYNC_SURVEY_ALREADY_CLOSED", `The case ${payload.PatientId} is already closed`);
    }
    if (existing && !payload.Overwrite) {
      throw new AppError("SYNC_SURVEY_PATIENTID_CLASH", `A case ${payload.PatientId} is already open`);
    }
    const plan = planFill(await surveyStructure(trx, access), payload);

    const now = new Date().toISOString();
    const close = payload.Close;
    const created = existing
      ? null
      : await createSyncCase(trx, caller, { surveyId, patientId: payload.PatientId, close, now });
    const caseId = existing?.id ?? created!.caseId;
    const target = { surveyId, caseId };
    const replaced = existing ? await clearCase(trx, caseId) : null;
    await writePlan(trx, target, plan, now);
    const entries = created ? created.entries : await finishCase(trx, target, close, now);
    if (key) await recordApplied(trx, { surveyUserDataId: caller.surveyUserDataId, key, surveyId, caseId, hash, now });
    const summary = {
      PatientId: payload.PatientId,
      QuestionAnswers: plan.answered,
      PreliminaryQuestionAnswers: Object.keys(plan.preliminary).length,
      Overwrite: existing !== undefined,
      Close: close,
      IdempotencyKey: key,
    };
    await auditAll(trx, actorOf(caller), [
      ...entries,
      caseEntry(target, { action: "case.sync", before: replaced, after: summary }),
    ]);
    return { Data: caseId };
  });
}
