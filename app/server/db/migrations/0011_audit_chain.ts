import { createHash } from "node:crypto";
import { sql } from "kysely";
import { dropAppendOnly, makeAppendOnly, schemaHelpers, type MigrationDb } from "./helpers";

/**
 * The hash recipe this migration chained the rows with (docs/decisions/027-audit-chain.md, "The hash recipe"),
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

/**
 * SHA-256 (lowercase hex) of the JSON array, without whitespace, of
 * [at, actor_user_id, actor_sub, action, entity, entity_id, survey_id, patient_data_id, before, after, prev_hash].
 */
export function auditRowHash(row: AuditRowContent, prevHash: string | null): string {
  const text = JSON.stringify([
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
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** Rows hashed and written back per statement while the existing log is chained. */
const BACKFILL_BATCH = 500;

/**
 * A hash chain through the audit log, one chain per survey and one ("global") for rows without a survey
 * (docs/decisions/027-audit-chain.md): each row gets the hash of its content and of the previous row's hash
 * in its chain, and `audit_chain_heads` holds each chain's last row, hash and count, so that a writer locks
 * one small row per chain and the verifier sees a removed last row.
 */
export async function up(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);
  await db.schema
    .createTable("audit_chain_heads")
    .addColumn("chain_key", "text", (c) => c.primaryKey())
    .addColumn("last_id", "integer")
    .addColumn("last_hash", "text")
    .addColumn("count", "integer", (c) => c.notNull().defaultTo(0))
    // Set when old rows are archived away from the start of the chain (docs/operations.md).
    .addColumn("anchor_hash", "text")
    .addColumn("archived_count", "integer", (c) => c.notNull().defaultTo(0))
    .$call(h.strict)
    .execute();
  // The columns stay nullable: a NOT NULL column needs a rebuilt table on SQLite, and a row inserted by hand
  // without a hash is then simply reported by the verifier as not belonging to its chain. The existing rows
  // are hashed here, which the append-only triggers would refuse: they are dropped and made again inside
  // this migration's transaction, so no other writer ever sees the table without them.
  await db.schema.alterTable("audit_log").addColumn("hash", "text").execute();
  await db.schema.alterTable("audit_log").addColumn("prev_hash", "text").execute();
  await dropAppendOnly(db, "audit_log");
  await backfill(db);
  await makeAppendOnly(db, "audit_log");
}

interface Head {
  lastId: number;
  lastHash: string;
  count: number;
}

/** Chains the rows already written, in id order, and writes each chain's head. */
async function backfill(db: MigrationDb): Promise<void> {
  const heads = new Map<string, Head>();
  let after = 0;
  for (;;) {
    const rows = (
      await sql<AuditRowContent & { id: number }>`select id, at, actor_user_id, actor_sub, action, entity, entity_id,
        survey_id, patient_data_id, before, after from audit_log where id > ${after} order by id limit ${BACKFILL_BATCH}`.execute(
        db,
      )
    ).rows;
    if (rows.length === 0) break;
    const values = rows.map((row) => {
      const key = chainKeyOf(row.survey_id);
      const head = heads.get(key);
      const prev = head?.lastHash ?? null;
      const hash = auditRowHash(row, prev);
      heads.set(key, { lastId: row.id, lastHash: hash, count: (head?.count ?? 0) + 1 });
      return sql`(cast(${row.id} as integer), cast(${hash} as text), cast(${prev} as text))`;
    });
    await sql`update audit_log set hash = v.column2, prev_hash = v.column3
      from (values ${sql.join(values)}) as v where audit_log.id = v.column1`.execute(db);
    after = rows[rows.length - 1].id;
  }
  for (const [key, head] of heads) {
    await sql`insert into audit_chain_heads (chain_key, last_id, last_hash, count)
      values (${key}, ${head.lastId}, ${head.lastHash}, ${head.count})`.execute(db);
  }
}

export async function down(db: MigrationDb): Promise<void> {
  await dropAppendOnly(db, "audit_log");
  await db.schema.alterTable("audit_log").dropColumn("prev_hash").execute();
  await db.schema.alterTable("audit_log").dropColumn("hash").execute();
  await makeAppendOnly(db, "audit_log");
  await db.schema.dropTable("audit_chain_heads").execute();
}
