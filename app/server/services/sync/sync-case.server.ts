import type { SurveyCaller } from "../surveys.server";
import { auditCase, type Trx } from "../fill/access.server";
import type { FillPlan } from "./sync-plan.server";

/** Rows per INSERT: well under the bound-parameter limits of both databases (8 columns a row). */
const CHUNK = 500;

interface CaseTarget {
  surveyId: number;
  caseId: number;
}

/** A new Open case for a synced fill, as POST /patients/add makes it: owned by the caller's first team. */
export async function createSyncCase(trx: Trx, caller: SurveyCaller, surveyId: number, patientId: string, now: string) {
  const row = await trx
    .insertInto("patient_data")
    .values({
      survey_id: surveyId,
      patient_id: patientId,
      state: "Open",
      team_id: caller.teamIds[0] ?? null,
      created_by_user_id: caller.userId,
      created_at: now,
      modified_at: now,
      closed_at: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await auditCase(trx, caller, {
    action: "case.create",
    entity: "patient_data",
    entityId: row.id,
    surveyId,
    patientDataId: row.id,
    after: { PatientId: patientId },
  });
  return row.id;
}

/** Removes every answer and preliminary answer of a case (its attachments stay); returns how many of each. */
export async function clearCase(trx: Trx, caseId: number) {
  const answers = await trx.deleteFrom("question_responses").where("patient_data_id", "=", caseId).executeTakeFirst();
  const preliminary = await trx
    .deleteFrom("attribute_responses")
    .where("patient_data_id", "=", caseId)
    .executeTakeFirst();
  return { answerRows: Number(answers.numDeletedRows), preliminaryAnswers: Number(preliminary.numDeletedRows) };
}

/** Writes the preliminary answers, then the answers, with multi-row inserts. */
export async function writePlan(trx: Trx, target: CaseTarget, plan: FillPlan, now: string): Promise<void> {
  const base = { survey_id: target.surveyId, patient_data_id: target.caseId };
  const attributes = Object.entries(plan.preliminary).map(([attribute, option]) => ({
    ...base,
    attribute_id: Number(attribute),
    answer_option_id: option,
    created_at: now,
  }));
  for (let i = 0; i < attributes.length; i += CHUNK) {
    await trx
      .insertInto("attribute_responses")
      .values(attributes.slice(i, i + CHUNK))
      .execute();
  }
  const answers = plan.rows.map((r) => ({ ...base, ...r, created_at: now, updated_at: now }));
  for (let i = 0; i < answers.length; i += CHUNK) {
    await trx
      .insertInto("question_responses")
      .values(answers.slice(i, i + CHUNK))
      .execute();
  }
}

/** Submits the case (Closed now, audited as POST /patients/close is) or marks it changed. */
export async function finishCase(trx: Trx, caller: SurveyCaller, target: CaseTarget, close: boolean, now: string) {
  if (!close) {
    await trx.updateTable("patient_data").set({ modified_at: now }).where("id", "=", target.caseId).execute();
    return;
  }
  await trx
    .updateTable("patient_data")
    .set({ state: "Closed", closed_at: now, modified_at: now })
    .where("id", "=", target.caseId)
    .execute();
  await auditCase(trx, caller, {
    action: "case.close",
    entity: "patient_data",
    entityId: target.caseId,
    surveyId: target.surveyId,
    patientDataId: target.caseId,
    before: { State: "Open" },
    after: { State: "Closed", ClosedAt: now },
  });
}
