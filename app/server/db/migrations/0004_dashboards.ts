import { schemaHelpers, type MigrationDb } from "./helpers";

/** One statistics dashboard per survey, with its ordered charts. */
export async function up(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);

  await db.schema
    .createTable("dashboards")
    .$call(h.id)
    .addColumn("survey_id", "integer", (c) => c.notNull().unique().references("surveys.id").onDelete("cascade"))
    .$call(h.strict)
    .execute();

  // A chart loses its question or preliminary question when that is deleted, and asks for a new one.
  await db.schema
    .createTable("charts")
    .$call(h.id)
    .addColumn("dashboard_id", "integer", (c) => c.notNull().references("dashboards.id").onDelete("cascade"))
    .addColumn("chart_type", "text", (c) => c.notNull())
    .addColumn("plot_type", "text", (c) => c.notNull())
    .addColumn("attribute_id", "integer", (c) => c.references("patient_form_attributes.id").onDelete("set null"))
    .addColumn("question_id1", "integer", (c) => c.references("questions.id").onDelete("set null"))
    .addColumn("question_id2", "integer", (c) => c.references("questions.id").onDelete("set null"))
    .addColumn("sort", "integer", (c) => c.notNull().defaultTo(0))
    .$call(h.strict)
    .execute();
  await db.schema.createIndex("charts_dashboard_idx").on("charts").columns(["dashboard_id", "sort"]).execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable("charts").execute();
  await db.schema.dropTable("dashboards").execute();
}
