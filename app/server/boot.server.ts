import path from "node:path";
import { getContext } from "~/server/context.server";
import { closeDb } from "~/server/db/db.server";
import { migrateToLatest } from "~/server/db/migrate.server";
import { getEnv, type Env } from "~/server/env.server";
import { startEmbeddedIdp, type EmbeddedIdpOptions } from "~/server/idp/index.server";
import { log, setInstanceId, setLogLevel } from "~/server/log.server";
import { embeddedClientSecret } from "~/server/auth/oidc.server";
import { purgeExpiredSessions } from "~/server/auth/session.server";
import { seedDemoDataIfEmpty } from "~/server/services/demo-data.server";
import { startStaleCaseSweep } from "~/server/services/fill/cases.server";
import { purgeSyncRequests } from "~/server/services/sync/sync-requests.server";

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

export async function boot(opts: BootOptions = {}): Promise<{ env: Env; close(): Promise<void> }> {
  const env = getEnv();
  setLogLevel(env.LOG_LEVEL);
  if (env.INSTANCE_ID) setInstanceId(env.INSTANCE_ID);
  const { db } = getContext();
  await migrateToLatest(db);
  log.info("db.ready", { database: env.DATABASE_URL ? "postgresql" : "sqlite" });
  if (env.DEMO_DATA && (await seedDemoDataIfEmpty(db))) log.info("db.demo_data");

  let idp: { close(): Promise<void> } | undefined;
  if (env.embeddedIdp) {
    idp = await (opts.startIdp ?? startEmbeddedIdp)({
      issuer: env.issuer,
      port: env.IDP_PORT,
      host: env.HOST,
      dataDir: path.join(env.DATA_DIR, "idp"),
      clientId: env.OIDC_CLIENT_ID,
      clientSecret: env.OIDC_CLIENT_SECRET ?? embeddedClientSecret(),
      redirectUris: [`${env.publicUrl}/authentication/login-callback`],
      postLogoutRedirectUris: [`${env.publicUrl}/surveys`],
      apiAudience: env.OIDC_AUDIENCE,
      apiScope: env.OIDC_API_SCOPE,
      accessTokenTtlSeconds: env.IDP_ACCESS_TOKEN_TTL_SECONDS,
    });
    log.info("idp.embedded", { issuer: env.issuer });
  }

  const sweep = startStaleCaseSweep(db, 15 * 60_000, (e) => log.error("cases.sweep", { error: String(e) }));
  const purge = setInterval(() => {
    void purgeExpiredSessions(db).catch(() => undefined);
    void purgeSyncRequests(db).catch((e: unknown) => log.error("sync.purge", { error: String(e) }));
  }, 3600_000);
  purge.unref();

  return {
    env,
    async close() {
      clearInterval(purge);
      sweep();
      await idp?.close();
      await closeDb();
    },
  };
}

/**
 * The REST API without the page framework in between: the server hands /api requests straight to it,
 * with the body when it has read it already (small JSON bodies, see server/index.js).
 */
export function apiFetch(request: Request, body?: Uint8Array): Response | Promise<Response> {
  return getContext().api.fetch(request, { body });
}
