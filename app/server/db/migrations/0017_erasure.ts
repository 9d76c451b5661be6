import { createHash } from "node:crypto";
import { sql } from "kysely";
import { dropAppendOnly, makeAppendOnly, schemaHelpers, type MigrationDb } from "./helpers";

/**
 * The second hash recipe, as this migration chained the rows with it (docs/decisions/042-retention-and-erasure.md),
 * kept here as it was written: a migration that has run must compute the same on every database it runs on
 * later, whatever becomes of the live recipe in app/server/services/audit-chain.server.ts.
 * tests/db/migration-recipes.test.ts pins it and checks that the live one still agrees for today's rows.
 */
export interface AuditRowContent {
  at: string;
  actor_user_id: number | null;
  actor_sub: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  survey_id: number | null;
  patient_data_id: number | null;
  before: string | null;
  after: string | null;
}

/** The chain of a row: its survey id in decimal, or "global". */
export function chainKeyOf(surveyId: number | null | undefined): string {
  return surveyId == null ? "global" : String(surveyId);
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** The digest of a row's values: SHA-256 (lowercase hex) of the JSON array [before, after] of the stored texts. */
export function valuesDigest(before: string | null, after: string | null): string {
  return sha256(JSON.stringify([before ?? null, after ?? null]));
}

/**
 * SHA-256 (lowercase hex) of the JSON array, without whitespace, of
 * [2, at, actor_user_id, actor_sub, action, entity, entity_id, survey_id, patient_data_id, values_hash, prev_hash].
 */
export function chainedRowHash(
  row: Omit<AuditRowContent, "before" | "after">,
  valuesHash: string,
  prevHash: string | null,
): string {
  return sha256(
    JSON.stringify([
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
    ]),
  );
}

/** Rows hashed anew and written back per statement. */
const BATCH = 500;

/**
 * Retention and erasure (docs/decisions/042-retention-and-erasure.md):
 * - the audit chain covers a digest of each row's values (`values_hash`) instead of the values, so an erasure
 *   can remove them and the chain still verifies; every chained row is hashed anew by the second recipe, in
 *   id order from its chain's anchor, and keeps its first-recipe hash in `legacy_hash`, which the verifier
 *   still checks against the row's values (a row changed before this migration stays found);
 * - the append-only triggers let exactly one change through: an erasure (`erased_at` set, `before` and
 *   `after` emptied, every other column as it was);
 * - `case_erasures`, the tombstones; `erased_blobs`, erased attachments' bytes still to be removed from a
 *   store outside the database; `surveys.retention_months`.
 */
export async function up(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);
  for (const column of ["values_hash", "legacy_hash", "erased_at"]) {
    await db.schema.alterTable("audit_log").addColumn(column, "text").execute();
  }
  await dropAppendOnly(db, "audit_log");
  await rechain(db);
  await makeAppendOnlyButErasable(db);

  await db.schema.alterTable("surveys").addColumn("retention_months", "integer").execute();
  await db.schema
    .createTable("case_erasures")
    .$call(h.id)
    .addColumn("survey_id", "integer", (c) => c.notNull())
    .addColumn("patient_key", "text", (c) => c.notNull())
    .addColumn("patient_data_id", "integer", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull().check(sql`reason in ('consent', 'retention', 'wrongPatient')`))
    .addColumn("erased_at", "text", (c) => c.notNull())
    .addColumn("erased_by_user_id", "integer")
    .addColumn("erased_by_sub", "text")
    .addColumn("audit_id", "integer")
    .addUniqueConstraint("case_erasures_case_key", ["patient_data_id"])
    .$call(h.strict)
    .execute();
  await db.schema
    .createIndex("case_erasures_patient_idx")
    .on("case_erasures")
    .columns(["survey_id", "patient_key"])
    .execute();
  await db.schema
    .createTable("erased_blobs")
    .addColumn("storage_key", "text", (c) => c.primaryKey())
    .$call(h.timestamp("created_at"))
    .$call(h.strict)
    .execute();
}

interface Head {
  lastId: number;
  lastHash: string;
  count: number;
}

