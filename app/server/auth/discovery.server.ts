import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from "jose";
import type { Identity } from "~/domain/user";
import { grantsScope, identityFromClaims } from "./claims.server";

export interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  end_session_endpoint?: string;
  revocation_endpoint?: string;
  userinfo_endpoint?: string;
}

/**
 * The provider's metadata is kept as long as its answer's Cache-Control max-age says (at least a minute, at
 * most a day; a minute for no-store or no-cache), five minutes when it says nothing: every sign-in start had
 * fetched it anew, and a flood of them queued behind the provider.
 */
export const DISCOVERY_DEFAULT_KEEP_MS = 5 * 60_000;
const DISCOVERY_MIN_KEEP_MS = 60_000;
const DISCOVERY_MAX_KEEP_MS = 24 * 3600_000;
/**
 * How long an answer of the provider stands for its being reachable, for the sign-ins that start meanwhile
 * (and how long a failed fetch is not tried again in the background).
 */
export const PROVIDER_ANSWER_STANDS_MS = 5_000;

/** How long a discovery answer with this Cache-Control header is kept. */
export function discoveryKeepMs(cacheControl: string | null): number {
  const header = cacheControl ?? "";
  if (/(^|,)\s*(no-store|no-cache)\b/i.test(header)) return DISCOVERY_MIN_KEEP_MS;
  const maxAge = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(header)?.[1];
  if (maxAge === undefined) return DISCOVERY_DEFAULT_KEEP_MS;
  return Math.min(DISCOVERY_MAX_KEEP_MS, Math.max(DISCOVERY_MIN_KEEP_MS, Number(maxAge) * 1000));
}

interface Kept {
  document?: Discovery;
  freshUntil: number;
  /** When the provider last answered its discovery; 0 after a failure. */
  answeredAt: number;
  failedAt: number;
  fetching?: Promise<Discovery>;
}

const kept = new Map<string, Kept>();

function keptOf(issuer: string): Kept {
  let entry = kept.get(issuer);
  if (!entry) kept.set(issuer, (entry = { freshUntil: 0, answeredAt: 0, failedAt: 0 }));
  return entry;
}

/** Fetches the metadata, one fetch per issuer at a time; keeps it, or notes the failure. */
function fetchDiscovery(issuer: string, timeoutMs: number): Promise<Discovery> {
  const entry = keptOf(issuer);
  entry.fetching ??= (async () => {
    try {
      const res = await fetch(`${issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(timeoutMs) });
      if (!res.ok) {
        await res.arrayBuffer().catch(() => undefined);
        throw new Error(`Discovery at ${issuer} answered ${res.status}`);
      }
      const document = (await res.json()) as Discovery;
      entry.document = document;
      entry.answeredAt = Date.now();
      entry.freshUntil = entry.answeredAt + discoveryKeepMs(res.headers.get("cache-control"));
      return document;
    } catch (error) {
      entry.answeredAt = 0;
      entry.failedAt = Date.now();
      throw error;
    } finally {
      entry.fetching = undefined;
    }
  })();
  return entry.fetching;
}

/**
 * The provider's metadata: fetched at the first need, then kept (discoveryKeepMs). Once it is stale it is
 * fetched again in the background while the kept one still serves: people signed in keep working while the
 * provider is down (decision 017), and a failed fetch is tried again at the next need after a few seconds.
 */
export function discover(issuer: string): Promise<Discovery> {
  const entry = keptOf(issuer);
  const now = Date.now();
  if (!entry.document) return fetchDiscovery(issuer, 5000);
  if (now >= entry.freshUntil && !entry.fetching && now - entry.failedAt >= PROVIDER_ANSWER_STANDS_MS) {
    void fetchDiscovery(issuer, 5000).catch(() => undefined);
  }
  return Promise.resolve(entry.document);
}

/**
 * Whether the provider can be sent a person now: it answered its discovery within the last
 * PROVIDER_ANSWER_STANDS_MS, or does so now (within timeoutMs). Throws when it does not. A sign-in that
 * starts later than that after the provider went down shows the app's error page instead of the browser's.
 */
export async function assertAnswering(issuer: string, timeoutMs: number): Promise<void> {
  if (Date.now() - keptOf(issuer).answeredAt < PROVIDER_ANSWER_STANDS_MS) return;
  await fetchDiscovery(issuer, timeoutMs);
}

const keySets = new Map<string, JWTVerifyGetKey>();

async function keysOf(issuer: string): Promise<JWTVerifyGetKey> {
  const { jwks_uri } = await discover(issuer);
  let keys = keySets.get(jwks_uri);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(jwks_uri), { cooldownDuration: 30_000, timeoutDuration: 5000 });
    keySets.set(jwks_uri, keys);
  }
  return keys;
}

export type TokenVerifier = (token: string) => Promise<Identity>;

/**
 * Verifies a JWT (signature against the provider's keys, issuer, audience, expiry, and the API's scope where
 * the token names its scopes) and reads the person from its claims. Any failure is thrown; callers answer 401.
 */
export function createTokenVerifier(opts: { issuer: string; audience: string; scope: string }): TokenVerifier {
  return async (token) => {
    const { issuer } = await discover(opts.issuer);
    const { payload } = await jwtVerify(token, await keysOf(opts.issuer), {
      issuer,
      audience: opts.audience,
      clockTolerance: 5,
    });
    if (!grantsScope(payload, opts.scope)) throw new Error(`The access token does not grant the scope ${opts.scope}`);
    return identityFromClaims(payload);
  };
}

/** What a signing reads from a verified ID token (docs/decisions/029-signed-close.md). */
export interface IdTokenFacts {
  sub: string;
  /** Seconds since the epoch; undefined when the token carries none. */
  authTime: number | undefined;
}

/**
 * Verifies an ID token (signature against the provider's keys, issuer, audience the client, expiry) and that
 * it carries the nonce the sign-in sent. Any failure is thrown.
 */
export async function verifyIdToken(
  token: string,
  opts: { issuer: string; clientId: string; nonce: string },
): Promise<IdTokenFacts> {
  const { issuer } = await discover(opts.issuer);
  const { payload } = await jwtVerify(token, await keysOf(opts.issuer), {
    issuer,
    audience: opts.clientId,
    clockTolerance: 5,
  });
  if (payload.nonce !== opts.nonce) throw new Error("The ID token's nonce is not the signing's");
  if (typeof payload.sub !== "string" || !payload.sub) throw new Error("The ID token names no subject");
  return { sub: payload.sub, authTime: typeof payload.auth_time === "number" ? payload.auth_time : undefined };
}
