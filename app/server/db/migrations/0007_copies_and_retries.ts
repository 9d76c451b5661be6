import { schemaHelpers, type MigrationDb } from "./helpers";

/**
 * What several copies of the server need to agree (docs/decisions/017 and 018):
 * - sessions.renewing_until: a short lease on a session's token renewal, so that one copy renews while the
 *   others wait for its result instead of spending the same refresh token again;
 * - leases: named locks with an expiry, for work that must run once across copies (seeding the demo data,
 *   the periodic sweeps);
 * - idempotent_requests: the first answer of each write sent with an Idempotency-Key, stored in the write's
 *   own transaction, so that a repeat is answered with it instead of writing again.
 */
export async function up(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);

  await db.schema.alterTable("sessions").addColumn("renewing_until", "text").execute();

  await db.schema
    .createTable("leases")
    .addColumn("name", "text", (c) => c.notNull().primaryKey())
    .addColumn("holder", "text", (c) => c.notNull())
    .addColumn("until", "text", (c) => c.notNull())
    .$call(h.strict)
    .execute();

  await db.schema
    .createTable("idempotent_requests")
    .$call(h.id)
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("idempotency_key", "text", (c) => c.notNull())
    .addColumn("request_hash", "text", (c) => c.notNull())
    .addColumn("status", "integer", (c) => c.notNull())
    .addColumn("content_type", "text")
    .addColumn("body", "text", (c) => c.notNull())
    .$call(h.timestamp("created_at"))
    .addUniqueConstraint("idempotent_requests_user_key", ["user_id", "idempotency_key"])
    .$call(h.strict)
    .execute();
  await db.schema
    .createIndex("idempotent_requests_created_idx")
    .on("idempotent_requests")
    .column("created_at")
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable("idempotent_requests").execute();
  await db.schema.dropTable("leases").execute();
  await db.schema.alterTable("sessions").dropColumn("renewing_until").execute();
}
