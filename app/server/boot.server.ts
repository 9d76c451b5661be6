import path from "node:path";
import { createBackground } from "~/server/background.server";
import { getContext } from "~/server/context.server";
import { closeDb, poolStateOf } from "~/server/db/db.server";
import { migrateToLatest } from "~/server/db/migrate.server";
import { getEnv, type Env } from "~/server/env.server";
import { startEmbeddedIdp, type EmbeddedIdpOptions } from "~/server/idp/index.server";
import { log, setInstanceId, setLogLevel } from "~/server/log.server";
import { startProcessMetrics, watchPool } from "~/server/metrics.server";
import { readOrCreateSecret } from "~/server/secrets.server";
import { purgeExpiredSessions } from "~/server/auth/session.server";
import { purgeIdempotentRequests } from "~/server/api/idempotency.server";
import { everyOnce, runExclusively, takeLease } from "~/server/db/leases.server";
import { seedDemoDataIfEmpty } from "~/server/services/demo-data.server";
import { closeStaleCases } from "~/server/services/fill/cases.server";
import { warmStatistics } from "~/server/services/statistics/statistics.server";
import { readyExports } from "~/server/services/statistics/export-ready.server";
import { sweepOrphans } from "~/server/storage/sweep.server";
import { purgeSyncRequests } from "~/server/services/sync/sync-requests.server";
import { purgeSigningIntents } from "~/server/services/fill/signatures.server";
import { purgeErasedBlobs } from "~/server/services/erasure/erase.server";
import { erasureKey } from "~/server/services/erasure/keys.server";
import { eraseExpiredCases } from "~/server/services/erasure/retention.server";

/**
 * Starts what the server needs before it takes requests: configuration (a bad value stops here
 * with a message naming the variable), the database and its migrations, and the embedded OpenID
 * provider when no other is configured.
 */
export interface BootOptions {
  /**
   * Starts the embedded provider; by default in this thread. The production server runs it in a worker
   * thread of its own, so that its work (and the async context tracking it enables) stays off the thread
   * that answers the app's requests.
   */
  startIdp?: (options: EmbeddedIdpOptions) => Promise<{ close(): Promise<void> }>;
}

export async function boot(
  opts: BootOptions = {},
): Promise<{ env: Env; stopBackground(): Promise<void>; close(): Promise<void> }> {
  const env = getEnv();
  setLogLevel(env.LOG_LEVEL);
  if (env.INSTANCE_ID) setInstanceId(env.INSTANCE_ID);
  const { db, attachments } = getContext();
  startProcessMetrics();
  watchPool(() => poolStateOf(db));
  await migrateToLatest(db);
  log.info("db.ready", { database: env.DATABASE_URL ? "postgresql" : "sqlite" });
  // Copies started together over one empty database: the first seeds, the others find its surveys.
  if (env.DEMO_DATA && (await runExclusively(db, "demo-data", () => seedDemoDataIfEmpty(db)))) {
    log.info("db.demo_data");
  }
  if (
    env.DATABASE_URL &&
    (!env.SESSION_SECRET || !env.ATTACHMENT_LINK_SECRET || !env.ERASURE_KEY || !env.OFFLINE_KEY_SECRET)
  ) {
    log.info("secrets.generated", {
      note: "SESSION_SECRET, ATTACHMENT_LINK_SECRET, ERASURE_KEY or OFFLINE_KEY_SECRET is unset: generated into DATA_DIR. Copies of the server must share them.",
    });
  }

  // A store that cannot be used now is reported, not fatal: readiness stays false until it can.
  await attachments.check().then(
    () => log.info("attachments.ready", { store: attachments.kind }),
    (e: unknown) => log.error("attachments.unavailable", { store: attachments.kind, error: String(e) }),
  );

  let idp: { close(): Promise<void> } | undefined;
  if (env.embeddedIdp) {
    idp = await (opts.startIdp ?? startEmbeddedIdp)(providerOptions(env, env.IDP_PORT, "IDP_PORT"));
    log.info("idp.embedded", { issuer: env.issuer });
  }

  // Background work: the periodic rounds, the statistics' warm-up and the export lines written ahead. Each
  // gets the same signal, aborted when the server stops; the stop waits for them only so long.
  const background = createBackground();
  const { signal } = background;

  // Periodic work runs in one copy per round (a lease each), whichever takes it.
  everyOnce(
    db,
    "sweep:stale-cases",
    15 * 60_000,
    () => closeStaleCases(db),
    (e) => log.error("cases.sweep", { error: String(e) }),
    background,
  );
  everyOnce(
    db,
    "purge:expired",
    3600_000,
    async () => {
      await purgeExpiredSessions(db);
      await purgeSyncRequests(db);
      await purgeSigningIntents(db);
      await purgeIdempotentRequests(db);
      const blobs = await purgeErasedBlobs(db, attachments);
      if (blobs > 0) log.info("erasure.blobs_removed", { store: attachments.kind, removed: blobs });
    },
    (e) => log.error("purge", { error: String(e) }),
    background,
  );

  // Cases past their survey's retention period, erased once a day in one copy (decision 042): after the start
  // (unless a copy did so less than a day ago), then each day.
  const eraseRetained = async () => {
    const erased = await eraseExpiredCases(db, attachments, erasureKey(env), new Date(), signal);
    log.info("cases.retention_erased", { erased });
  };
  const retentionFailed = (e: unknown) => log.error("cases.retention", { error: String(e) });
  everyOnce(db, RETENTION_LEASE, RETENTION_EVERY_MS, eraseRetained, retentionFailed, background);
  background.start(() =>
    takeLease(db, RETENTION_LEASE, RETENTION_EVERY_MS * 0.9)
      .then((taken) => (taken ? eraseRetained() : undefined))
      .catch(retentionFailed),
  );

  everyOnce(
    db,
    "sweep:attachment-orphans",
    3600_000,
    async () => {
      const removed = await sweepOrphans(db, attachments, { signal });
      if (removed > 0) log.info("attachments.orphans_removed", { store: attachments.kind, removed });
    },
    (e) => log.error("attachments.sweep", { error: String(e) }),
    background,
  );

  // The export lines of every survey with closed cases, written ahead in one copy at a time (decision 032):
  // after the start, then each round.
  const readyExportLines = async () => {
    const written = await readyExports(db, env.CLINIC_TIME_ZONE, signal);
    if (Object.keys(written).length > 0) log.info("export.readied", { lines: written });
  };
  const readiedExports = (e: unknown) => log.info("export.readying_stopped", { error: String(e) });
  everyOnce(db, READY_EXPORTS_LEASE, READY_EXPORTS_EVERY_MS, readyExportLines, readiedExports, background);

  // The statistics of the busiest surveys readied in the background (reader threads, caches, words).
  background.start(() =>
    warmStatistics(db, signal)
      .then(
        (surveys) => log.info("statistics.warm", { surveys }),
        (e: unknown) => log.info("statistics.warm_stopped", { error: String(e) }),
      )
      .then(async () => {
        if (signal.aborted) return;
        if (await takeLease(db, READY_EXPORTS_LEASE, READY_EXPORTS_EVERY_MS * 0.9)) await readyExportLines();
      })
      .catch(readiedExports),
  );

  // What still runs once the stop has waited is cut by the process's exit: each piece keeps its data whole on
  // its own (transactions; a lease that expires), as for a copy that is killed.
  let stopped: Promise<void> | undefined;
  const stopBackground = () =>
    (stopped ??= background.stop(BACKGROUND_STOP_MS).then((left) => {
      if (left > 0) log.info("background.cut", { running: left, waitedMs: BACKGROUND_STOP_MS });
    }));

  return {
    env,
    /** Tells the background work to stop (at SIGTERM, beside the requests' draining); waits for it only so long. */
    stopBackground,
    async close() {
      await stopBackground();
      await idp?.close();
      await attachments.close();
      // A statement still running holds its connection, and the pool would wait for it.
      if (!(await settlesWithin(closeDb(), DB_CLOSE_MS))) log.info("db.close_cut", { waitedMs: DB_CLOSE_MS });
    },
  };
}

