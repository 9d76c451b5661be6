import type { AuditEntry } from "../audit.server";

import type { SurveyCaller } from "../surveys.server";
import type { FillPlan } from "./sync-plan.server";
import type { Trx } from "~/server/db/types.server";

/** Rows per INSERT: well under the bound-parameter limits of both databases (8 columns a row). */
const CHUNK = 500;

interface CaseTarget {
  surveyId: number;
  caseId: number;
}

type CaseAudit = Omit<AuditEntry, "surveyId" | "patientDataId" | "entity" | "entityId">;

/** The audit entry of a change to a case. */
export function caseEntry(target: CaseTarget, entry: CaseAudit): AuditEntry {
  return {
    ...entry,
    entity: "patient_data",
    entityId: target.caseId,
    surveyId: target.surveyId,
    patientDataId: target.caseId,
  };
}

const closeEntry = (now: string): CaseAudit => ({
  action: "case.close",
  before: { State: "Open" },
  after: { State: "Closed", ClosedAt: now },
});

/**
 * A new case for a synced fill, owned by the caller's first team as POST /patients/add makes it, and
 * written in its final state: Closed at once when the fill was submitted. Returns its id and its audit
 * entries (case.create, and case.close as POST /patients/close writes it).
 */
export async function createSyncCase(
  trx: Trx,
  caller: SurveyCaller,
  ref: { surveyId: number; patientId: string; close: boolean; now: string; language: string },
) {
  const row = await trx
    .insertInto("patient_data")
    .values({
      survey_id: ref.surveyId,
      patient_id: ref.patientId,
      state: ref.close ? "Closed" : "Open",
      team_id: caller.teamIds[0] ?? null,
      created_by_user_id: caller.surveyUserDataId,
      created_at: ref.now,
      modified_at: ref.now,
      closed_at: ref.close ? ref.now : null,
      language: ref.language,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const target = { surveyId: ref.surveyId, caseId: row.id };
  const entries = [
    caseEntry(target, { action: "case.create", after: { PatientId: ref.patientId, Language: ref.language } }),
  ];
  if (ref.close) entries.push(caseEntry(target, closeEntry(ref.now)));
  return { caseId: row.id, entries };
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

/**
 * Marks an existing case changed, or submits it (Closed now), in the language the fill names (when it names
 * one other than the case's); returns the audit entries of that.
 */
export async function finishCase(
  trx: Trx,
  target: CaseTarget,
  close: boolean,
  now: string,
  language?: { before: string; after: string },
): Promise<AuditEntry[]> {
  const changed = language && language.before !== language.after ? language : undefined;
  await trx
    .updateTable("patient_data")
    .set({
      ...(close ? { state: "Closed" as const, closed_at: now } : {}),
      modified_at: now,
      ...(changed ? { language: changed.after } : {}),
    })
    .where("id", "=", target.caseId)
    .execute();
  const entries: AuditEntry[] = [];
  if (changed) {
    const entry = { action: "case.language", before: { Language: changed.before }, after: { Language: changed.after } };
    entries.push(caseEntry(target, entry));
  }
  if (close) entries.push(caseEntry(target, closeEntry(now)));
  return entries;
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
