import type { Executor, Trx } from "~/server/db/types.server";
import { auditCase } from "../fill/access.server";
import type { CaseRow } from "../fill/cases.server";
import type { SurveyAccess } from "../survey-access.server";
import type { SurveyCaller } from "../surveys.server";

/** Held for review: an Open case the patient submitted is not closed as unchanged until staff close it. */
export const HELD_FOR_REVIEW = "9999-12-31T00:00:00.000Z";

/**
 * A patient submits their case through their link (docs/decisions/057-patient-links.md). It closes at once,
 * unless the survey says staff review what patients submit (PatientSubmitReview) or its cases are closed by
 * a signature, which only staff can give: then it stays Open, "submitted by the patient, to review", until
 * staff close it as they close cases. Either way the link is used up.
 */
export async function submitByPatient(trx: Trx, caller: SurveyCaller, access: SurveyAccess, kase: CaseRow) {
  const link = caller.link!;
  const now = new Date().toISOString();
  await trx
    .updateTable("patient_links")
    // The cookie stays known, so that the questionnaire's address says "already sent"; it opens nothing.
    .set({ submitted_at: now, last_seen_at: now })
    .where("id", "=", link.linkId)
    .execute();
  const review = access.row.patient_submit_review === 1 || access.row.requires_signature === 1;
  if (review) {
    await trx
      .updateTable("patient_data")
      .set({ held_until: HELD_FOR_REVIEW, modified_at: now })
      .where("id", "=", kase.id)
      .execute();
  } else {
    await trx
      .updateTable("patient_data")
      .set({ state: "Closed", closed_at: now, modified_at: now })
      .where("id", "=", kase.id)
      .execute();
  }
  await auditCase(trx, caller, {
    action: review ? "case.patientSubmit" : "case.close",
    entity: "patient_data",
    entityId: kase.id,
    surveyId: kase.survey_id,
    patientDataId: kase.id,
    before: { State: "Open" },
    after: review ? { State: "Open", SubmittedAt: now, Review: true } : { State: "Closed", ClosedAt: now },
  });
}

/** The link through which the patient submitted an Open case, and when: what staff are to review. */
export async function patientSubmission(db: Executor, caseId: number) {
  const row = await db
    .selectFrom("patient_links")
    .select(["id", "submitted_at"])
    .where("patient_data_id", "=", caseId)
    .where("submitted_at", "is not", null)
    .orderBy("id", "desc")
    .executeTakeFirst();
  return row ? { LinkId: row.id, At: row.submitted_at! } : null;
}