/** Hashes every chained row by the second recipe, in id order per chain, and moves each chain's head. */
async function rechain(db: MigrationDb): Promise<void> {
  const anchors = new Map(
    (
      await sql<{
        chain_key: string;
        anchor_hash: string | null;
      }>`select chain_key, anchor_hash from audit_chain_heads`.execute(db)
    ).rows.map((r) => [r.chain_key, r.anchor_hash]),
  );
  const heads = new Map<string, Head>();
  let after = 0;
  for (;;) {
    const rows = (
      await sql<AuditRowContent & { id: number; hash: string | null }>`select id, at, actor_user_id, actor_sub,
        action, entity, entity_id, survey_id, patient_data_id, before, after, hash from audit_log
        where id > ${after} order by id limit ${BATCH}`.execute(db)
    ).rows;
    if (rows.length === 0) break;
    after = rows[rows.length - 1].id;
    // A row that was never chained (written by hand) stays so: the verifier keeps reporting it.
    const values = rows
      .filter((row) => row.hash !== null)
      .map((row) => {
        const key = chainKeyOf(row.survey_id);
        const head = heads.get(key);
        const prev = head ? head.lastHash : (anchors.get(key) ?? null);
        const digest = valuesDigest(row.before, row.after);
        const hash = chainedRowHash(row, digest, prev);
        heads.set(key, { lastId: row.id, lastHash: hash, count: (head?.count ?? 0) + 1 });
        return sql`(cast(${row.id} as integer), cast(${hash} as text), cast(${prev} as text), cast(${digest} as text))`;
      });
    if (values.length === 0) continue;
    await sql`update audit_log set legacy_hash = hash, hash = v.column2, prev_hash = v.column3, values_hash = v.column4
      from (values ${sql.join(values)}) as v where audit_log.id = v.column1`.execute(db);
  }
  for (const [key, head] of heads) {
    await sql`update audit_chain_heads set last_hash = ${head.lastHash}
      where chain_key = ${key} and last_id = ${head.lastId}`.execute(db);
  }
}

/** Append-only, but for an erasure: `erased_at` set once, `before` and `after` emptied, nothing else changed. */
async function makeAppendOnlyButErasable(db: MigrationDb): Promise<void> {
  const kept = ["id", "at", "actor_user_id", "actor_sub", "action", "entity", "entity_id", "survey_id"]
    .concat(["patient_data_id", "hash", "prev_hash", "values_hash", "legacy_hash"])
    .map((c) => `new.${c} is not distinct from old.${c}`);
  const erasure = [
    "old.erased_at is null",
    "new.erased_at is not null",
    "new.before is null",
    "new.after is null",
    ...kept,
  ].join(" and ");
  const message = "audit_log is append-only";
  if (h(db) === "postgres") {
    await sql`create function audit_log_append_only() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' and ${sql.raw(erasure)} then return new; end if;
        raise exception ${sql.lit(message)} using errcode = 'restrict_violation';
      end $$`.execute(db);
    await sql`create trigger audit_log_no_update_delete before update or delete on audit_log
      for each row execute function audit_log_append_only()`.execute(db);
    await sql`create trigger audit_log_no_truncate before truncate on audit_log
      for each statement execute function audit_log_append_only()`.execute(db);
    return;
  }
  await sql`create trigger audit_log_no_update before update on audit_log
    when not (${sql.raw(erasure.replaceAll("is not distinct from", "is"))})
    begin select raise(abort, ${sql.lit(message)}); end`.execute(db);
  await sql`create trigger audit_log_no_delete before delete on audit_log
    begin select raise(abort, ${sql.lit(message)}); end`.execute(db);
}

const h = (db: MigrationDb) => schemaHelpers(db).dialect;

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable("erased_blobs").execute();
  await db.schema.dropTable("case_erasures").execute();
  await db.schema.alterTable("surveys").dropColumn("retention_months").execute();
  // The first recipe's hashes and links come back for the rows it hashed; rows written or erased since then
  // no longer verify by the first recipe.
  await dropAppendOnly(db, "audit_log");
  const same = h(db) === "postgres" ? sql`is not distinct from` : sql`is`;
  await sql`update audit_log set hash = legacy_hash, prev_hash = (select p.legacy_hash from audit_log p
    where p.survey_id ${same} audit_log.survey_id and p.id < audit_log.id order by p.id desc limit 1)
    where legacy_hash is not null`.execute(db);
  await sql`update audit_chain_heads set last_hash = (select legacy_hash from audit_log where id = audit_chain_heads.last_id)
    where exists (select 1 from audit_log where id = audit_chain_heads.last_id and legacy_hash is not null)`.execute(
    db,
  );
  for (const column of ["erased_at", "legacy_hash", "values_hash"]) {
    await db.schema.alterTable("audit_log").dropColumn(column).execute();
  }
  await makeAppendOnly(db, "audit_log");
}
