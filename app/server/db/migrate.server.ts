import { Migrator, type Migration, type MigrationResult } from "kysely";
import { getDb } from "./db.server";
import * as m0001 from "./migrations/0001_initial";
import * as m0002 from "./migrations/0002_survey_definitions";
import * as m0003 from "./migrations/0003_cases_and_responses";
import * as m0004 from "./migrations/0004_dashboards";
import * as m0005 from "./migrations/0005_sync_requests";
import * as m0006 from "./migrations/0006_statistics_indexes";
import * as m0007 from "./migrations/0007_copies_and_retries";
import * as m0008 from "./migrations/0008_attachment_blobs";
import * as m0009 from "./migrations/0009_statistics_versions";
import * as m0010 from "./migrations/0010_response_words";
import * as m0011 from "./migrations/0011_audit_chain";
import * as m0012 from "./migrations/0012_case_signatures";
import * as m0013 from "./migrations/0013_question_words";
import * as m0014 from "./migrations/0014_case_export_rows";
import * as m0015 from "./migrations/0015_pending_words_order";
import * as m0016 from "./migrations/0016_sync_request_versions";
import * as m0017 from "./migrations/0017_erasure";
import * as m0018 from "./migrations/0018_instruments";
import * as m0019 from "./migrations/0019_content_languages";
import * as m0020 from "./migrations/0020_patient_links";
import * as m0021 from "./migrations/0021_preliminary_by_patient";
import * as m0022 from "./migrations/0022_answer_counts";
import * as m0023 from "./migrations/0023_export_blocks";
import type { DB } from "./types.server";

/**
 * Every migration, by name, in the order they apply. Imported rather than read from a folder, so the bundled
 * server carries them. Add new ones at the end; never change one that has shipped.
 */
export const migrations: Readonly<Record<string, Migration>> = {
  "0001_initial": m0001,
  "0002_survey_definitions": m0002,
  "0003_cases_and_responses": m0003,
  "0004_dashboards": m0004,
  "0005_sync_requests": m0005,
  "0006_statistics_indexes": m0006,
  "0007_copies_and_retries": m0007,
  "0008_attachment_blobs": m0008,
  "0009_statistics_versions": m0009,
  "0010_response_words": m0010,
  "0011_audit_chain": m0011,
  "0012_case_signatures": m0012,
  "0013_question_words": m0013,
  "0014_case_export_rows": m0014,
  "0015_pending_words_order": m0015,
  "0016_sync_request_versions": m0016,
  "0017_erasure": m0017,
  "0018_instruments": m0018,
  "0019_content_languages": m0019,
  "0020_patient_links": m0020,
  "0021_preliminary_by_patient": m0021,
  "0022_answer_counts": m0022,
  "0023_export_blocks": m0023,
};

export class MigrationError extends Error {
  override name = "MigrationError";
}

export function createMigrator(db: DB): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => ({ ...migrations }) } });
}

/**
 * Brings the schema up to date. Each migration runs in a transaction, and concurrent starts wait for each
 * other (an advisory lock on PostgreSQL); an up-to-date database is left untouched.
 */
export async function migrateToLatest(db: DB): Promise<void> {
  const { error, results } = await createMigrator(db).migrateToLatest();
  if (error) throw migrationError(error, results);
}

function migrationError(error: unknown, results: MigrationResult[] | undefined): MigrationError {
  const failed = results?.find((r) => r.status === "Error")?.migrationName;
  const reason = error instanceof Error ? error.message : String(error);
  const where = failed ? `migration ${failed} failed` : "migrations could not run";
  return new MigrationError(`Database schema update failed: ${where}: ${reason}`, { cause: error });
}

const ready = new WeakMap<DB, Promise<DB>>();

/** The database migrated once per instance (the process's own by default); for server start and loaders. */
export function ensureMigrated(db: DB = getDb()): Promise<DB> {
  let pending = ready.get(db);
  if (!pending) {
    pending = migrateToLatest(db).then(() => db);
    // A failed attempt is not remembered, so a later call tries again.
    pending.catch(() => ready.delete(db));
    ready.set(db, pending);
  }
  return pending;
}
