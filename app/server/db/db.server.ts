import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import {
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  CompiledQuery,
  type Compilable,
} from "kysely";
import pg from "pg";
import { getEnv } from "~/server/env.server";
import { log } from "~/server/log.server";
import { createWatchedPool, type WatchedPool } from "./pg-pool.server";
import { createReaderPool, type ReaderPool } from "./readers.server";
import type { Database, DB } from "./types.server";

export type { DB } from "./types.server";
export type DialectName = "sqlite" | "postgres";

export interface CreateDbOptions {
  /** postgres:// URL; when given, PostgreSQL is used instead of the SQLite file. */
  databaseUrl?: string;
  /** Directory of the SQLite file; created when missing. */
  dataDir: string;
  /** SQLite file name inside dataDir (default survey.sqlite). */
  filename?: string;
}

const PG_INT8_OID = 20;
const PG_NUMERIC_OID = 1700;

/**
 * Opens the database: a SQLite file (WAL, foreign keys on, busy timeout) by default, or a PostgreSQL pool
 * when a URL is given. Both return counts, sums and averages as numbers.
 */
export function createDb(opts: CreateDbOptions): DB {
  if (opts.databaseUrl) return createPostgresDb(opts.databaseUrl);
  fs.mkdirSync(opts.dataDir, { recursive: true });
  return createSqliteDb(path.join(opts.dataDir, opts.filename ?? "survey.sqlite"));
}

/** The file behind each SQLite instance, for `openLeanReader`. */
const sqliteFiles = new WeakMap<DB, string>();
/** The connection pool behind each PostgreSQL instance, for `openLeanReader`'s rows as arrays. */
const postgresPools = new WeakMap<DB, WatchedPool>();
/** The read-only worker connections of each SQLite instance, for `readBeside`. */
const sqliteReaders = new WeakMap<DB, ReaderPool>();

function createSqliteDb(file: string): DB {
  const database = new SQLite(file);
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
  // A larger page cache and memory-mapped reads: the statistics scan millions of answer rows.
  database.pragma("cache_size = -65536");
  database.pragma("mmap_size = 268435456");
  const readers = createReaderPool(file);
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(database, () => void readers.close()) }),
  });
  sqliteFiles.set(db, file);
  sqliteReaders.set(db, readers);
  return db;
}

/** Page cache of a lean reader: 8 MB. */
const LEAN_CACHE_KIB = 8192;

/** A long scan's connection: Kysely for its small queries, and `rows` for the big one. */
export interface LeanReader {
  db: DB;
  /**
   * The rows of a query as arrays of its columns in select order, not as an object each: a scan of
   * millions of rows makes no garbage per column name. All rows of one call are read at once, so a call
   * should ask for a bounded part (one page of cases).
   */
  rows: (query: Compilable<unknown> | CompiledQuery<unknown>) => Promise<unknown[][]>;
  /**
   * Where the scan writes what it keeps (the export's lines): on SQLite a small connection of its own,
   * opened at the first call, so the writes do not fill the main connection's cache; on PostgreSQL the pool.
   */
  writer: () => DB;
  close: () => Promise<void>;
}

/**
 * A connection for one long scan that must stay small in memory (the CSV export): on SQLite a read-only
 * connection of its own without memory-mapped reads and with a small page cache, since the main
 * connection's map and cache grow with every page a scan touches; on PostgreSQL the pool itself (the rows
 * live in the server). `close` must be called when the scan ends. writeWaitMs: how long the writer waits for
 * a write lock (SQLite; 5 s by default), the server's thread blocked meanwhile.
 */
export function openLeanReader(db: DB, opts: { writeWaitMs?: number } = {}): LeanReader {
  const compiledOf = (query: Compilable<unknown> | CompiledQuery<unknown>) =>
    "compile" in query ? query.compile() : query;
  const file = sqliteFiles.get(db);
  if (!file) {
    const pool = postgresPools.get(db);
    if (!pool) throw new Error("openLeanReader: neither a SQLite file nor a PostgreSQL pool");
    return {
      db,
      rows: async (query) => {
        const { sql: text, parameters } = compiledOf(query);
        const result = await pool.queryArrays({ text, values: [...parameters] });
        return result.rows as unknown[][];
      },
      writer: () => db,
      close: async () => {},
    };
  }
  const database = new SQLite(file, { readonly: true, fileMustExist: true });
  database.pragma("busy_timeout = 5000");
  database.pragma(`cache_size = -${LEAN_CACHE_KIB}`);
  database.pragma("mmap_size = 0");
  const reader = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  let writer: DB | undefined;
  return {
    db: reader,
    rows: async (query) => {
      const { sql: text, parameters } = compiledOf(query);
      return database
        .prepare(text)
        .raw(true)
        .all(...parameters) as unknown[][];
    },
    writer: () => {
      if (writer) return writer;
      const connection = new SQLite(file, { fileMustExist: true });
      // How long a write waits for the server's own write to end: SQLite waits on the thread that asked.
      connection.pragma(`busy_timeout = ${opts.writeWaitMs ?? 5000}`);
      connection.pragma("synchronous = NORMAL");
      connection.pragma("foreign_keys = ON");
      connection.pragma(`cache_size = -${LEAN_CACHE_KIB}`);
      connection.pragma("mmap_size = 0");
      return (writer = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) }));
    },
    close: async () => {
      await writer?.destroy();
      await reader.destroy();
    },
  };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Prepared statements kept by their SQL: the same few hundred queries run again and again, and preparing
 * each one anew costs as much as running it. A statement still being iterated (busy) is not shared.
 */
