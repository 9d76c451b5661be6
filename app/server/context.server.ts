import { createApi, type Api } from "~/server/api/app.server";
import { createTokenVerifier, type TokenVerifier } from "~/server/auth/discovery.server";
import { refreshTokens } from "~/server/auth/oidc.server";
import { createSessionStores, type SessionStores } from "~/server/auth/session.server";
import { getDb } from "~/server/db/db.server";
import type { DB } from "~/server/db/types.server";
import { getEnv, type Env } from "~/server/env.server";
import type { AttachmentStore } from "~/server/storage/attachments.server";
import { attachmentStoreFor } from "~/server/storage/stores.server";

/** The process-wide parts of the server, made once on first use. */
export interface AppContext {
  env: Env;
  db: DB;
  sessions: SessionStores;
  verifyToken: TokenVerifier;
  api: Api;
  attachments: AttachmentStore;
}

let context: AppContext | undefined;

export function createContext(env: Env, db: DB): AppContext {
  const sessions = createSessionStores({
    db,
    dataDir: env.DATA_DIR,
    secret: env.SESSION_SECRET,
    ttlHours: env.SESSION_TTL_HOURS,
  });
  const verifyToken = createTokenVerifier({
    issuer: env.issuer,
    audience: env.OIDC_AUDIENCE,
    scope: env.OIDC_API_SCOPE,
  });
  const attachments = attachmentStoreFor(env, db);
  const api = createApi({ db, env, sessions, verifyToken, refresh: refreshTokens, attachments });
  return { env, db, sessions, verifyToken, api, attachments };
}

export function getContext(): AppContext {
  context ??= createContext(getEnv(), getDb());
  return context;
}

export function setContext(next: AppContext | undefined) {
  context = next;
}
