import { createHash } from "node:crypto";

/**
 * The hash chain of the audit log (docs/decisions/027-audit-chain.md): every row carries the SHA-256 of its
 * content and of the previous row's hash in its chain, one chain per survey and one for rows without a survey.
 * The writer (audit.server.ts) and the verifier hash through the recipes here. Migrations 0011 and 0017, which
 * chained the rows already written, keep their own copies as they were written (tests/db/migration-recipes.test.ts
 * checks that these still agree): a change here needs a migration of its own and a verifier that still knows
 * the rows hashed before it.
 */

/** The content of an audit row that its hash covers: everything but its id, hash and prev_hash. */
export interface AuditRowContent {
  at: string;
  actor_user_id: number | null;
  actor_sub: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  survey_id: number | null;
  patient_data_id: number | null;
  /** JSON text as stored, hashed as text (not re-parsed). */
  before: string | null;
  after: string | null;
}

/** An audit row as the verifier reads it. */
export interface ChainedAuditRow extends AuditRowContent {
  id: number;
  hash: string | null;
  prev_hash: string | null;
  /**
   * The digest of the row's values (before, after) that its hash covers since migration 0017
   * (docs/decisions/042-retention-and-erasure.md); absent or null on a row hashed by the first recipe.
   */
  values_hash?: string | null;
  /** The row's hash by the first recipe, kept by migration 0017 for the rows it chained anew. */
  legacy_hash?: string | null;
  /** When an erasure removed the row's values; null while it has them. */
  erased_at?: string | null;
}

/** The chain key of rows without a survey. */
export const GLOBAL_CHAIN = "global";

/** The chain a row belongs to: its survey id in decimal, or "global". */
export function chainKeyOf(surveyId: number | null | undefined): string {
  return surveyId == null ? GLOBAL_CHAIN : String(surveyId);
}

/**
 * The canonical serialization of a row: a JSON array (no whitespace) of the fields in this fixed order,
 * then the previous row's hash (null for the first row of a chain):
 *   [at, actor_user_id, actor_sub, action, entity, entity_id, survey_id, patient_data_id, before, after, prev_hash]
 * Strings are written as JSON.stringify writes them (only " \ and control characters escaped; any other
 * character literally), integers in decimal, absent values as null. The order of the input's keys does not
 * matter.
 */
export function canonicalAuditRow(row: AuditRowContent, prevHash: string | null): string {
  return JSON.stringify([
    row.at,
    row.actor_user_id ?? null,
    row.actor_sub ?? null,
    row.action,
    row.entity,
    row.entity_id ?? null,
    row.survey_id ?? null,
    row.patient_data_id ?? null,
    row.before ?? null,
    row.after ?? null,
    prevHash ?? null,
  ]);
}

/** The row's hash: lowercase hex SHA-256 of the UTF-8 bytes of its canonical serialization. */
export function auditRowHash(row: AuditRowContent, prevHash: string | null): string {
  return createHash("sha256").update(canonicalAuditRow(row, prevHash), "utf8").digest("hex");
}

/** The digest of a row's values: SHA-256 (lowercase hex) of the JSON array [before, after] of the stored texts. */
export function valuesDigest(before: string | null, after: string | null): string {
  return createHash("sha256")
    .update(JSON.stringify([before ?? null, after ?? null]), "utf8")
    .digest("hex");
}

/**
 * The row's hash by the second recipe (decision 042): as the first, but over the digest of the values instead
 * of the values, so that an erasure can remove them and the hash still holds:
 *   [2, at, actor_user_id, actor_sub, action, entity, entity_id, survey_id, patient_data_id, values_hash, prev_hash]
 */
