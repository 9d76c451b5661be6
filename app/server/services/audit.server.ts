import type { Executor, Trx } from "~/server/db/types.server";
import { dialectOf } from "~/server/db/db.server";
import { prepared, type Placeholder } from "~/server/db/prepared.server";
import { chainKeyOf, chainedRowHash, valuesDigest, type AuditRowContent } from "~/server/services/audit-chain.server";
import { inTransaction } from "~/server/db/transaction.server";

export interface Actor {
  surveyUserDataId: number | null;
  sub: string | null;
}

export interface AuditEntry {
  action: string;
  entity: string;
  entityId?: string | number | null;
  surveyId?: number | null;
  patientDataId?: number | null;
  before?: unknown;
  after?: unknown;
}

type AuditArgs = [
  string,
  number | null,
  string | null,
  string,
  string,
  string | null,
  number | null,
  number | null,
  string | null,
  string | null,
  string,
  string | null,
  string,
];

const auditValues = ($: Placeholder) => ({
  at: $(0),
  actor_user_id: $(1),
  actor_sub: $(2),
  action: $(3),
  entity: $(4),
  entity_id: $(5),
  survey_id: $(6),
  patient_data_id: $(7),
  before: $(8),
  after: $(9),
  hash: $(10),
  prev_hash: $(11),
  values_hash: $(12),
});

const insertAudit = prepared<AuditArgs, { id: number }>((db, $) =>
  db.insertInto("audit_log").values(auditValues($)).returning("id"),
);

/**
 * PostgreSQL: the row and its chain's new head in one statement, one round trip less while the head is
 * locked. Arguments as insertAudit's, then the new count and the chain key.
 */
const insertAuditMovingHead = prepared<[...AuditArgs, number, string], never>((db, $) =>
  db
    .with("row", (w) => w.insertInto("audit_log").values(auditValues($)).returning("id"))
    .updateTable("audit_chain_heads")
    .set((eb) => ({ last_id: eb.selectFrom("row").select("id"), last_hash: $(10), count: $(13) }))
    .where("chain_key", "=", $(14)),
);

/**
 * A chain's head, locked until the transaction ends: on PostgreSQL `for update`, so that writers of the
 * same survey append one after the other while other surveys' writers go on; SQLite runs one write
 * transaction at a time anyway.
 */
const lockHead = prepared<[string], { last_hash: string | null; count: number }>((db, $) => {
  const query = db.selectFrom("audit_chain_heads").select(["last_hash", "count"]).where("chain_key", "=", $(0));
  return dialectOf(db) === "postgres" ? query.forUpdate() : query;
});

/** A chain's first head; a concurrent writer that made it first wins, and the lock is then taken as usual. */
const addHead = prepared<[string], never>((db, $) =>
  db
    .insertInto("audit_chain_heads")
    .values({ chain_key: $(0) })
    .onConflict((oc) => oc.column("chain_key").doNothing()),
);

const moveHead = prepared<[number, string, number, string], never>((db, $) =>
  db
    .updateTable("audit_chain_heads")
    .set({ last_id: $(0), last_hash: $(1), count: $(2) })
    .where("chain_key", "=", $(3)),
);

interface Head {
  lastHash: string | null;
  count: number;
}

async function headOf(db: Trx, key: string): Promise<Head> {
  let head = await lockHead.first(db, key);
  if (!head) {
    await addHead.affected(db, key);
    head = await lockHead.first(db, key);
    if (!head) throw new Error(`audit chain head ${key} could not be made`);
  }
  return { lastHash: head.last_hash, count: Number(head.count) };
}

function contentOf(at: string, actor: Actor, entry: AuditEntry): AuditRowContent & { values_hash: string } {
  const before = entry.before === undefined ? null : JSON.stringify(entry.before);
  const after = entry.after === undefined ? null : JSON.stringify(entry.after);
  return {
    at,
    actor_user_id: actor.surveyUserDataId,
    actor_sub: actor.sub,
    action: entry.action,
    entity: entry.entity,
    entity_id: entry.entityId == null ? null : String(entry.entityId),
    survey_id: entry.surveyId ?? null,
    patient_data_id: entry.patientDataId ?? null,
    before,
    after,
    values_hash: valuesDigest(before, after),
  };
}

/**
 * Appends one row to the audit log: who, when, what, before and after, chained to the last row of its
 * survey's chain (docs/decisions/027-audit-chain.md) over the digest of its values (042), so that an erasure
 * can remove them. Use inside the write's transaction.
 */
export async function audit(db: Executor, actor: Actor, entry: AuditEntry): Promise<void> {
  const row = contentOf(new Date().toISOString(), actor, entry);
  const key = chainKeyOf(row.survey_id);
  await inTransaction(db, async (trx) => {
    const head = await headOf(trx, key);
    const hash = chainedRowHash(row, row.values_hash, head.lastHash);
    const args: AuditArgs = [
      row.at,
      row.actor_user_id,
      row.actor_sub,
      row.action,
      row.entity,
      row.entity_id,
      row.survey_id,
      row.patient_data_id,
      row.before,
      row.after,
      hash,
      head.lastHash,
      row.values_hash,
    ];
    if (dialectOf(trx) === "postgres") {
      await insertAuditMovingHead.affected(trx, ...args, head.count + 1, key);
      return;
    }
    const inserted = await insertAudit.first(trx, ...args);
    await moveHead.affected(trx, inserted!.id, hash, head.count + 1, key);
  });
}

/**
 * Appends several rows to the audit log in one statement, in the order given; each chain touched has its
 * head locked once (in key order, so that two such writes never wait on each other crosswise) and moved once.
 */
export async function auditAll(db: Executor, actor: Actor, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const at = new Date().toISOString();
  const rows = entries.map((entry) => contentOf(at, actor, entry));
  const keys = [...new Set(rows.map((row) => chainKeyOf(row.survey_id)))].sort();
  await inTransaction(db, async (trx) => {
    const heads = new Map<string, Head & { last: number }>();
    for (const key of keys) heads.set(key, { ...(await headOf(trx, key)), last: -1 });
    const values = rows.map((row, i) => {
      const head = heads.get(chainKeyOf(row.survey_id))!;
      const prev = head.lastHash;
      const hash = chainedRowHash(row, row.values_hash, prev);
      head.lastHash = hash;
      head.count += 1;
      head.last = i;
      return { ...row, hash, prev_hash: prev };
    });
    // Ids are handed out in the order of the rows, so each chain's rows follow one another by id.
    const inserted = await trx.insertInto("audit_log").values(values).returning("id").execute();
    const ids = inserted.map((r) => r.id).sort((a, b) => a - b);
    for (const [key, head] of heads) {
      await moveHead.affected(trx, ids[head.last], head.lastHash!, head.count, key);
    }
  });
}
