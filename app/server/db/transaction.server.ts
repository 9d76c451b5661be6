import { dialectOf } from "./db.server";
import type { Executor, Trx } from "./types.server";

/**
 * Runs the work in a transaction of its own, or in the one the executor already is (Kysely starts no
 * transaction inside another): the work's reads and writes commit together either way.
 */
export function inTransaction<T>(db: Executor, work: (trx: Trx) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Trx) : db.transaction().execute(work);
}

/**
 * Runs reads that must agree with one another against one state of the database, whatever other transactions
 * commit meanwhile: on PostgreSQL in a read-only REPEATABLE READ transaction (every statement sees the
 * snapshot its first one took); on SQLite in a transaction on the one connection, which no other statement of
 * this process enters until it ends and whose reads (WAL) all see the database as of its first read, whatever
 * other processes commit. Inside a transaction, in that one: its reads are the caller's to make consistent.
 */
export function inSnapshot<T>(db: Executor, work: (trx: Trx) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db as Trx);
  const transaction = db.transaction();
  return (
    dialectOf(db) === "postgres"
      ? transaction.setIsolationLevel("repeatable read").setAccessMode("read only")
      : transaction
  ).execute(work);
}
