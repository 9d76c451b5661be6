import { z } from "zod";
import type { DB } from "~/server/db/types.server";
import type { AttachmentStore } from "~/server/storage/attachments.server";
import { eraseCase } from "./erase.server";
import { patientKey } from "./keys.server";

/**
 * Tombstones carried across a restore (docs/decisions/042-retention-and-erasure.md, docs/operations.md,
 * "Backups and restore"): exported from the live database before a restore, or kept beside the backups, and
 * applied again to the restored one, whose backup may still hold the erased cases.
 */
export const TombstoneSchema = z.object({
  SurveyId: z.number().int(),
  PatientKey: z.string().regex(/^[0-9a-f]{64}$/),
  Reason: z.enum(["consent", "retention", "wrongPatient"]),
  ErasedAt: z.string(),
});
export type Tombstone = z.infer<typeof TombstoneSchema>;

/** Every tombstone of the database, oldest first; they hold no patient id and no value. */
export async function exportTombstones(db: DB): Promise<Tombstone[]> {
  const rows = await db
    .selectFrom("case_erasures")
    .select(["survey_id", "patient_key", "reason", "erased_at"])
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    SurveyId: r.survey_id,
    PatientKey: r.patient_key,
    Reason: r.reason,
    ErasedAt: r.erased_at,
  }));
}

/**
 * Erases again every case whose patient id hashes, under the erasure key, to a tombstone's key in the same
 * survey. The key must be the one the tombstones were made with. Returns how many cases were erased.
 */
export async function reapplyErasures(
  db: DB,
  store: AttachmentStore,
  key: string,
  tombstones: readonly Tombstone[],
): Promise<number> {
  const bySurvey = new Map<number, Map<string, Tombstone>>();
  for (const t of tombstones) {
    if (!bySurvey.has(t.SurveyId)) bySurvey.set(t.SurveyId, new Map());
    bySurvey.get(t.SurveyId)!.set(t.PatientKey, t);
  }
  let erased = 0;
  for (const [surveyId, keys] of bySurvey) {
    const cases = await db
      .selectFrom("patient_data")
      .select(["id", "patient_id"])
      .where("survey_id", "=", surveyId)
      .orderBy("id")
      .execute();
    for (const kase of cases) {
      const tombstone = keys.get(patientKey(key, surveyId, kase.patient_id));
      if (!tombstone) continue;
      const done = await eraseCase(
        db,
        store,
        key,
        { surveyUserDataId: null, sub: null },
        {
          caseId: kase.id,
          surveyId,
          patientId: kase.patient_id,
          reason: tombstone.Reason,
        },
      );
      if (done) erased++;
    }
  }
  return erased;
}
