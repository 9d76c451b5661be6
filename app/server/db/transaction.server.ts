import type { Executor, Trx } from "./types.server";

/**
 * Runs the work in a transaction of its own, or in the one the executor already is (Kysely starts no
 * transaction inside another): the work's reads and writes commit together either way.
 */
export function inTransaction<T>(db: Executor, work: (trx: Trx) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Trx) : db.transaction().execute(work);
}
