import { dialectOf } from "~/server/db/db.server";
import { inTransaction } from "~/server/db/transaction.server";
import type { DB, ErasureReason, Executor, Trx } from "~/server/db/types.server";
import { log } from "~/server/log.server";
import { casesErased } from "~/server/metrics.server";
import { audit, type Actor } from "~/server/services/audit.server";
import { ERASE_ACTION } from "~/server/services/audit-chain.server";
import type { AttachmentStore } from "~/server/storage/attachments.server";
import { patientKey } from "./keys.server";

/**
 * Erasing a case (docs/decisions/042-retention-and-erasure.md): in one transaction the case goes with
 * everything the schema cascades from it (answers, preliminary answers, attachment rows, the kept export line,
 * signatures, signing intents, sync requests and receipts, counted words), the values of its audit rows and
 * of the reading rows that name its patient id are removed, a tombstone and a chained `case.erase` row are
 * written. Bytes in a store outside the database are removed after the commit (`erased_blobs` until then).
 */

/** Reading rows that carry the patient id they read in their values, without naming the case. */
const READING_ACTIONS = ["audit.export", "case.history.view", "case.data.view"];

/** Audit rows updated per statement. */
const BATCH = 500;

export interface CaseToErase {
  caseId: number;
  surveyId: number;
  patientId: string;
  reason: ErasureReason;
}

export interface ErasureDone {
  erasureId: number;
  erasedAt: string;
  answers: number;
  preliminaryAnswers: number;
  attachments: number;
  signatures: number;
  auditRows: number;
}

const count = async (
  db: Executor,
  table: "question_responses" | "attribute_responses" | "case_signatures",
  id: number,
) =>
  Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("patient_data_id", "=", id)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** What an erasure of the case would remove: the counts its confirmation names. */
export async function erasureCounts(db: Executor, caseId: number) {
  const attachments = await db
    .selectFrom("file_attachments")
    .select("storage_key")
    .where("patient_data_id", "=", caseId)
    .execute();
  return {
    answers: await count(db, "question_responses", caseId),
    preliminaryAnswers: await count(db, "attribute_responses", caseId),
    attachments: attachments.length,
    signatures: await count(db, "case_signatures", caseId),
    storageKeys: attachments.map((a) => a.storage_key),
  };
}

/** The ids of the audit rows whose values go with the case: its own rows, and readings of its patient id. */
async function auditRowsOf(trx: Trx, target: CaseToErase): Promise<number[]> {
  const rows = await trx
    .selectFrom("audit_log")
    .select(["id", "patient_data_id", "after"])
    .where("survey_id", "=", target.surveyId)
    .where("erased_at", "is", null)
    .where((eb) =>
      eb.or([
        eb("patient_data_id", "=", target.caseId),
        eb.and([eb("patient_data_id", "is", null), eb("action", "in", READING_ACTIONS)]),
      ]),
    )
    .orderBy("id")
    .execute();
  return rows
    .filter((r) => r.patient_data_id === target.caseId || namesPatient(r.after, target.patientId))
    .map((r) => r.id);
}

function namesPatient(after: string | null, patientId: string): boolean {
  if (!after) return false;
  try {
    return (JSON.parse(after) as { PatientId?: unknown }).PatientId === patientId;
  } catch {
    return false;
  }
}

/**
 * Erases one case, all or nothing. Returns null when the case is gone already (erased meanwhile by another
 * request or copy). The store's bytes outside the database are removed after the commit.
 */
