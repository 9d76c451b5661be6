import { respondentColumns } from "~/domain/respondents";
import { AppError } from "~/domain/errors";
import type { Executor } from "~/server/db/types.server";
import { audit, type AuditEntry } from "../audit.server";
import { requireSurvey, type SurveyAccess } from "../survey-access.server";
import { actorOf, type SurveyCaller } from "../surveys.server";

/**
 * For writes to a case: the caller may take part in the survey (404 when they may not even see it, 403
 * otherwise) and the survey is Active now (409 SURVEY_INVALID_STATUS: Draft, Pending, Ended, Closed,
 * Archived cannot be filled).
 */
export async function requireFillableSurvey(db: Executor, caller: SurveyCaller, surveyId: number) {
  const access = await requireSurvey(db, caller, surveyId, "participate");
  if (access.status !== "Active") {
    throw new AppError("SURVEY_INVALID_STATUS", `The survey is ${access.status}; only an Active survey can be filled`);
  }
  return access;
}

/**
 * For reading cases, their answers and files: people who may take part in the survey, and those who
 * analyse it (its editors and approvers). Others get 404 when they may not see it, 403 otherwise.
 */
export async function requireCaseReader(db: Executor, caller: SurveyCaller, surveyId: number): Promise<SurveyAccess> {
  const access = await requireSurvey(db, caller, surveyId, "see");
  const { CanParticipate, CanEdit, CanApprove } = access.rights;
  if (!CanParticipate && !CanEdit && !CanApprove)
    throw new AppError("FORBIDDEN", "Not allowed to read this survey's cases");
  return access;
}

/**
 * One audit row of a change to a case. A patient's write through their link (decision 057) also marks the
 * case as answered by them and the link as in progress; a write while the device is handed over to the
 * patient (decision 058) marks the case as answered by the patient on that staff member's device.
 */
export async function auditCase(
  trx: Executor,
  caller: SurveyCaller | null,
  entry: Omit<AuditEntry, "surveyId" | "patientDataId"> & { surveyId: number; patientDataId: number },
) {
  if (caller?.link) await noteLinkWrite(trx, caller.link);
  if (caller?.handover && caller.handover.patientDataId === entry.patientDataId) {
    await trx
      .updateTable("patient_data")
      .set(respondentColumns({ kind: "handover", staffUserId: caller.handover.staffUserId, staffName: "" }))
      .where("id", "=", entry.patientDataId)
      .execute();
  }
  return audit(trx, caller ? actorOf(caller) : { surveyUserDataId: null, sub: null }, entry);
}

async function noteLinkWrite(trx: Executor, link: NonNullable<SurveyCaller["link"]>) {
  const now = new Date().toISOString();
  await trx
    .updateTable("patient_links")
    .set((eb) => ({ answered_at: eb.fn.coalesce("answered_at", eb.val(now)), last_seen_at: now }))
    .where("id", "=", link.linkId)
    .execute();
  await trx
    .updateTable("patient_data")
    .set(respondentColumns({ kind: "link", linkId: link.linkId }))
    .where("id", "=", link.patientDataId)
    .execute();
}
