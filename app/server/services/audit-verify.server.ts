import type { AuditVerdictView } from "~/domain/audit-reading";
import { AppError } from "~/domain/errors";
import { inSnapshot } from "~/server/db/transaction.server";
import type { DB, Executor } from "~/server/db/types.server";
import {
  GLOBAL_CHAIN,
  verifyChain,
  type ChainVerdict,
  type ChainedAuditRow,
} from "~/server/services/audit-chain.server";
import { signatureBreakOf } from "~/server/services/fill/signatures.server";
import { requireSurvey } from "~/server/services/survey-access.server";
import type { SurveyCaller } from "~/server/services/surveys.server";

/**
 * A chain's verdict, or a signed case whose answers no longer hash to what the chain's "case.sign" row
 * carries (docs/decisions/029-signed-close.md): `signature`, at that row, naming the case.
 */
export type StoredChainVerdict =
  | ChainVerdict
  | {
      ok: false;
      rows: number;
      firstBad: { id: number; kind: "signature"; patientDataId: number; patientId: string | null };
    };

/**
 * Reads one chain's rows in id order and its head, and walks it (docs/decisions/027-audit-chain.md); a whole
 * survey chain then has each signed case's answers checked against the hash its signature row carries. All
 * of it reads one snapshot of the database: a row and the head move it made commit together, so rows added
 * while the chain is checked are either wholly in it or not at all, and never break a whole chain.
 */
export function verifyStoredChain(db: Executor, key: string): Promise<StoredChainVerdict> {
  return inSnapshot(db, async (trx) => {
    let query = trx
      .selectFrom("audit_log")
      .select([
        "id",
        "at",
        "actor_user_id",
        "actor_sub",
        "action",
        "entity",
        "entity_id",
        "survey_id",
        "patient_data_id",
        "before",
        "after",
        "hash",
        "prev_hash",
        "values_hash",
        "legacy_hash",
        "erased_at",
      ]);
    query = key === GLOBAL_CHAIN ? query.where("survey_id", "is", null) : query.where("survey_id", "=", Number(key));
    const rows: ChainedAuditRow[] = await query.orderBy("id").execute();
    const head = await trx
      .selectFrom("audit_chain_heads")
      .select(["last_id", "last_hash", "count", "anchor_hash", "archived_count"])
      .where("chain_key", "=", key)
      .executeTakeFirst();
    const verdict = verifyChain(
      rows,
      head ? { ...head, count: Number(head.count), archived_count: Number(head.archived_count) } : null,
    );
    if (!verdict.ok || key === GLOBAL_CHAIN) return verdict;
    const broken = await signatureBreakOf(trx, rows);
    if (!broken) return verdict;
    return {
      ok: false,
      rows: verdict.rows,
      firstBad: { id: broken.id, kind: "signature", patientDataId: broken.patientDataId, patientId: broken.patientId },
    };
  });
}

/** Every chain there is: those with a head and those with rows, "global" first, then by survey id. */
export async function chainKeys(db: DB): Promise<string[]> {
  const heads = await db.selectFrom("audit_chain_heads").select("chain_key").execute();
  const surveys = await db.selectFrom("audit_log").select("survey_id").distinct().execute();
  const keys = new Set([
    ...heads.map((h) => h.chain_key),
    ...surveys.map((s) => (s.survey_id == null ? GLOBAL_CHAIN : String(s.survey_id))),
  ]);
  return [...keys].sort((a, b) =>
    a === GLOBAL_CHAIN ? -1 : b === GLOBAL_CHAIN ? 1 : Number(a) - Number(b) || a.localeCompare(b),
  );
}

/** Checks a survey's audit chain; only the survey's approvers may, as they alone read its log. */
export async function auditVerdictOf(db: DB, caller: SurveyCaller, surveyId: number): Promise<AuditVerdictView> {
  const access = await requireSurvey(db, caller, surveyId, "see");
  if (!access.rights.CanApprove) throw new AppError("FORBIDDEN", "Only the survey's approvers check its audit log");
  const verdict = await verifyStoredChain(db, String(surveyId));
  return verdict.ok
    ? { Ok: true, Rows: verdict.rows, ...("erased" in verdict && verdict.erased ? { Erased: verdict.erased } : {}) }
    : {
        Ok: false,
        Rows: verdict.rows,
        FirstBad: {
          Id: verdict.firstBad.id,
          Kind: verdict.firstBad.kind,
          ...("patientId" in verdict.firstBad ? { PatientId: verdict.firstBad.patientId } : {}),
        },
      };
}
