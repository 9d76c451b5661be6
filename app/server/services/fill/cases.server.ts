import { AppError } from "~/domain/errors";
import { dialectOf } from "~/server/db/db.server";
import { prepared } from "~/server/db/prepared.server";
import { oncePerRequest } from "~/server/log.server";
import type { Executor, Row, Trx } from "~/server/db/types.server";

import { auditCase } from "./access.server";
import { inTransaction } from "~/server/db/transaction.server";

/**
 * Cases (patient_data) and their automatic closing (docs/decisions/006-case-auto-close.md): a submitted
 * case is closed at once; an Open case that nobody changed for 24 hours is closed as of 24 hours after its
 * last change, lazily whenever it is read or written, and by closeStaleCases.
 */
export const CASE_AUTO_CLOSE_MS = 24 * 60 * 60 * 1000;

export type CaseRow = Row<"patient_data">;

/**
 * Whether an Open case has gone 24 hours without a change. A case held for its patient (a live link) or for
 * staff's review of what the patient submitted is not stale before `held_until` (decision 057).
 */
export function isStale(
  row: Pick<CaseRow, "state" | "modified_at"> & { held_until?: string | null },
  now: Date,
): boolean {
  if (row.state !== "Open" || Date.parse(row.modified_at) + CASE_AUTO_CLOSE_MS > now.getTime()) return false;
  return !row.held_until || Date.parse(row.held_until) <= now.getTime();
}

/** When a stale case closed: 24 hours after its last change, or when its hold ended if that is later. */
export function autoClosedAt(modifiedAt: string, heldUntil: string | null = null): string {
  const closed = Date.parse(modifiedAt) + CASE_AUTO_CLOSE_MS;
  return new Date(heldUntil ? Math.max(closed, Date.parse(heldUntil)) : closed).toISOString();
}

/** Closes one stale case, unless it changed meanwhile; true when this call closed it. */
async function closeStale(
  trx: Trx,
  row: Pick<CaseRow, "id" | "survey_id" | "modified_at" | "held_until">,
): Promise<boolean> {
  const closedAt = autoClosedAt(row.modified_at, row.held_until);
  const result = await trx
    .updateTable("patient_data")
    .set({ state: "Closed", closed_at: closedAt })
    .where("id", "=", row.id)
    .where("state", "=", "Open")
    .where("modified_at", "=", row.modified_at)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await auditCase(trx, null, {
    action: "case.autoClose",
    entity: "patient_data",
    entityId: row.id,
    surveyId: row.survey_id,
    patientDataId: row.id,
    after: { State: "Closed", ClosedAt: closedAt },
  });
  return true;
}

/**
 * Closes every Open case (of one survey, or of all) whose last change is 24 hours or more before `now`.
 * Meant to run periodically; the reads and writes of a case apply the same rule on their own. Returns how
 * many cases it closed.
 */
export async function closeStaleCases(db: Executor, now: Date = new Date(), surveyId?: number): Promise<number> {
  const cutoff = new Date(now.getTime() - CASE_AUTO_CLOSE_MS).toISOString();
  let query = db
    .selectFrom("patient_data")
    .select(["id", "survey_id", "modified_at", "held_until"])
    .where("state", "=", "Open")
    .where("modified_at", "<=", cutoff)
    .where((eb) => eb.or([eb("held_until", "is", null), eb("held_until", "<=", now.toISOString())]));
  if (surveyId !== undefined) query = query.where("survey_id", "=", surveyId);
  const stale = await query.orderBy("id").execute();
  if (stale.length === 0) return 0;
  return inTransaction(db, async (trx) => {
    let closed = 0;
    for (const row of stale) if (await closeStale(trx, row)) closed++;
    return closed;
  });
}

/** A case as it stands now: a stale Open case is closed first. */
async function settled(db: Executor, row: CaseRow | undefined, now: Date): Promise<CaseRow | undefined> {
  if (!row || !isStale(row, now)) return row;
  await inTransaction(db, (trx) => closeStale(trx, row));
  return db.selectFrom("patient_data").selectAll().where("id", "=", row.id).executeTakeFirst();
}

