import { schemaHelpers, type MigrationDb } from "./helpers";

/**
 * The database attachment store (docs/decisions/021): the bytes of each file in parts of 256 KiB, keyed
 * like the file store's blobs, written in the transaction of their file_attachments row.
 */
export async function up(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);
  await db.schema
    .createTable("attachment_blobs")
    .addColumn("storage_key", "text", (c) => c.notNull())
    .addColumn("part", "integer", (c) => c.notNull())
    .addColumn("bytes", h.dialect === "postgres" ? "bytea" : "blob", (c) => c.notNull())
    .$call(h.timestamp("created_at"))
    .addPrimaryKeyConstraint("attachment_blobs_pk", ["storage_key", "part"])
    .$call(h.strict)
    .execute();
  // Sweeping orphans and moving between stores look rows up by their blob's key.
  await db.schema
    .createIndex("file_attachments_storage_key_idx")
    .on("file_attachments")
    .column("storage_key")
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex("file_attachments_storage_key_idx").execute();
  await db.schema.dropTable("attachment_blobs").execute();
}
