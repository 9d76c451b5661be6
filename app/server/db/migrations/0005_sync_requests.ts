import { schemaHelpers, type MigrationDb } from "./helpers";

/**
 * The offline syncs that were applied, one row per Idempotency-Key of a person (docs/decisions/008): a
 * sync repeated because its answer was lost finds its row and answers the same case again instead of
 * applying the fill twice. The row keeps a hash of the request, so that a key reused for another fill is
 * refused. It replaces sync_receipts of 0003, which nothing wrote: that table had neither the person nor the
 * request's hash, and one key space for everyone.
 */
export async function up(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);

  await db.schema
    .createTable("sync_requests")
    .$call(h.id)
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("idempotency_key", "text", (c) => c.notNull())
    .addColumn("survey_id", "integer", (c) => c.notNull().references("surveys.id").onDelete("cascade"))
    .addColumn("patient_data_id", "integer", (c) => c.notNull().references("patient_data.id").onDelete("cascade"))
    .addColumn("request_hash", "text", (c) => c.notNull())
    .$call(h.timestamp("created_at"))
    .addUniqueConstraint("sync_requests_user_key", ["user_id", "idempotency_key"])
    .$call(h.strict)
    .execute();
  await db.schema.createIndex("sync_requests_survey_idx").on("sync_requests").column("survey_id").execute();
  await db.schema.createIndex("sync_requests_case_idx").on("sync_requests").column("patient_data_id").execute();
  await db.schema.createIndex("sync_requests_created_idx").on("sync_requests").column("created_at").execute();

  await db.schema.dropTable("sync_receipts").execute();
}

export async function down(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);
  await db.schema.dropTable("sync_requests").execute();
  // sync_receipts as 0003 made it.
  await db.schema
    .createTable("sync_receipts")
    .addColumn("idempotency_key", "text", (c) => c.notNull().primaryKey())
    .addColumn("survey_id", "integer", (c) => c.notNull().references("surveys.id").onDelete("cascade"))
    .addColumn("patient_data_id", "integer", (c) => c.notNull().references("patient_data.id").onDelete("cascade"))
    .$call(h.timestamp("created_at"))
    .$call(h.strict)
    .execute();
  await db.schema.createIndex("sync_receipts_survey_idx").on("sync_receipts").column("survey_id").execute();
  await db.schema.createIndex("sync_receipts_case_idx").on("sync_receipts").column("patient_data_id").execute();
}
