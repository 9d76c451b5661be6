import { AppError, type ErrorType } from "~/domain/errors";
import { writeTransaction } from "~/server/db/group-commit.server";
import type { OfflineSyncPayload, OfflineSyncResult } from "~/domain/offline-sync";
import { isUniqueViolation } from "~/server/db/db.server";
import type { DB } from "~/server/db/types.server";
import { offlineSyncs } from "~/server/metrics.server";
import { auditAll, type Actor, type AuditEntry } from "../audit.server";
import { answerRowsOf, preliminaryOf, toAnswers, wireAnswer, type ResponseRow } from "../fill/case-answers.server";
import { caseVersion, findCase } from "../fill/cases.server";
import type { SurveyStructure } from "../fill/structure.server";
import { surveyStructure } from "../fill/structure.server";
import { requireSurvey } from "../survey-access.server";
import { actorOf, type SurveyCaller } from "../surveys.server";
import { respondentActorSub, respondentColumns } from "~/domain/respondents";
import { requireCaseLanguage } from "../fill/patients.server";
import { caseEntry, clearCase, createSyncCase, finishCase, writePlan } from "./sync-case.server";
import { planChanges, planFill, type FillPlan } from "./sync-plan.server";
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
  const outcome = { replayed: false };
  try {
    // A fill is synced only under the person who made it (decision 048), whoever's session sends it.
    if (sync.payload.AuthorId !== undefined && sync.payload.AuthorId !== caller.sub) {
      throw new AppError("SYNC_FILL_OTHER_AUTHOR", "This fill was made by another person: only they can sync it");
    }
    const result = await applyOrRetry(db, caller, sync, outcome);
    offlineSyncs.inc({ outcome: outcome.replayed ? "replayed" : "applied" });
    return result;
  } catch (error) {
    offlineSyncs.inc({ outcome: error instanceof AppError ? (SYNC_REFUSALS[error.type] ?? "refused") : "failed" });
    throw error;
  }
}

/** How the metrics name a sync the API refused (survey_offline_syncs_total). */
const SYNC_REFUSALS: Partial<Record<ErrorType, string>> = {
  SYNC_SURVEY_PATIENTID_CLASH: "clash",
  SYNC_SURVEY_OUTDATED_HASH: "outdated",
  SYNC_SURVEY_ALREADY_CLOSED: "closed",
  SYNC_SURVEY_INVALID_STATUS: "inactive",
  SYNC_FILL_OTHER_AUTHOR: "other_author",
};

