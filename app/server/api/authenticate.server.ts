import type { Context } from "hono";
import { AppError } from "~/domain/errors";
import { accessRolesOf, hasToolAccess } from "~/domain/user";
import { syncUser } from "~/server/services/users.server";
import { freshSession, ProviderUnavailable } from "~/server/auth/renewal.server";
import { isCrossSiteWrite } from "~/server/auth/same-origin.server";
import type { ApiDeps, Caller } from "./types.server";
import type { HandoverScope } from "~/domain/handover";
import { requestHandover } from "~/server/log.server";

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
  /**
   * The caller of a request. A person who has not accepted the terms of service is refused with
   * TOS_NOT_ACCEPTED unless the route answers them too (`beforeTerms`: their own record).
   */
  return async function authenticate(c: Context, options = { beforeTerms: false }): Promise<Caller> {
    const caller = await callerOf(c);
    if (!caller.identity.hasAcceptedTos && !options.beforeTerms) {
      throw new AppError("TOS_NOT_ACCEPTED", "The terms of service are not accepted");
    }
    return caller;
  };

  async function callerOf(c: Context): Promise<Caller> {
    const header = c.req.header("authorization");
    const key = header ? `b:${header}` : `c:${c.req.header("cookie") ?? ""}`;
    const hit = recent.get(key);
    if (hit && hit.until > Date.now()) {
      if (!header && isCrossSiteWrite(c.req.raw, deps.env.publicUrl)) {
        throw new AppError("FORBIDDEN", "Cross-site request refused");
      }
      return header ? withPageHandover(hit.caller) : hit.caller;
    }
    const { caller, until } = await resolve(c, header);
    if (recent.size >= CACHE_MAX) recent.delete(recent.keys().next().value!);
    recent.set(key, { caller, until });
    return header ? withPageHandover(caller) : caller;
  }

  /**
   * A page's own calls carry its session's access token: the page's guard noted the session's hand-over on
   * the request (decision 058), and the calls it makes in-process are bound by it too.
   */
  function withPageHandover(caller: Caller): Caller {
    const noted = requestHandover<HandoverScope>();
    return noted && noted.staffSub === caller.identity.sub ? { ...caller, handover: noted } : caller;
  }

  /** The caller, and until when that answer may be reused (never past a cookie session's renewal). */
  async function resolve(c: Context, header: string | undefined): Promise<{ caller: Caller; until: number }> {
    let identity;
    let handover: HandoverScope | undefined;
    let until = Date.now() + CACHE_MS;
    if (header) {
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      if (!match) throw new AppError("UNAUTHORIZED", "Expected a bearer token");
      try {
        identity = await deps.verifyToken(match[1]);
      } catch {
        throw new AppError("UNAUTHORIZED", "The access token is not valid");
      }
    } else {
      const session = await deps.sessions.forRequest(c.req.raw).getSession(c.req.header("cookie"));
      if (!session.get("identity")) throw new AppError("UNAUTHORIZED", "Sign in first");
      if (isCrossSiteWrite(c.req.raw, deps.env.publicUrl)) {
        throw new AppError("FORBIDDEN", "Cross-site request refused");
      }
      // The same renewal as the pages': a session whose renewal the provider refused has ended here too.
      let data;
      try {
        data = await freshSession(deps.sessions, session.id, session.data, deps.refresh);
      } catch (error) {
        if (error instanceof ProviderUnavailable) {
          throw new AppError("SERVICE_UNAVAILABLE", "The sign-in service cannot renew the session right now");
        }
        throw error;
      }
      if (!data) throw new AppError("UNAUTHORIZED", "The session has ended; sign in again");
      identity = data.identity;
      handover = data.handover;
      until = Math.min(until, data.renewAfter ?? data.accessTokenExpiresAt);
    }
    if (!hasToolAccess(identity.roles, deps.env.OIDC_ACCESS_ROLE)) {
      throw new AppError("FORBIDDEN", "The survey tool's permission is missing");
    }
    const record = await syncUser(deps.db, identity);
    const caller = {
      identity,
      surveyUserDataId: record.id,
      roles: accessRolesOf(identity.roles),
      teamIds: record.teamIds,
      teams: record.teams,
      culture: record.culture,
    };
    return { caller: handover ? { ...caller, handover } : caller, until };
  }
}
