import crypto from "node:crypto";
import { AppError } from "~/domain/errors";
import type { OfflineSyncPayload, OfflineSyncResult } from "~/domain/offline-sync";
import type { Executor, Row } from "~/server/db/types.server";

/** How long an applied sync is remembered; a retry later than this meets the case it made (a clash). */
export const SYNC_REQUEST_KEEP_MS = 30 * 24 * 60 * 60 * 1000;

/** JSON with object keys sorted, so that the same request always gives the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** sha256 (hex) of the survey id and the checked request body. */
export function requestHash(surveyId: number, payload: OfflineSyncPayload): string {
  return crypto.createHash("sha256").update(canonical({ surveyId, payload })).digest("hex");
}

export type AppliedSync = Pick<Row<"sync_requests">, "patient_data_id" | "request_hash" | "answers_version">;

/** The sync this person already applied under this key, if any. */
export function findApplied(db: Executor, surveyUserDataId: number, key: string): Promise<AppliedSync | undefined> {
  return db
    .selectFrom("sync_requests")
    .select(["patient_data_id", "request_hash", "answers_version"])
    .where("user_id", "=", surveyUserDataId)
    .where("idempotency_key", "=", key)
    .executeTakeFirst();
}

/** The answer of a repeated sync: the first one's, if it is the same request; 422 if the key was reused. */
export function replay(applied: AppliedSync, hash: string): OfflineSyncResult {
  if (applied.request_hash !== hash) {
    throw new AppError("SYNC_IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was already used for another fill");
  }
  const version = applied.answers_version;
  return version === null
    ? { Data: applied.patient_data_id }
    : { Data: applied.patient_data_id, Version: Number(version) };
}

export async function recordApplied(
  db: Executor,
  row: {
    surveyUserDataId: number;
    key: string;
    surveyId: number;
    caseId: number;
    hash: string;
    now: string;
    version: number;
  },
): Promise<void> {
  await db
    .insertInto("sync_requests")
    .values({
      user_id: row.surveyUserDataId,
      idempotency_key: row.key,
      survey_id: row.surveyId,
      patient_data_id: row.caseId,
      request_hash: row.hash,
      created_at: row.now,
      answers_version: row.version,
    })
    .execute();
}

/** Forgets applied syncs older than SYNC_REQUEST_KEEP_MS; returns how many. */
export async function purgeSyncRequests(db: Executor, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - SYNC_REQUEST_KEEP_MS).toISOString();
  const result = await db.deleteFrom("sync_requests").where("created_at", "<", cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
