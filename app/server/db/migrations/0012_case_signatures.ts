import { sql } from "kysely";
import { schemaHelpers, type MigrationDb } from "./helpers";

/**
 * Signed close (docs/decisions/029-signed-close.md): a survey may require an electronic signature to submit
 * a case. `case_signatures` keeps each signature (who, when, its meaning, the hash of the case's answers it
 * was given for, and when the person signed in afresh at the provider); `signing_intents` keeps a signing
 * started on the signing page until the provider sends the person back.
 */
export async function up(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);
  await db.schema
    .alterTable("surveys")
    .addColumn("requires_signature", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`requires_signature in (0, 1)`),
    )
    .execute();

  await db.schema
    .createTable("case_signatures")
    .$call(h.id)
    .addColumn("survey_id", "integer", (c) => c.notNull().references("surveys.id").onDelete("cascade"))
    .addColumn("patient_data_id", "integer", (c) => c.notNull().references("patient_data.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    // The provider's subject and the name as they were at signing: the signature names its signer for ever.
    .addColumn("signer_sub", "text", (c) => c.notNull())
    .addColumn("signer_name", "text", (c) => c.notNull())
    .addColumn("meaning", "text", (c) => c.notNull().check(sql`meaning in ('author', 'reviewer', 'approval')`))
    .addColumn("answers_hash", "text", (c) => c.notNull())
    .addColumn("signed_at", "text", (c) => c.notNull())
    .addColumn("auth_time", "text", (c) => c.notNull())
    .$call(h.strict)
    .execute();
  await db.schema.createIndex("case_signatures_case_idx").on("case_signatures").column("patient_data_id").execute();
  await db.schema.createIndex("case_signatures_survey_idx").on("case_signatures").column("survey_id").execute();

  await db.schema
    .createTable("signing_intents")
    // The OAuth state of the signing's sign-in: random, and the key the callback finds the intent by.
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    // sha256 of the app session's id: only the session that started a signing may finish it.
    .addColumn("session_hash", "text", (c) => c.notNull())
    .addColumn("survey_id", "integer", (c) => c.notNull().references("surveys.id").onDelete("cascade"))
    .addColumn("patient_data_id", "integer", (c) => c.notNull().references("patient_data.id").onDelete("cascade"))
    .addColumn("meaning", "text", (c) => c.notNull())
    .addColumn("answers_hash", "text", (c) => c.notNull())
    .addColumn("nonce", "text", (c) => c.notNull())
    .addColumn("code_verifier", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .$call(h.strict)
    .execute();
  await db.schema.createIndex("signing_intents_created_idx").on("signing_intents").column("created_at").execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable("signing_intents").execute();
  await db.schema.dropTable("case_signatures").execute();
  await db.schema.alterTable("surveys").dropColumn("requires_signature").execute();
}
