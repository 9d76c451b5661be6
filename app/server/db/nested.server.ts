import { sql, type Transaction } from "kysely";
import type { Database, DB } from "./types.server";

/**
 * A transaction that code written for a database may use as one: a transaction it opens becomes a savepoint
 * of this one, undone alone when it fails (as a transaction of its own would be), committed only with the
 * whole. Lets one request's writes, and what else it records, commit together (docs/decisions/018).
 */
export function asDatabase(trx: Transaction<Database>): DB {
  let savepoints = 0;
  const proxy = new Proxy(trx, {
    get(target, property) {
      if (property === "transaction") return () => nested;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const nested = {
    async execute<T>(work: (inner: Transaction<Database>) => Promise<T>): Promise<T> {
      const name = sql.raw(`nested_${++savepoints}`);
      await sql`savepoint ${name}`.execute(trx);
      try {
        const result = await work(proxy);
        await sql`release savepoint ${name}`.execute(trx);
        return result;
      } catch (error) {
        await sql`rollback to savepoint ${name}`.execute(trx).catch(() => undefined);
        throw error;
      }
    },
  };
  return proxy as unknown as DB;
}
