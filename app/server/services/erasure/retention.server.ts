import type { RetentionPreview } from "~/domain/erasure";
import type { DB, Executor } from "~/server/db/types.server";
import { requireSurvey } from "~/server/services/survey-access.server";
import type { SurveyCaller } from "~/server/services/surveys.server";
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

/** The survey's closed cases closed before `cutoff`: those a period ending there erases. */
function dueCases(db: Executor, surveyId: number, cutoff: string) {
  return db
    .selectFrom("patient_data")
    .where("survey_id", "=", surveyId)
    .where("state", "=", "Closed")
    .where("closed_at", "is not", null)
    .where("closed_at", "<", cutoff);
}

/**
 * What a retention period of `months` would erase on the next daily round (GET /erasures/retention-preview): the
 * survey's editors are told before they shorten the period. The count is as of now; the round runs within a day.
 */
export async function retentionPreview(
  db: DB,
  caller: SurveyCaller,
  surveyId: number,
  months: number,
  now = new Date(),
): Promise<RetentionPreview> {
  await requireSurvey(db, caller, surveyId, "edit");
  const before = monthsBefore(now, months).toISOString();
  const { n } = await dueCases(db, surveyId, before)
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  return { Months: months, Before: before, Cases: Number(n) };
}

/**
 * The daily retention round (docs/decisions/042-retention-and-erasure.md): every closed case of a survey with
 * a retention period, closed longer ago than that period, is erased with reason `retention`, one case per
 * transaction. Returns how many were erased. Once `signal` is aborted (the server stopping) it stops before the
 * next case; the next round erases the rest.
 */
export async function eraseExpiredCases(
  db: DB,
  store: AttachmentStore,
  key: string,
  now = new Date(),
  signal?: AbortSignal,
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
    const due = await dueCases(db, survey.id, cutoff).select(["id", "patient_id"]).orderBy("id").execute();
    for (const kase of due) {
      if (signal?.aborted) return erased;
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
