import { sql } from "kysely";
import { schemaHelpers, type MigrationDb } from "./helpers";

/**
 * Patients who answer for themselves (docs/decisions/057-patient-links.md):
 * - `patient_links`: one-time links to one case, the token and the short code stored only as SHA-256 hashes;
 *   the caller's cookie (`session_hash`, also a hash) is set when the link is opened. `answered_at` is the
 *   first answer saved through it; `renewed_from` the link a renewal replaced. The links go with their case.
 * - `patient_data.respondent`: who answered the case (null: staff; "link": the patient through a link,
 *   `respondent_link_id`; "handover": the patient on a staff member's device, `respondent_user_id`), and
 *   `held_until`: an Open case waiting for its patient (or for staff review) is not closed as unchanged
 *   before then.
 * - `surveys.patient_submit_review`: a case the patient submits waits for staff to review and close it.
 */
export async function up(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);
  await db.schema
    .createTable("patient_links")
    .$call(h.id)
    .addColumn("survey_id", "integer", (c) => c.notNull().references("surveys.id").onDelete("cascade"))
    .addColumn("patient_data_id", "integer", (c) => c.notNull().references("patient_data.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) =>
      c
        .notNull()
        .unique()
        .check(sql`length(token_hash) = 64`),
    )
    .addColumn("code_hash", "text", (c) =>
      c
        .notNull()
        .unique()
        .check(sql`length(code_hash) = 64`),
    )
    .addColumn("language", "text", (c) => c.check(sql`length(language) between 2 and 12`))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("created_by_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .$call(h.timestamp("created_at"))
    .addColumn("opened_at", "text")
    .addColumn("last_seen_at", "text")
    .addColumn("answered_at", "text")
    .addColumn("submitted_at", "text")
    .addColumn("revoked_at", "text")
    .addColumn("renewed_from", "integer")
    .addColumn("session_hash", "text", (c) => c.unique())
    .$call(h.strict)
    .execute();
  await db.schema.createIndex("patient_links_case_idx").on("patient_links").columns(["patient_data_id"]).execute();
  await db.schema
    .alterTable("patient_data")
    .addColumn("respondent", "text", (c) => c.check(sql`respondent in ('link', 'handover')`))
    .execute();
  await db.schema.alterTable("patient_data").addColumn("respondent_link_id", "integer").execute();
  await db.schema.alterTable("patient_data").addColumn("respondent_user_id", "integer").execute();
  await db.schema.alterTable("patient_data").addColumn("held_until", "text").execute();
  await db.schema
    .alterTable("surveys")
    .addColumn("patient_submit_review", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`patient_submit_review in (0, 1)`),
    )
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable("surveys").dropColumn("patient_submit_review").execute();
  for (const column of ["held_until", "respondent_user_id", "respondent_link_id", "respondent"]) {
    await db.schema.alterTable("patient_data").dropColumn(column).execute();
  }
  await db.schema.dropTable("patient_links").execute();
}