export function chainedRowHash(
  row: Omit<AuditRowContent, "before" | "after">,
  valuesHash: string,
  prevHash: string | null,
) {
  const text = JSON.stringify([
    2,
    row.at,
    row.actor_user_id ?? null,
    row.actor_sub ?? null,
    row.action,
    row.entity,
    row.entity_id ?? null,
    row.survey_id ?? null,
    row.patient_data_id ?? null,
    valuesHash,
    prevHash ?? null,
  ]);
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The hash a row should carry: by the second recipe when it has a values digest, else by the first. */
function expectedHash(row: ChainedAuditRow): string {
  return row.values_hash ? chainedRowHash(row, row.values_hash, row.prev_hash) : auditRowHash(row, row.prev_hash);
}

/**
 * Whether the row's content still matches what its hash covers: the values hash to the digest while the row
 * has them; an erased row has none left; a row chained anew by migration 0017 also still hashes, values and
 * all, to its first-recipe hash after the previous row's (skipped where that previous row is not known).
 */
function contentHolds(row: ChainedAuditRow, legacyPrev: string | null | undefined): boolean {
  if (row.erased_at) return row.before === null && row.after === null && !!row.values_hash;
  if (row.values_hash && row.values_hash !== valuesDigest(row.before, row.after)) return false;
  if (row.legacy_hash && legacyPrev !== undefined) return auditRowHash(row, legacyPrev) === row.legacy_hash;
  return true;
}

/** The action of the row an erasure adds to the chain, naming the rows whose values it removed. */
export const ERASE_ACTION = "case.erase";

/** For each row an erasure names (in its row's `ErasedRows`), the id of that erasure's row. */
function erasuresVouched(rows: readonly ChainedAuditRow[]): Map<number, number> {
  const vouched = new Map<number, number>();
  for (const row of rows) {
    if (row.action !== ERASE_ACTION || !row.after) continue;
    try {
      const named = (JSON.parse(row.after) as { ErasedRows?: unknown }).ErasedRows;
      if (Array.isArray(named)) for (const id of named) if (typeof id === "number") vouched.set(id, row.id);
    } catch {
      // Not an erasure's row: it vouches for nothing.
    }
  }
  return vouched;
}

/** How a chain is broken at its first bad row. */
export type ChainBreakKind = "changed" | "removed" | "inserted";

export type ChainVerdict =
  | { ok: true; rows: number; erased?: number }
  | { ok: false; rows: number; firstBad: { id: number; kind: ChainBreakKind } };

/** What the head table says of a chain (audit_chain_heads), if it has a head. */
export interface ChainHead {
  last_id: number | null;
  last_hash: string | null;
  count: number;
  /** The prev_hash of the first row kept after an archiving; null while the chain is whole. */
  anchor_hash: string | null;
  /** How many rows were archived away from the start of the chain. */
  archived_count: number;
}

/**
 * Walks one chain's rows (in id order) and finds the first break:
 * - `changed`: the row's content no longer hashes to its hash;
 * - `inserted` as well: a row without a hash (written past the writer, by hand);
 * - `inserted`: the row hashes right but the chain goes around it (the next row links to the row before it,
 *   or the row is last and the head still names the row before it), e.g. a forged row;
 * - `removed`: the row's prev_hash is not the previous row's hash, so something between is missing; a removed
 *   last row shows as the head naming a hash no row has (the break is reported at the head's last id).
 * The head must name the last row's hash and count every row (archived ones included).
 */
export function verifyChain(rows: readonly ChainedAuditRow[], head: ChainHead | null): ChainVerdict {
  const count = rows.length;
  const bad = (id: number, kind: ChainBreakKind): ChainVerdict => ({ ok: false, rows: count, firstBad: { id, kind } });
  const hashes = rows.map(expectedHash);
  const anchor = head?.anchor_hash ?? null;
  let expected: string | null = anchor;
  // The previous row's first-recipe hash, for rows chained anew by migration 0017; unknown after an archiving.
  let legacyPrev: string | null | undefined = anchor === null ? null : undefined;
  let erased = 0;
  const vouched = erasuresVouched(rows);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    // A row without a hash was never chained by the writer.
    if (row.hash === null) return bad(row.id, "inserted");
    if (row.hash !== hashes[i] || !contentHolds(row, legacyPrev)) return bad(row.id, "changed");
    legacyPrev = row.legacy_hash ?? undefined;
    if (row.erased_at) {
      // Only an erasure writes erased rows, and it names them in its own row later in the chain.
      if (!((vouched.get(row.id) ?? 0) > row.id)) return bad(row.id, "changed");
      erased += 1;
    }
    if (row.prev_hash !== expected) {
      const next = rows[i + 1];
      const bypassed = next ? next.prev_hash === expected : head?.last_hash === expected && expected !== null;
      if (bypassed) return bad(row.id, "inserted");
      // A row linked to the one before its predecessor: the predecessor was slipped in.
      const beforePrevious = i >= 2 ? rows[i - 2].hash : i === 1 ? anchor : undefined;
      if (i >= 1 && beforePrevious !== undefined && row.prev_hash === beforePrevious) {
        return bad(rows[i - 1].id, "inserted");
      }
      return bad(row.id, "removed");
    }
    expected = row.hash;
  }
  const last = rows.at(-1);
  if (!head) return last ? bad(last.id, "inserted") : { ok: true, rows: 0 };
  if (head.last_hash !== (last?.hash ?? anchor)) {
    // The head names a row that is gone, or rows were appended without moving the head.
    const named = rows.findIndex((r) => r.hash === head.last_hash);
    if (named >= 0 && named < rows.length - 1) return bad(rows[named + 1].id, "inserted");
    return bad(head.last_id ?? last?.id ?? 0, "removed");
  }
  if (head.count !== head.archived_count + count) return bad(head.last_id ?? last?.id ?? 0, "removed");
  return erased > 0 ? { ok: true, rows: count, erased } : { ok: true, rows: count };
}
