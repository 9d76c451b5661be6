import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { createDb, type DialectName } from "~/server/db/db.server";
import { migrateToLatest } from "~/server/db/migrate.server";
import type { DB } from "~/server/db/types.server";

/**
 * Fresh, migrated databases for tests: a SQLite file in a temporary directory, and a PostgreSQL database
 * created with a random name on the local server (dropped afterwards). When PostgreSQL is unreachable its
 * variants are skipped with a message, unless REQUIRE_POSTGRES=1, which makes that a failure.
 */

export type { DialectName } from "~/server/db/db.server";
export const allDialects: readonly DialectName[] = ["sqlite", "postgres"];

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface TestDb {
  db: DB;
  kind: DialectName;
  /** PostgreSQL only: the URL of the test database, for opening more connections to it. */
  url?: string;
  cleanup(): Promise<void>;
}

async function postgresReachable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("select 1");
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function detectDialects(): Promise<DialectName[]> {
  const problem = await postgresReachable();
  if (problem === null) return [...allDialects];
  const message = `PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL} (${problem})`;
  if (process.env.REQUIRE_POSTGRES === "1") throw new Error(`${message}; REQUIRE_POSTGRES=1 requires it.`);
  console.warn(`\n!!! ${message}: the PostgreSQL variants of the database tests are SKIPPED.\n`);
  return ["sqlite"];
}

/** The databases available in this run (always SQLite; PostgreSQL when it is reachable). */
export const dialects: readonly DialectName[] = await detectDialects();

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

function quoteIdent(name: string) {
  return `"${name.replace(/"/g, '""')}"`;
}

async function openSqlite(migrate: boolean): Promise<TestDb> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "survey-test-db-"));
  const db = createDb({ dataDir });
  if (migrate) await migrateToLatest(db);
  return {
    db,
    kind: "sqlite",
    async cleanup() {
      await db.destroy();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function openPostgres(migrate: boolean): Promise<TestDb> {
  const name = `survey_test_${Date.now().toString(36)}_${crypto.randomBytes(4).toString("hex")}`;
  await adminQuery(`create database ${quoteIdent(name)}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const db = createDb({ databaseUrl: url.toString(), dataDir: os.tmpdir() });
  const cleanup = async () => {
    await db.destroy();
    // FORCE terminates any connection still open to it.
    await adminQuery(`drop database if exists ${quoteIdent(name)} with (force)`);
  };
  try {
    if (migrate) await migrateToLatest(db);
  } catch (error) {
    await cleanup();
    throw error;
  }
  return { db, kind: "postgres", url: url.toString(), cleanup };
}

/** Opens a fresh database of the given kind, migrated unless { migrate: false }. Call cleanup() after. */
export async function openTestDb(kind: DialectName, opts: { migrate?: boolean } = {}): Promise<TestDb> {
  const migrate = opts.migrate ?? true;
  return kind === "sqlite" ? openSqlite(migrate) : openPostgres(migrate);
}

/** Runs fn with a fresh migrated database and removes the database afterwards. */
export async function withTestDb<T>(kind: DialectName, fn: (db: DB) => Promise<T>): Promise<T> {
  const handle = await openTestDb(kind);
  try {
    return await fn(handle.db);
  } finally {
    await handle.cleanup();
  }
}

/**
 * One fresh migrated database for the enclosing describe block: opened before its tests, removed after.
 * Returns a getter, since the database exists only once the block runs.
 */
export function useTestDb(kind: DialectName): () => DB {
  let handle: TestDb | undefined;
  beforeAll(async () => {
    handle = await openTestDb(kind);
  });
  afterAll(async () => {
    await handle?.cleanup();
  });
  return () => {
    if (!handle) throw new Error("The test database is opened in beforeAll; use it inside tests.");
    return handle.db;
  };
}

/**
 * describe() once per database. A database that is not available shows up as a skipped block, so its
 * absence is visible in the report.
 */
export function describeEachDialect(name: string, fn: (kind: DialectName) => void): void {
  for (const kind of allDialects) {
    describe.skipIf(!dialects.includes(kind))(`${name} [${kind}]`, () => fn(kind));
  }
}
