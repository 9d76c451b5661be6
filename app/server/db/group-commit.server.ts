import { CompiledQuery } from "kysely";
import { dialectOf } from "./db.server";
import type { DB } from "./types.server";
import type { Trx } from "~/server/db/types.server";

interface Pending {
  work: (trx: Trx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** The most writes one commit carries. */
const MAX_BATCH = 100;

const savepoint = CompiledQuery.raw("savepoint one_write");
const release = CompiledQuery.raw("release savepoint one_write");
const rollback = CompiledQuery.raw("rollback to savepoint one_write");

/**
 * Small writes that arrive together share one SQLite transaction, each inside its own savepoint: a write
 * that fails is undone alone and gets its own error, the others commit together. A caller hears of its
 * write only after the commit. SQLite runs one write at a time anyway, and committing costs more than a
 * small write itself, so many people answering at once are served with a fraction of the commits.
 */
class GroupCommit {
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(private readonly db: DB) {}

  run<T>(work: (trx: Trx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // After the current turn of the event loop, so that writes arriving with it join this commit.
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush() {
    const batch = this.queue.splice(0, MAX_BATCH);
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const item of batch) {
          await trx.executeQuery(savepoint);
          try {
            outcomes.push({ ok: true, value: await item.work(trx) });
          } catch (error) {
            await trx.executeQuery(rollback);
            outcomes.push({ ok: false, error });
          }
          await trx.executeQuery(release);
        }
      });
      batch.forEach((item, i) => {
        const outcome = outcomes[i];
        if (outcome.ok) item.resolve(outcome.value);
        else item.reject(outcome.error);
      });
    } catch (error) {
      // The commit (or the transaction itself) failed: none of these writes happened.
      for (const item of batch) item.reject(error);
    }
    if (this.queue.length > 0) setImmediate(() => void this.flush());
    else this.scheduled = false;
  }
}

const groups = new WeakMap<DB, GroupCommit>();

/**
 * Runs a small write in a transaction: on SQLite it shares its commit with the writes that arrive at the
 * same time (GroupCommit); on PostgreSQL, which writes in parallel, it has a transaction of its own.
 * Either way the work runs alone against the database and is applied completely or not at all.
 */
export function writeTransaction<T>(db: DB, work: (trx: Trx) => Promise<T>): Promise<T> {
  // Inside a request's own transaction (an idempotent write), the work joins it.
  if (db.isTransaction || dialectOf(db) !== "sqlite") return db.transaction().execute(work);
  let group = groups.get(db);
  if (!group) {
    group = new GroupCommit(db);
    groups.set(db, group);
  }
  return group.run(work);
}
