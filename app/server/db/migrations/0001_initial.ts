import { sql } from "kysely";
import { dropAppendOnly, makeAppendOnly, schemaHelpers, type MigrationDb } from "./helpers";

/** Accounts, teams, tags, sessions and the audit log. */
export async function up(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);

  await db.schema
    .createTable("users")
    .$call(h.id)
    .addColumn("sub", "text", (c) => c.notNull().unique())
    .addColumn("full_name", "text", (c) => c.notNull())
    .addColumn("institute", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("email", "text")
    .addColumn("culture", "text", (c) => c.check(sql`culture in ('en-US', 'de-DE')`))
    .$call(h.flag("has_accepted_tos"))
    .addColumn("roles", "text", (c) => c.notNull().defaultTo("[]"))
    .$call(h.timestamp("created_at"))
    .$call(h.timestamp("updated_at"))
    .addColumn("last_login_at", "text")
    .$call(h.strict)
    .execute();

  await db.schema
    .createTable("teams")
    .$call(h.id)
    .addColumn("name", "text", (c) => c.notNull().unique())
    .$call(h.flag("disabled"))
    .$call(h.strict)
    .execute();

  await db.schema
    .createTable("user_teams")
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("team_id", "integer", (c) => c.notNull().references("teams.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("user_teams_pk", ["user_id", "team_id"])
    .$call(h.strict)
    .execute();
  await db.schema.createIndex("user_teams_team_idx").on("user_teams").column("team_id").execute();

  await db.schema
    .createTable("tags")
    .$call(h.id)
    .addColumn("name", "text", (c) => c.notNull().unique())
    .$call(h.strict)
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.notNull().primaryKey())
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .$call(h.timestamp("created_at"))
    .$call(h.timestamp("updated_at"))
    .$call(h.strict)
    .execute();
  await db.schema.createIndex("sessions_expires_at_idx").on("sessions").column("expires_at").execute();

  // No foreign keys: the log outlives the users, surveys and cases it records.
  await db.schema
    .createTable("audit_log")
    .$call(h.id)
    .$call(h.timestamp("at"))
    .addColumn("actor_user_id", "integer")
    .addColumn("actor_sub", "text")
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("entity", "text", (c) => c.notNull())
    .addColumn("entity_id", "text")
    .addColumn("survey_id", "integer")
    .addColumn("patient_data_id", "integer")
    .addColumn("before", "text")
    .addColumn("after", "text")
    .$call(h.strict)
    .execute();
  await db.schema.createIndex("audit_log_survey_idx").on("audit_log").columns(["survey_id", "id"]).execute();
  await db.schema
    .createIndex("audit_log_patient_data_idx")
    .on("audit_log")
    .columns(["patient_data_id", "id"])
    .execute();
  await makeAppendOnly(db, "audit_log");
}

export async function down(db: MigrationDb): Promise<void> {
  await dropAppendOnly(db, "audit_log");
  for (const table of ["audit_log", "sessions", "tags", "user_teams", "teams", "users"]) {
    await db.schema.dropTable(table).execute();
  }
}
