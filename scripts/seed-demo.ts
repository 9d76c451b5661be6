// Adds the demo surveys to the configured database (DATABASE_URL, or the SQLite file under DATA_DIR).
import { closeDb, getDb } from "~/server/db/db.server";
import { migrateToLatest } from "~/server/db/migrate.server";
import { seedDemoData } from "~/server/services/demo-data.server";

const db = getDb();
await migrateToLatest(db);
const ids = await seedDemoData(db);
console.log(`Added ${ids.length} demo surveys: ${ids.join(", ")}`);
await closeDb();
