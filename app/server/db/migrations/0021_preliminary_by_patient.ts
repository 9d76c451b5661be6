import { sql } from "kysely";
import type { MigrationDb } from "./helpers";

/**
 * The survey's setting "preliminary questions answered by the patient" (docs/decisions/058-hand-over.md):
 * `surveys.preliminary_by_patient` set, a patient's link starts with the preliminary pages and the device may be
 * handed over before them; unset (the default), the preliminary questions stay with staff.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable("surveys")
    .addColumn("preliminary_by_patient", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`preliminary_by_patient in (0, 1)`),
    )
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable("surveys").dropColumn("preliminary_by_patient").execute();
}
