/**
 * The zod-free part of the offline sync contract (section 8 sync errors, the idempotency header), so the
 * browser's sync client can use it without loading zod.
 */
/** The header that makes a repeated sync of the same fill have the effect of one. */
export { IDEMPOTENCY_HEADER } from "./idempotency";
export const syncErrorTypes = [
  "SYNC_SURVEY_PATIENTID_CLASH",
  "SYNC_SURVEY_ALREADY_CLOSED",
  "SYNC_SURVEY_OUTDATED_HASH",
  "SYNC_SURVEY_INVALID_STATUS",
] as const;
export type SyncErrorType = (typeof syncErrorTypes)[number];

/** What the sync modal offers for each outcome (section 8). */
export const syncRecovery: Record<SyncErrorType, readonly ("overwrite" | "changeId" | "delete")[]> = {
  SYNC_SURVEY_PATIENTID_CLASH: ["overwrite", "changeId", "delete"],
  SYNC_SURVEY_ALREADY_CLOSED: ["changeId", "delete"],
  SYNC_SURVEY_OUTDATED_HASH: ["delete"],
  SYNC_SURVEY_INVALID_STATUS: ["delete"],
};

export function isSyncErrorType(value: unknown): value is SyncErrorType {
  return typeof value === "string" && (syncErrorTypes as readonly string[]).includes(value);
}
