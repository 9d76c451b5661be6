import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from "kysely";
import type { Database } from "./types.server";

/** Stands for the value at `index` of the arguments a prepared query runs with. */
class Slot {
  constructor(readonly index: number) {}
}

/**
 * A placeholder for the argument at `index`. Typed `never` so that it fits any column; the arguments'
 * types are checked where the query runs (the tuple A of `prepared`).
 */
export type Placeholder = (index: number) => never;
const placeholder: Placeholder = (index: number) => new Slot(index) as never;

type Runner = Pick<Kysely<Database>, "executeQuery" | "getExecutor">;

interface Compiled {
  sql: string;
  /** Per parameter: the argument index it takes, or the constant written in the query. */
  params: ({ arg: number } | { value: unknown })[];
}

/**
 * A query built with Kysely once per database dialect, then run with new values. On the hottest path
 * (recording an answer) building and compiling a query costs as much as SQLite running it; the SQL and
 * the statement stay the same. `build` writes the query with `$(i)` where argument i goes. A placeholder
 * stands for one value: not for a list (`in`), a column or a table.
 */
export function prepared<A extends readonly unknown[], R>(
  build: (db: Kysely<Database>, $: Placeholder) => Compilable<R>,
) {
  const byAdapter = new WeakMap<object, Compiled>();

  function compiledFor(db: Runner): Compiled {
    const adapter = db.getExecutor().adapter;
    let compiled = byAdapter.get(adapter);
    if (!compiled) {
      const query = build(db as Kysely<Database>, placeholder).compile();
      compiled = {
        sql: query.sql,
        params: query.parameters.map((p) => (p instanceof Slot ? { arg: p.index } : { value: p })),
      };
      byAdapter.set(adapter, compiled);
    }
    return compiled;
  }

  function run(db: Runner, args: A): Promise<QueryResult<R>> {
    const { sql, params } = compiledFor(db);
    const values = params.map((p) => ("arg" in p ? args[p.arg] : p.value));
    return db.executeQuery<R>(CompiledQuery.raw(sql, values));
  }

  return {
    /** The rows the query returns. */
    async all(db: Runner, ...args: A): Promise<R[]> {
      return (await run(db, args)).rows;
    },
    /** The first row, if any. */
    async first(db: Runner, ...args: A): Promise<R | undefined> {
      return (await run(db, args)).rows[0];
    },
    /** How many rows an insert, update or delete changed. */
    async affected(db: Runner, ...args: A): Promise<number> {
      return Number((await run(db, args)).numAffectedRows ?? 0);
    },
  };
}
