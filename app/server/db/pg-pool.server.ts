import pg from "pg";
import type { PostgresPool, PostgresPoolClient } from "kysely";

/**
 * The PostgreSQL pool, and what it does when the database stops answering without a word (a network that
 * drops packets, a host that hangs): no request waits for TCP to give up, which takes minutes.
 *
 * - A new connection, and a wait for a free one, may take CONNECT_TIMEOUT_MS.
 * - A statement that has had no answer for SILENCE_MS makes the pool ask the database whether it is there, on a
 *   connection of its own that must answer within PROBE_TIMEOUT_MS. When it does not, the statement fails as
 *   unanswered (the API answers 503) and its connection is dropped; when it does, the statement is only slow
 *   (statistics of a large survey, a migration waiting for another copy's) and goes on, asked about again
 *   after the next SILENCE_MS. A probe the database refuses (all its connections taken) was answered too.
 *   A fixed statement timeout short enough to notice an outage in seconds would cut those.
 */

export const CONNECT_TIMEOUT_MS = 5_000;
export const SILENCE_MS = 2_000;
export const PROBE_TIMEOUT_MS = 3_000;
const MAX_CONNECTIONS = 10;

/** A statement the database left unanswered while it did not answer a probe either. */
export class DatabaseUnansweredError extends Error {
  override name = "DatabaseUnansweredError";
  readonly code = "DB_UNANSWERED";
}

export interface WatchedPool {
  /** The pg pool itself: its counts, and `end`. */
  pool: pg.Pool;
  /** The pool as Kysely takes it: its clients' statements are watched. */
  dialectPool: PostgresPool;
  /** One statement on a pooled connection, watched, its rows as arrays of their columns. */
  queryArrays(config: pg.QueryConfig): Promise<pg.QueryArrayResult>;
}

/** The pg client's socket, which the pool itself destroys on a connection timeout. */
function destroySocket(client: pg.PoolClient) {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

export function createWatchedPool(connectionString: string, types: pg.CustomTypesConfig): WatchedPool {
  const pool = new pg.Pool({
    connectionString,
    types,
    max: MAX_CONNECTIONS,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });

  // One probe at a time, shared by every statement that waits meanwhile.
  let probing: Promise<void> | undefined;
  const probe = () =>
    (probing ??= (async () => {
      const client = new pg.Client({
        connectionString,
        connectionTimeoutMillis: PROBE_TIMEOUT_MS,
        query_timeout: PROBE_TIMEOUT_MS,
      });
      client.on("error", () => undefined);
      try {
        await client.connect();
        await client.query("select 1");
      } catch (error) {
        // Refused by the database itself (too many clients, starting up): it answers, so it is there.
        if (!(error instanceof pg.DatabaseError)) throw error;
      } finally {
        // Not waited for: a connection to a silent database ends when its socket gives up.
        void client.end().catch(() => undefined);
      }
    })().finally(() => (probing = undefined)));

  /** The statement's answer, or DatabaseUnansweredError once it went unanswered and a probe failed. */
  function watched<T>(statement: Promise<T>, onLost: (error: Error) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const arm = () => {
        timer = setTimeout(() => {
          probe().then(
            () => {
              if (!settled) arm();
            },
            (error: unknown) => {
              if (settled) return;
              settled = true;
              const lost = new DatabaseUnansweredError(
                `The database answered neither a statement within ${SILENCE_MS} ms nor a probe: ${String(error)}`,
              );
              onLost(lost);
              reject(lost);
            },
          );
        }, SILENCE_MS);
      };
      arm();
      statement.then(
        (value) => {
          settled = true;
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  /** A checked-out client whose statements are watched; once one went unanswered, the client is dropped. */
  function watchedClient(client: pg.PoolClient) {
    let lost: Error | undefined;
    const onLost = (error: Error) => {
      lost = error;
      destroySocket(client);
    };
    return {
      query(text: string, values?: readonly unknown[]) {
        if (lost) return Promise.reject(lost);
        return watched(client.query(text, values as unknown[]), onLost);
      },
      queryArrays(config: pg.QueryConfig) {
        if (lost) return Promise.reject(lost);
        return watched(client.query({ ...config, rowMode: "array" }), onLost);
      },
      release: () => client.release(lost),
    };
  }

  const dialectPool: PostgresPool = {
    async connect() {
      const client = watchedClient(await pool.connect());
      return {
        query: (text: string, parameters: readonly unknown[]) => client.query(text, parameters),
        release: client.release,
      } as unknown as PostgresPoolClient;
    },
    end: () => pool.end(),
  };

  return {
    pool,
    dialectPool,
    async queryArrays(config) {
      const client = watchedClient(await pool.connect());
      try {
        return await client.queryArrays(config);
      } finally {
        client.release();
      }
    },
  };
}
