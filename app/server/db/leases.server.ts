import crypto from "node:crypto";
import type { Background } from "~/server/background.server";
import { instanceId } from "~/server/log.server";
import type { DB } from "./types.server";

/**
 * Named locks with an expiry, in the database every copy of the server shares (docs/decisions/018): work
 * that must happen once across copies takes the lease first. A copy that dies holding one loses it when it
 * expires, so nothing stays locked for good.
 */

/** This process as a lease holder: its instance id and a random part (two processes may share an id). */
let holderId: string | undefined;
const holder = () => (holderId ??= `${instanceId()}:${crypto.randomBytes(4).toString("hex")}`);

/** Takes the lease for ttlMs if it is free or has expired (or is already this process's); true when taken. */
export async function takeLease(db: DB, name: string, ttlMs: number, now = new Date()): Promise<boolean> {
  const until = new Date(now.getTime() + ttlMs).toISOString();
  const me = holder();
  const result = await db
    .insertInto("leases")
    .values({ name, holder: me, until })
    .onConflict((oc) =>
      oc
        .column("name")
        .doUpdateSet({ holder: me, until })
        .where((eb) => eb.or([eb("leases.until", "<", now.toISOString()), eb("leases.holder", "=", me)])),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Gives the lease back, if this process holds it. */
export async function releaseLease(db: DB, name: string): Promise<void> {
  await db.deleteFrom("leases").where("name", "=", name).where("holder", "=", holder()).execute();
}

/**
 * Runs fn once across copies: waits (polling) while another copy holds the lease, then runs fn holding it.
 * fn itself decides whether there is anything left to do (a second copy finds the first one's work done).
 */
export async function runExclusively<T>(
  db: DB,
  name: string,
  fn: () => Promise<T>,
  opts: { ttlMs?: number; pollMs?: number } = {},
): Promise<T> {
  const ttlMs = opts.ttlMs ?? 10 * 60_000;
  while (!(await takeLease(db, name, ttlMs))) {
    await new Promise((resolve) => setTimeout(resolve, opts.pollMs ?? 250));
  }
  try {
    return await fn();
  } finally {
    await releaseLease(db, name);
  }
}

/**
 * Runs fn every everyMs in the one copy that takes the lease for that round; the others skip the round.
 * The lease is kept for most of the period, so each round runs once across copies. Returns a stop function.
 * With `background`, each round runs as its work (told to stop, and waited for, when the server stops), and
 * no round starts once it stops.
 */
export function everyOnce(
  db: DB,
  name: string,
  everyMs: number,
  fn: (signal?: AbortSignal) => Promise<unknown>,
  onError: (error: unknown) => void,
  background?: Background,
): () => void {
  const tick = async (signal?: AbortSignal) => {
    if (await takeLease(db, name, Math.max(1000, everyMs * 0.9))) await fn(signal);
  };
  const round = () =>
    background ? background.start((signal) => tick(signal).catch(onError)) : void tick().catch(onError);
  const timer = setInterval(round, everyMs);
  timer.unref?.();
  const stop = () => clearInterval(timer);
  background?.signal.addEventListener("abort", stop, { once: true });
  return stop;
}
