import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWatchedPool, PROBE_TIMEOUT_MS, SILENCE_MS, type WatchedPool } from "~/server/db/pg-pool.server";
import { dialects, POSTGRES_ADMIN_URL } from "../support/databases";
import { createPostgresDatabase } from "./real-server";
import { silentProxy, type SilentProxy } from "./silent-proxy";

/**
 * A statement that waits for a lock while PostgreSQL refuses new connections (all of max_connections taken,
 * as when many copies and tools share one database): the probe the pool sends after SILENCE_MS is refused,
 * but refused by the database, which is there. The statement is only slow and goes on; it failed as
 * unanswered before, and the server's warm-up after a start stopped so when the machine was busy.
 */

describe.skipIf(!dialects.includes("postgres"))("the pool's probe while the database refuses new connections", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let proxy: SilentProxy;
  let pool: WatchedPool;
  let holder: pg.Client;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    await holder.query("create table held (n integer); insert into held values (1), (2)");
    const target = new URL(POSTGRES_ADMIN_URL);
    proxy = await silentProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const url = new URL(database.url);
    url.host = `127.0.0.1:${proxy.port}`;
    pool = createWatchedPool(url.toString(), pg.types);
  }, 30_000);

  afterAll(async () => {
    await pool?.pool.end().catch(() => undefined);
    await holder?.end().catch(() => undefined);
    await proxy?.close();
    await database?.drop();
  });

  it("keeps a statement that waits for a lock: a refusal is an answer", async () => {
    await holder.query("begin");
    await holder.query("lock table held in access exclusive mode");
    let outcome: string | undefined;
    const statement = pool.queryArrays({ text: "select count(*)::int from held" }).then(
      (r) => (outcome = `rows ${JSON.stringify(r.rows)}`),
      (e: unknown) => (outcome = `failed: ${String(e)}`),
    );
    // The statement waits; from now on every new connection is refused, the probe's too.
    await new Promise((r) => setTimeout(r, 300));
    proxy.fill();
    const refused = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${proxy.port}/x` });
    await expect(refused.connect()).rejects.toMatchObject({ code: "53300" });

    // Two probes' time: the silence noticed, the probe refused, the silence noticed again.
    await new Promise((r) => setTimeout(r, 2 * SILENCE_MS + PROBE_TIMEOUT_MS / 2));
    expect(outcome).toBeUndefined();

    await holder.query("rollback");
    await statement;
    expect(outcome).toBe("rows [[2]]");
  }, 30_000);
});