function withStatementCache(database: SQLite.Database, onClose: () => void) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      onClose();
      database.close();
    },
    prepare(sql: string) {
      const cached = cache.get(sql);
      if (cached && !cached.busy) return cached;
      const statement = database.prepare(sql);
      if (!cached) {
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
        cache.set(sql, statement);
      }
      return statement;
    },
  };
}

/** The PostgreSQL pool's connections: in use, idle, and queries waiting for one (undefined on SQLite). */
export function poolStateOf(db: DB): { inUse: number; idle: number; waiting: number } | undefined {
  const pool = postgresPools.get(db)?.pool;
  if (!pool) return undefined;
  return { inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount };
}

function createPostgresDb(connectionString: string): DB {
  const types = new pg.TypeOverrides();
  // bigint counts/sums and numeric averages arrive as strings by default; they stay far below 2^53 here.
  types.setTypeParser(PG_INT8_OID, (value: string) => Number(value));
  types.setTypeParser(PG_NUMERIC_OID, (value: string) => Number(value));
  // Up to 10 connections; a database that stops answering fails a statement within seconds (pg-pool.server.ts).
  const watched = createWatchedPool(connectionString, types);
  const { pool } = watched;
  // A connection lost while idle in the pool: the pool drops it and the next query opens another.
  pool.on("error", (error) => log.error("db.connection_lost", { idle: true, error: error.message }));
  // A connection lost while checked out (between the statements of a transaction, say) emits 'error' on
  // its client, which the pool listens to only while the client is idle: unheard, the event would end the
  // process. The statement that was running fails on its own (the API answers 503), and the client, once
  // released with that error, is not reused.
  pool.on("connect", (client) => {
    client.on("error", (error) => log.error("db.connection_lost", { idle: false, error: error.message }));
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: watched.dialectPool }) });
  postgresPools.set(db, watched);
  return db;
}

/**
 * Runs one read-only query so that others can run beside it: on SQLite in a reader thread of its own
 * connection (see readers.server.ts); on PostgreSQL on a connection of the pool, keeping to one process
 * (the caller runs several such queries at once, and parallel workers for each of them at once cost more
 * than they gave on a small machine). Inside a transaction the query runs in it.
 */
export async function readBeside<R>(db: DB | Kysely<Database>, query: Compilable<R> | CompiledQuery<R>): Promise<R[]> {
  const compiled = "compile" in query ? query.compile() : query;
  if (db.isTransaction) return (await db.executeQuery(compiled)).rows;
  const readers = sqliteReaders.get(db);
  if (readers) return readers.read(compiled);
  if (dialectOf(db) === "sqlite") return (await db.executeQuery(compiled)).rows;
  return db.transaction().execute(async (trx) => {
    await trx.executeQuery(CompiledQuery.raw("set local max_parallel_workers_per_gather = 0"));
    return (await trx.executeQuery(compiled)).rows;
  });
}

/** Which database a Kysely instance (or a transaction of one) talks to. */
export function dialectOf(db: Pick<Kysely<unknown>, "getExecutor">): DialectName {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof SqliteAdapter) return "sqlite";
  if (adapter instanceof PostgresAdapter) return "postgres";
  throw new Error(`Unsupported database dialect: ${adapter.constructor.name}`);
}

// Kept on globalThis so that module reloads in development reuse one connection.
const holder = globalThis as typeof globalThis & { __surveyToolDb?: DB };

/** The database of this process, opened on first use from DATABASE_URL or DATA_DIR. */
export function getDb(): DB {
  if (!holder.__surveyToolDb) {
    const env = getEnv();
    holder.__surveyToolDb = createDb({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  }
  return holder.__surveyToolDb;
}

/** Closes the database of this process; the next getDb() opens it again. */
export async function closeDb(): Promise<void> {
  const db = holder.__surveyToolDb;
  holder.__surveyToolDb = undefined;
  await db?.destroy();
}

function errorCode(error: unknown): unknown {
  return typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
}

/** True for a unique or primary-key violation on either database (e.g. a concurrent duplicate insert). */
export function isUniqueViolation(error: unknown): boolean {
  const code = errorCode(error);
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

/** True for a foreign-key violation on either database (a missing parent, or a parent still referenced). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = errorCode(error);
  return code === "23503" || code === "SQLITE_CONSTRAINT_FOREIGNKEY";
}

const UNREACHABLE = new Set([
  // A statement left unanswered while the database did not answer a probe either (pg-pool.server.ts).
  "DB_UNANSWERED",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
]);

/**
 * True when an error says the database cannot be reached or used right now, rather than that the request
 * was wrong: a refused, dropped or silent connection, PostgreSQL's connection and shutdown classes (08, 57P0x),
 * too many connections, a database not accepting connections, or a SQLite file that is locked or cannot
 * be opened or read. The API answers these 503.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : "";
  if (typeof code === "string") {
    if (UNREACHABLE.has(code) || code.startsWith("08") || /^57P0[1-4]$/.test(code) || code === "53300") return true;
    if (code === "55000" && /not currently accepting connections/.test(message)) return true;
    if (/^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|NOTADB|CORRUPT|READONLY)/.test(code)) return true;
  }
  // pg's own words for a connection that dropped, or a client that was left unusable by a dropped one.
  return /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable)/.test(
    message,
  );
}