interface FindOptions {
  /** Lock the row until the transaction ends (PostgreSQL; SQLite runs one write at a time anyway). */
  lock?: boolean;
  now?: Date;
}

function selectCase(db: Executor, lock: boolean | undefined) {
  const query = db.selectFrom("patient_data").selectAll();
  return lock && dialectOf(db) === "postgres" ? query.forUpdate() : query;
}

const caseOfPatient = prepared<[number, string], CaseRow>((db, $) =>
  selectCase(db, false).where("survey_id", "=", $(0)).where("patient_id", "=", $(1)),
);
const lockedCaseOfPatient = prepared<[number, string], CaseRow>((db, $) =>
  selectCase(db, true).where("survey_id", "=", $(0)).where("patient_id", "=", $(1)),
);
const touch = prepared<[string, number], never>((db, $) =>
  db
    .updateTable("patient_data")
    .set({ modified_at: $(0) })
    .where("id", "=", $(1)),
);

const caseById = prepared<[number], CaseRow>((db, $) => selectCase(db, false).where("id", "=", $(0)));

/**
 * Outside a transaction, a request that only reads (a page's loaders asking the API for a case's record,
 * answers, preliminary answers and files) reads a case once however often it asks.
 */
function readOnce(db: Executor, key: string, opts: FindOptions, read: () => Promise<CaseRow | undefined>) {
  return db.isTransaction || opts.lock || opts.now ? read() : oncePerRequest(key, read);
}

/** The case of a patient id in a survey, with the auto-close rule applied. */
export async function findCase(db: Executor, surveyId: number, patientId: string, opts: FindOptions = {}) {
  return readOnce(db, `case:${surveyId}:${patientId}`, opts, async () => {
    const row = await (opts.lock ? lockedCaseOfPatient : caseOfPatient).first(db, surveyId, patientId);
    return settled(db, row, opts.now ?? new Date());
  });
}

/** A case by its id, with the auto-close rule applied. */
export async function findCaseById(db: Executor, patientDataId: number, opts: FindOptions = {}) {
  return readOnce(db, `case:${patientDataId}`, opts, async () => {
    const row = await (opts.lock
      ? selectCase(db, true).where("id", "=", patientDataId).executeTakeFirst()
      : caseById.first(db, patientDataId));
    return settled(db, row, opts.now ?? new Date());
  });
}

/** 404 SURVEY_PATIENTID_NOT_FOUND when there is no case, 409 SURVEY_ALREADY_CLOSED when it is closed. */
export function requireOpen(row: CaseRow | undefined, what: string): CaseRow {
  if (!row) throw new AppError("SURVEY_PATIENTID_NOT_FOUND", `There is no case ${what} in this survey`);
  if (row.state !== "Open") throw new AppError("SURVEY_ALREADY_CLOSED", `The case ${what} is already closed`);
  return row;
}

/** The Open case a write goes to, locked for the rest of the transaction. */
export async function openCaseForWrite(trx: Trx, surveyId: number, patientId: string): Promise<CaseRow> {
  return requireOpen(await findCase(trx, surveyId, patientId, { lock: true }), patientId);
}

const versionOfCase = prepared<[number], { answers_version: number }>((db, $) =>
  db.selectFrom("patient_data").select("answers_version").where("id", "=", $(0)),
);

/**
 * The answers version of a case as the transaction sees it: moved by trigger with every write to its
 * answers or preliminary answers (migration 0014), so read after them.
 */
export async function caseVersion(db: Executor, caseId: number): Promise<number> {
  const row = await versionOfCase.first(db, caseId);
  return Number(row?.answers_version ?? 0);
}

/** Marks a case as changed now. */
export async function touchCase(trx: Trx, caseId: number, now = new Date()): Promise<void> {
  await touch.affected(trx, now.toISOString(), caseId);
}
