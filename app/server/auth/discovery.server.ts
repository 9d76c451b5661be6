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

const discoveries = new Map<string, Promise<Discovery>>();

/** The provider's metadata, fetched once per issuer (and again after a failure). */
export function discover(issuer: string): Promise<Discovery> {
  let pending = discoveries.get(issuer);
  if (!pending) {
    pending = (async () => {
      const res = await fetch(`${issuer}/.well-known/openid-configuration`, {
        signal: AbortSignal.timeout(5000),
      });
      if (!res.ok) throw new Error(`Discovery at ${issuer} answered ${res.status}`);
      return (await res.json()) as Discovery;
    })();
    pending.catch(() => discoveries.delete(issuer));
    discoveries.set(issuer, pending);
  }
  return pending;
}

const keySets = new Map<string, JWTVerifyGetKey>();

async function keysOf(issuer: string): Promise<JWTVerifyGetKey> {
  let keys = keySets.get(issuer);
  if (!keys) {
    const { jwks_uri } = await discover(issuer);
    keys = createRemoteJWKSet(new URL(jwks_uri), { cooldownDuration: 30_000, timeoutDuration: 5000 });
    keySets.set(issuer, keys);
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