/** How long a stop waits for the background work to end once told to stop, and for the database to close. */
const BACKGROUND_STOP_MS = 3_000;
const DB_CLOSE_MS = 2_000;

/** Whether the promise settles within ms (its outcome is left to it). */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const settled = await Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]);
  clearTimeout(timer);
  return settled;
}

/** The daily retention round and its lease. */
const RETENTION_EVERY_MS = 24 * 3600_000;
const RETENTION_LEASE = "erase:retention";

/** How often the export lines of changed cases are written ahead, and the lease of the copy that does it. */
const READY_EXPORTS_EVERY_MS = 10 * 60_000;
const READY_EXPORTS_LEASE = "ready:export-lines";

/** The embedded provider's settings, from the same configuration the app reads. */
function providerOptions(env: Env, port: number, portSetting: string): EmbeddedIdpOptions {
  return {
    issuer: env.issuer,
    port,
    portSetting,
    host: env.HOST,
    dataDir: path.join(env.DATA_DIR, "idp"),
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET ?? readOrCreateSecret(env.DATA_DIR, "idp-client-secret"),
    redirectUris: [`${env.publicUrl}/authentication/login-callback`],
    postLogoutRedirectUris: [`${env.publicUrl}/surveys`],
    apiAudience: env.OIDC_AUDIENCE,
    apiScope: env.OIDC_API_SCOPE,
    accessTokenTtlSeconds: env.IDP_ACCESS_TOKEN_TTL_SECONDS,
  };
}

/**
 * The embedded provider on its own, in a process of its own (server/idp.js): with the app's configuration,
 * OIDC_ISSUER naming the address it serves (its port is the one it listens on) and OIDC_CLIENT_SECRET the
 * secret the app's copies present. For several copies of the app where no other provider is at hand, and
 * for the deployment tests.
 */
export async function startStandaloneIdp(): Promise<{ issuer: string; close(): Promise<void> }> {
  const env = getEnv();
  setLogLevel(env.LOG_LEVEL);
  if (env.embeddedIdp || !env.OIDC_CLIENT_SECRET) {
    throw new Error("Set OIDC_ISSUER (the address this provider serves) and OIDC_CLIENT_SECRET");
  }
  const url = new URL(env.issuer);
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const idp = await startEmbeddedIdp(providerOptions(env, port, "OIDC_ISSUER"));
  log.info("idp.standalone", { issuer: env.issuer, port });
  return idp;
}

/**
 * The REST API without the page framework in between: the server hands /api requests straight to it,
 * with the body when it has read it already (small JSON bodies, see server/index.js).
 */
export function apiFetch(request: Request, body?: Uint8Array): Response | Promise<Response> {
  return getContext().api.fetch(request, { body });
}
