import { OAuth2RequestError } from "remix-auth-oauth2";
import { log } from "~/server/log.server";
import { sessionRenewals } from "~/server/metrics.server";
import type { AuthSessionData, SessionStores } from "./session.server";
import type { SignInResult } from "./oidc.server";

/**
 * Keeps a session's access token fresh, the same way for every path that acts on the session cookie: the
 * pages (requireUser), the API called with the cookie (the browser's answer saves, the editor) and the
 * page's renewal timer. Decision 017.
 *
 * - A token is renewed when a fifth of its life is left (at most 30 s before its end).
 * - One renewal per session at a time: within this process by sharing the pending one, across copies of
 *   the server by a lease on the session's row. A copy that finds the lease taken waits for the result
 *   instead of spending the same refresh token again (providers that rotate refresh tokens treat a second
 *   use as theft and revoke the whole grant).
 * - The provider refusing the refresh token ends the session: its row is removed, so every path and every
 *   copy sees it as ended at once (the pages go to /401, the API answers 401).
 * - The provider not answering ends nothing: the current token is used while it lasts, then the request is
 *   answered "unavailable" (ProviderUnavailable) until the provider is back.
 */

const RENEW_AHEAD_MAX_MS = 30_000;
/** How long one copy may take to renew before another may try. */
const LEASE_MS = 15_000;
/** How long a request waits for another copy's renewal. */
const WAIT_MS = 10_000;
const POLL_MS = 100;

export type Refresh = (refreshToken: string) => Promise<Omit<SignInResult, "idToken">>;

/** The provider could not be reached to renew a token that has run out; the session itself stands. */
export class ProviderUnavailable extends Error {
  override name = "ProviderUnavailable";
}

/** When a token that runs out at `expiresAt`, obtained at `obtainedAt`, should be renewed. */
export function renewAt(expiresAt: number, obtainedAt: number = Date.now()): number {
  const life = Math.max(0, expiresAt - obtainedAt);
  return expiresAt - Math.min(RENEW_AHEAD_MAX_MS, life / 5);
}

function isComplete(data: Partial<AuthSessionData>): data is AuthSessionData {
  return Boolean(data.identity && data.surveyUserDataId && data.accessToken);
}

function needsRenewal(data: AuthSessionData, now = Date.now()): boolean {
  const due = data.renewAfter ?? data.accessTokenExpiresAt - RENEW_AHEAD_MAX_MS;
  return due <= now;
}

const pending = new Map<string, Promise<AuthSessionData | null>>();

/**
 * The session's data with a token that is not about to run out, renewing it when due; null when the
 * session has ended (also when the provider refused the renewal, which ends it). Throws ProviderUnavailable
 * when the token has run out and the provider cannot be reached.
 */
export async function freshSession(
  sessions: SessionStores,
  sessionId: string,
  data: Partial<AuthSessionData>,
  refresh: Refresh,
): Promise<AuthSessionData | null> {
  if (!isComplete(data)) return null;
  if (!needsRenewal(data)) return data;
  let renewal = pending.get(sessionId);
  if (!renewal) {
    renewal = renewOnce(sessions, sessionId, refresh).finally(() => pending.delete(sessionId));
    pending.set(sessionId, renewal);
  }
  return renewal;
}

async function renewOnce(sessions: SessionStores, id: string, refresh: Refresh): Promise<AuthSessionData | null> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const stored = await sessions.read(id);
    if (!stored || !isComplete(stored.data)) return null;
    // Another copy renewed it meanwhile.
    if (!needsRenewal(stored.data)) return stored.data;
    if (await sessions.claimRenewal(id, LEASE_MS)) return renewHolding(sessions, id, refresh);
    if (Date.now() > deadline) {
      if (stored.data.accessTokenExpiresAt > Date.now()) return stored.data;
      throw new ProviderUnavailable("Another copy's renewal of this session did not finish");
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Renews while holding the lease; the row is read again, since another copy may have renewed just before. */
async function renewHolding(sessions: SessionStores, id: string, refresh: Refresh): Promise<AuthSessionData | null> {
  const stored = await sessions.read(id);
  if (!stored || !isComplete(stored.data)) return null;
  const data = stored.data;
  if (!needsRenewal(data)) {
    await sessions.releaseRenewal(id);
    return data;
  }
  if (!data.refreshToken) {
    log.info("auth.session_ended", { surveyUserDataId: data.surveyUserDataId, reason: "no refresh token" });
    await sessions.end(id);
    return null;
  }
  try {
    const fresh = await refresh(data.refreshToken);
    const next: AuthSessionData = { ...data, ...fresh, renewAfter: renewAt(fresh.accessTokenExpiresAt) };
    await sessions.saveRenewal(id, next);
    sessionRenewals.inc({ result: "renewed" });
    log.debug("auth.renewed", { surveyUserDataId: data.surveyUserDataId });
    return next;
  } catch (error) {
    if (error instanceof OAuth2RequestError) {
      // invalid_grant (the provider's session ended, the token was revoked), invalid_scope, and the like.
      sessionRenewals.inc({ result: "ended" });
      log.info("auth.session_ended", {
        surveyUserDataId: data.surveyUserDataId,
        reason: error.code,
        error: String(error),
      });
      await sessions.end(id);
      return null;
    }
    sessionRenewals.inc({ result: "unreachable" });
    log.error("auth.renew_unreachable", { surveyUserDataId: data.surveyUserDataId, error: String(error) });
    await sessions.releaseRenewal(id).catch(() => undefined);
    if (data.accessTokenExpiresAt > Date.now()) return data;
    throw new ProviderUnavailable(`The identity provider could not renew the session: ${String(error)}`);
  }
}