async function applyOrRetry(
  db: DB,
  caller: SurveyCaller,
  sync: OfflineSync,
  outcome: { replayed: boolean },
): Promise<OfflineSyncResult> {
  const hash = requestHash(sync.surveyId, sync.payload);
  try {
    return await applySync(db, caller, sync, hash, outcome);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  // Another request made the case (or applied the same key) meanwhile; now that it is committed, decide again.
  try {
    return await applySync(db, caller, sync, hash, outcome);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new AppError("SYNC_SURVEY_PATIENTID_CLASH", `A case ${sync.payload.PatientId} was started meanwhile`);
  }
}

function applySync(
  db: DB,
  caller: SurveyCaller,
  sync: OfflineSync,
  hash: string,
  outcome: { replayed: boolean },
): Promise<OfflineSyncResult> {
  const { surveyId, key, payload } = sync;
  return writeTransaction(db, async (trx) => {
    outcome.replayed = false;
    const access = await requireSurvey(trx, caller, surveyId, "participate");
    // The case first, then the key: a sync that committed both meanwhile shows its key to every later
    // statement (PostgreSQL reads each statement's own snapshot), so a copy of it replays instead of clashing.
    const existing = await findCase(trx, surveyId, payload.PatientId, { lock: true });
    // A survey that requires a signature is submitted only by signing online (decision 029): a fill that
    // asks to close is saved, its case stays Open, and the answer says so.
    const signatureRequired = payload.Close && access.row.requires_signature === 1;
    const withSignature = (result: OfflineSyncResult): OfflineSyncResult =>
      signatureRequired && existing?.state !== "Closed" ? { ...result, SignatureRequired: true } : result;
    if (key) {
      const applied = await findApplied(trx, caller.surveyUserDataId, key);
      if (applied) {
        outcome.replayed = true;
        return withSignature(replay(applied, hash));
      }
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
    // A fill that continues the case as the device had it (its answers version) is no clash, as long as
    // nobody changed the case since (docs/decisions/038-typed-work-kept.md).
    const continued = payload.BaseVersion !== undefined;
    if (continued && existing?.answers_version !== payload.BaseVersion) {
      throw new AppError(
        "SYNC_SURVEY_PATIENTID_CLASH",
        existing
          ? `The case ${payload.PatientId} changed after the version this fill continues`
          : `The case ${payload.PatientId} this fill continues is not there any more`,
      );
    }
    if (existing && !continued && !payload.Overwrite) {
      throw new AppError("SYNC_SURVEY_PATIENTID_CLASH", `A case ${payload.PatientId} is already open`);
    }
    const structure = await surveyStructure(trx, access);
    const previous = existing ? await answerRowsOf(trx, existing.id) : [];
    const previousPreliminary = existing ? await preliminaryOf(trx, existing.id) : {};
    const plan = continued
      ? planChanges(structure, payload, { rows: previous, preliminary: previousPreliminary })
      : planFill(structure, payload);

    const now = new Date().toISOString();
    const close = payload.Close && !signatureRequired;
    // The language the fill was made in (docs/decisions/055-fill-languages.md); none named: as it was.
    const source = access.row.source_language;
    const language = payload.Language ? requireCaseLanguage(access.row, payload.Language) : undefined;
    const created = existing
      ? null
      : await createSyncCase(trx, caller, {
          surveyId,
          patientId: payload.PatientId,
          close,
          now,
          language: language ?? source,
        });
    const caseId = existing?.id ?? created!.caseId;
    const target = { surveyId, caseId };
    const replaced = existing ? await clearCase(trx, caseId) : null;
    await writePlan(trx, target, plan, now);
    const entries = created
      ? created.entries
      : await finishCase(
          trx,
          target,
          close,
          now,
          language && { before: existing?.language ?? source, after: language },
        );
    const byPatient = handedOver(caller, surveyId, payload);
    if (byPatient) {
      await trx.updateTable("patient_data").set(respondentColumns(byPatient)).where("id", "=", caseId).execute();
    }
    const version = await caseVersion(trx, caseId);
    if (key) {
      await recordApplied(trx, {
        surveyUserDataId: caller.surveyUserDataId,
        key,
        surveyId,
        caseId,
        hash,
        now,
        version,
      });
    }
    const summary = {
      PatientId: payload.PatientId,
      QuestionAnswers: plan.answered,
      PreliminaryQuestionAnswers: Object.keys(plan.preliminary).length,
      Overwrite: existing !== undefined && !continued,
      ...(continued ? { BaseVersion: payload.BaseVersion } : {}),
      Close: close,
      ...(signatureRequired ? { SignatureRequired: true } : {}),
      IdempotencyKey: key,
    };
    await auditAll(trx, byPatient ? handoverActor(caller) : actorOf(caller), [
      ...entries,
      ...preliminaryEntries(target, previousPreliminary, plan),
      ...answerEntries(target, structure, previous, plan),
      caseEntry(target, { action: "case.sync", before: replaced, after: summary }),
    ]);
    return withSignature({ Data: caseId, Version: version });
  });
}

/**
 * The patient on this staff member's device, when the fill was made while it was handed over to them
 * (docs/decisions/058-hand-over.md): the device says so, or the session is handed over for this case now.
 * Only a staff member's own session records it, for their own record.
 */
function handedOver(caller: SurveyCaller, surveyId: number, payload: OfflineSyncPayload) {
  if (caller.link || caller.surveyUserDataId <= 0) return null;
  const now =
    caller.handover && caller.handover.surveyId === surveyId && caller.handover.patientId === payload.PatientId;
  if (payload.Respondent !== "handover" && !now) return null;
  return { kind: "handover" as const, staffUserId: caller.surveyUserDataId, staffName: "" };
}

/** The trail's actor of a patient's answers on the staff member's device: their account, "handover:<id>". */
function handoverActor(caller: SurveyCaller): Actor {
  const sub = respondentActorSub({ kind: "handover", staffUserId: caller.surveyUserDataId, staffName: "" });
  return { surveyUserDataId: caller.surveyUserDataId, sub };
}

/**
 * One "attributeResponse.sync" entry per preliminary question whose answer the sync changed, in the shape
 * attributeResponse.record uses (docs/decisions/028-audit-reading.md).
 */
function preliminaryEntries(
  target: { surveyId: number; caseId: number },
  previous: Record<number, number>,
  plan: FillPlan,
): AuditEntry[] {
  const ids = [...new Set([...Object.keys(previous), ...Object.keys(plan.preliminary)].map(Number))].sort(
    (a, b) => a - b,
  );
  return ids
    .filter((id) => previous[id] !== plan.preliminary[id])
    .map((id) => ({
      action: "attributeResponse.sync",
      entity: "attribute_response",
      entityId: id,
      surveyId: target.surveyId,
      patientDataId: target.caseId,
      before: { PatientFormAnswerOptionId: previous[id] ?? null },
      after: { PatientFormAnswerOptionId: plan.preliminary[id] ?? null, removedQuestionIds: [] },
    }));
}

/**
 * One "response.sync" entry per question whose answer the sync changed, before and after in the shape the
 * online path records (response.record), so that a case's history shows each value and that it came by sync
 * (docs/decisions/028-audit-reading.md).
 */
function answerEntries(
  target: { surveyId: number; caseId: number },
  structure: SurveyStructure,
  previous: readonly ResponseRow[],
  plan: FillPlan,
): AuditEntry[] {
  const old = toAnswers(previous);
  const now = toAnswers(plan.rows);
  const ids = [...new Set([...Object.keys(old), ...Object.keys(now)].map(Number))].sort((a, b) => a - b);
  const out: AuditEntry[] = [];
  for (const id of ids) {
    const question = structure.questions.get(id);
    const before = wireAnswer(id, old[id], question);
    const after = wireAnswer(id, now[id], question);
    if (JSON.stringify(before) === JSON.stringify(after)) continue;
    out.push({
      action: "response.sync",
      entity: "question_response",
      entityId: id,
      surveyId: target.surveyId,
      patientDataId: target.caseId,
      before,
      after: { answer: after, removedQuestionIds: [] },
    });
  }
  return out;
}