export async function eraseCase(
  db: DB,
  store: AttachmentStore,
  key: string,
  actor: Actor,
  target: CaseToErase,
  /** Runs last inside the transaction, before its commit: the fault tests stop the erasure there. */
  opts: { beforeCommit?: () => Promise<void> } = {},
): Promise<ErasureDone | null> {
  let keys: string[] = [];
  const done = await inTransaction(db, async (trx) => {
    // The case locked (PostgreSQL) so that no answer is written to it while it goes.
    const lock = trx.selectFrom("patient_data").select(["id"]).where("id", "=", target.caseId);
    const kase = await (dialectOf(trx) === "postgres" ? lock.forUpdate() : lock).executeTakeFirst();
    if (!kase) return null;
    const counts = await erasureCounts(trx, target.caseId);
    keys = counts.storageKeys;
    const rows = await auditRowsOf(trx, target);
    const erasedAt = new Date().toISOString();
    for (let i = 0; i < rows.length; i += BATCH) {
      await trx
        .updateTable("audit_log")
        .set({ before: null, after: null, erased_at: erasedAt })
        .where("id", "in", rows.slice(i, i + BATCH))
        .execute();
    }
    if (store.transactional) {
      for (const storageKey of keys) await store.delete(storageKey, { db: trx });
    } else if (keys.length > 0) {
      await trx
        .insertInto("erased_blobs")
        .values(keys.map((storage_key) => ({ storage_key, created_at: erasedAt })))
        .onConflict((oc) => oc.column("storage_key").doNothing())
        .execute();
    }
    // The case's links go with it (decision 057): their rows in the trail name only the link's number.
    await trx.deleteFrom("patient_links").where("patient_data_id", "=", target.caseId).execute();
    await trx.deleteFrom("patient_data").where("id", "=", target.caseId).execute();
    const tombstone = await trx
      .insertInto("case_erasures")
      .values({
        survey_id: target.surveyId,
        patient_key: patientKey(key, target.surveyId, target.patientId),
        patient_data_id: target.caseId,
        reason: target.reason,
        erased_at: erasedAt,
        erased_by_user_id: actor.surveyUserDataId,
        erased_by_sub: actor.sub,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const result: ErasureDone = {
      erasureId: tombstone.id,
      erasedAt,
      answers: counts.answers,
      preliminaryAnswers: counts.preliminaryAnswers,
      attachments: counts.attachments,
      signatures: counts.signatures,
      auditRows: rows.length,
    };
    await audit(trx, actor, {
      action: ERASE_ACTION,
      entity: "case_erasure",
      entityId: tombstone.id,
      surveyId: target.surveyId,
      after: {
        Reason: target.reason,
        Answers: result.answers,
        PreliminaryAnswers: result.preliminaryAnswers,
        Attachments: result.attachments,
        Signatures: result.signatures,
        ErasedRows: rows,
      },
    });
    const head = await trx
      .selectFrom("audit_chain_heads")
      .select("last_id")
      .where("chain_key", "=", String(target.surveyId))
      .executeTakeFirst();
    await trx
      .updateTable("case_erasures")
      .set({ audit_id: head?.last_id ?? null })
      .where("id", "=", tombstone.id)
      .execute();
    await opts.beforeCommit?.();
    return result;
  });
  if (done) {
    casesErased.inc({ reason: target.reason });
    if (!store.transactional) await removeBlobs(db, store, keys);
  }
  return done;
}

/** Removes erased bytes from a store outside the database, and their keys once removed. */
async function removeBlobs(db: DB, store: AttachmentStore, keys: readonly string[]): Promise<number> {
  let removed = 0;
  for (const key of keys) {
    try {
      await store.delete(key);
      await db.deleteFrom("erased_blobs").where("storage_key", "=", key).execute();
      removed++;
    } catch (e) {
      // Left in erased_blobs: the hourly purge tries again.
      log.error("erasure.blob", { error: String(e) });
    }
  }
  return removed;
}

/** The bytes of erased attachments still waiting (a copy stopped after the erasure's commit): removed now. */
export async function purgeErasedBlobs(db: DB, store: AttachmentStore): Promise<number> {
  if (store.transactional) return 0;
  const rows = await db.selectFrom("erased_blobs").select("storage_key").orderBy("created_at").limit(1000).execute();
  return removeBlobs(
    db,
    store,
    rows.map((r) => r.storage_key),
  );
}
