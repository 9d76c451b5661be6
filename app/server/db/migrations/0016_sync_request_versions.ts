import type { MigrationDb } from "./helpers";

/**
 * An applied offline sync remembers the case's answers version it left (docs/decisions/038-typed-work-kept.md),
 * so that a repeat of it answers that version too and the device continues the case from there. Rows of
 * syncs applied before have none: their repeats answer without a version.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable("sync_requests").addColumn("answers_version", "integer").execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable("sync_requests").dropColumn("answers_version").execute();
}
