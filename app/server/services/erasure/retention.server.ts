import type { DB } from "~/server/db/types.server";
import type { AttachmentStore } from "~/server/storage/attachments.server";
import { eraseCase } from "./erase.server";

/** The system erases on retention: no person is the actor. */
const SYSTEM = { surveyUserDataId: null, sub: null };

/** The moment `months` months before `now` (the last day of a shorter month where the day does not exist). */
export function monthsBefore(now: Date, months: number): Date {
  const then = new Date(now);
  const day = then.getUTCDate();
  then.setUTCDate(1);
  then.setUTCMonth(then.getUTCMonth() - months);
  const last = new Date(Date.UTC(then.getUTCFullYear(), then.getUTCMonth() + 1, 0)).getUTCDate();
  then.setUTCDate(Math.min(day, last));
  return then;
}

/**
 * The daily retention round (docs/decisions/042-retention-and-erasure.md): every closed case of a survey with
 * a retention period, closed longer ago than that period, is erased with reason `retention`, one case per
 * transaction. Returns how many were erased.
 */
export async function eraseExpiredCases(
  db: DB,
  store: AttachmentStore,
  key: string,
  now = new Date(),
): Promise<number> {
  const surveys = await db
    .selectFrom("surveys")
    .select(["id", "retention_months"])
    .where("retention_months", "is not", null)
    .where("retention_months", ">", 0)
    .orderBy("id")
    .execute();
  let erased = 0;
  for (const survey of surveys) {
    const cutoff = monthsBefore(now, survey.retention_months!).toISOString();
    const due = await db
      .selectFrom("patient_data")
      .select(["id", "patient_id"])
      .where("survey_id", "=", survey.id)
      .where("state", "=", "Closed")
      .where("closed_at", "is not", null)
      .where("closed_at", "<", cutoff)
      .orderBy("id")
      .execute();
    for (const kase of due) {
      const done = await eraseCase(db, store, key, SYSTEM, {
        caseId: kase.id,
        surveyId: survey.id,
        patientId: kase.patient_id,
        reason: "retention",
      });
      if (done) erased++;
    }
  }
  return erased;
}
