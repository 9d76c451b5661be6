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

/** One audit row of a change to a case. */
export function auditCase(
  trx: Executor,
  caller: SurveyCaller | null,
  entry: Omit<AuditEntry, "surveyId" | "patientDataId"> & { surveyId: number; patientDataId: number },
) {
  return audit(trx, caller ? actorOf(caller) : { surveyUserDataId: null, sub: null }, entry);
}
