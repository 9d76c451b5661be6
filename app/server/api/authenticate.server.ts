import type { Context } from "hono";
import { AppError } from "~/domain/errors";
import { accessRolesOf, hasToolAccess } from "~/domain/user";
import { syncUser } from "~/server/services/users.server";
import { isCrossSiteWrite } from "~/server/auth/same-origin.server";
import type { ApiDeps, Caller } from "./types.server";

/**
 * A person's credentials are checked, and their record read, at most once per few seconds: a page or
 * a sync sends bursts of calls with the same credentials. Signing out, or a change of language, forgets
 * the entry at once in this process; other copies of the server see it within CACHE_MS.
 */
const CACHE_MS = 5_000;
const CACHE_MAX = 2_000;
const recent = new Map<string, { caller: Caller; until: number }>();

export function forgetCredentials(match: (caller: Caller) => boolean) {
  for (const [key, entry] of recent) if (match(entry.caller)) recent.delete(key);
}

export function createAuthenticator(deps: ApiDeps) {
  return async function authenticate(c: Context): Promise<Caller> {
    const header = c.req.header("authorization");
    const key = header ? `b:${header}` : `c:${c.req.header("cookie") ?? ""}`;
    const hit = recent.get(key);
    if (hit && hit.until > Date.now()) {
      if (!header && isCrossSiteWrite(c.req.raw, deps.env.publicUrl)) {
        throw new AppError("FORBIDDEN", "Cross-site request refused");
      }
      return hit.caller;
    }
    const caller = await resolve(c, header);
    if (recent.size >= CACHE_MAX) recent.delete(recent.keys().next().value!);
    recent.set(key, { caller, until: Date.now() + CACHE_MS });
    return caller;
  };

  async function resolve(c: Context, header: string | undefined): Promise<Caller> {
    let identity;
    if (header) {
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      if (!match) throw new AppError("UNAUTHORIZED", "Expected a bearer token");
      try {
        identity = await deps.verifyToken(match[1]);
      } catch {
        throw new AppError("UNAUTHORIZED", "The access token is not valid");
      }
    } else {
      const storage = deps.sessions.forRequest(c.req.raw);
      const session = await storage.getSession(c.req.header("cookie"));
      const data = session.get("identity");
      const expiresAt = session.get("accessTokenExpiresAt");
      if (!data || !expiresAt) throw new AppError("UNAUTHORIZED", "Sign in first");
      if (isCrossSiteWrite(c.req.raw, deps.env.publicUrl)) {
        throw new AppError("FORBIDDEN", "Cross-site request refused");
      }
      identity = data;
    }
    if (!hasToolAccess(identity.roles, deps.env.OIDC_ACCESS_ROLE)) {
      throw new AppError("FORBIDDEN", "The survey tool's permission is missing");
    }
    if (!identity.hasAcceptedTos) throw new AppError("TOS_NOT_ACCEPTED", "The terms of service are not accepted");
    const record = await syncUser(deps.db, identity);
    return {
      identity,
      userId: record.id,
      roles: accessRolesOf(identity.roles),
      teamIds: record.teamIds,
      teams: record.teams,
      culture: record.culture,
    };
  }
}
