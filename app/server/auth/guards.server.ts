import { redirect } from "@remix-run/node";
import { hasToolAccess, type Identity } from "~/domain/user";
import { getContext } from "~/server/context.server";
import { log } from "~/server/log.server";
import { safeReturnTo } from "./return-to.server";
import { isCrossSiteWrite } from "./same-origin.server";
import type { AuthSessionData } from "./session.server";
import { refreshTokens } from "./oidc.server";

/** Renew the access token this long before it runs out. */
const RENEW_AHEAD_MS = 30_000;

export interface SignedIn {
  identity: Identity;
  userId: number;
  accessToken: string;
  accessTokenExpiresAt: number;
}

function loginRedirect(request: Request) {
  const url = new URL(request.url);
  const returnTo = safeReturnTo(url.pathname + url.search);
  return redirect(`/authentication/login?returnTo=${encodeURIComponent(returnTo)}`);
}

const renewals = new Map<string, Promise<AuthSessionData | null>>();

async function renew(sessionId: string, data: AuthSessionData): Promise<AuthSessionData | null> {
  let pending = renewals.get(sessionId);
  if (!pending) {
    pending = (async () => {
      if (!data.refreshToken) return null;
      try {
        const fresh = await refreshTokens(data.refreshToken);
        return { ...data, ...fresh };
      } catch (error) {
        log.info("auth.renew_failed", { error: String(error) });
        return null;
      }
    })().finally(() => renewals.delete(sessionId));
    renewals.set(sessionId, pending);
  }
  return pending;
}

/**
 * Refuses, with 403, a request that may change something and comes from another site: every action that
 * acts on the session cookie calls this first (requireUser does it for the signed-in ones).
 */
export function requireSameOrigin(request: Request): void {
  if (isCrossSiteWrite(request, getContext().env.publicUrl)) {
    throw new Response("Cross-site request refused", { status: 403, headers: { "Content-Type": "text/plain" } });
  }
}

/** The signed-in person, if any, without renewing or redirecting (for public pages). */
export async function getOptionalUser(request: Request): Promise<SignedIn | null> {
  const { sessions } = getContext();
  const session = await sessions.forRequest(request).getSession(request.headers.get("Cookie"));
  const identity = session.get("identity");
  const userId = session.get("userId");
  const accessToken = session.get("accessToken");
  if (!identity || !userId || !accessToken) return null;
  return { identity, userId, accessToken, accessTokenExpiresAt: session.get("accessTokenExpiresAt") ?? 0 };
}

/**
 * The signed-in person with a valid access token, renewed silently when it runs out.
 * No session: to the sign-in. A session that has ended: to /401. No permission for the tool: to /403.
 */
export async function requireUser(request: Request): Promise<SignedIn> {
  requireSameOrigin(request);
  const { sessions, env } = getContext();
  const storage = sessions.forRequest(request);
  const session = await storage.getSession(request.headers.get("Cookie"));
  let data = session.data as Partial<AuthSessionData>;
  if (!data.identity || !data.accessToken || !data.userId) {
    if (await sessions.cookieSessionId(request)) throw redirect("/401");
    throw loginRedirect(request);
  }
  if ((data.accessTokenExpiresAt ?? 0) - RENEW_AHEAD_MS < Date.now()) {
    const renewed = await renew(session.id, data as AuthSessionData);
    if (!renewed) throw redirect("/401");
    for (const [key, value] of Object.entries(renewed)) session.set(key as keyof AuthSessionData, value as never);
    // The cookie holds only the session id, so the stored data changes without a new cookie.
    await storage.commitSession(session);
    data = renewed;
  }
  const identity = data.identity as Identity;
  if (!hasToolAccess(identity.roles, env.OIDC_ACCESS_ROLE)) throw redirect("/403");
  return {
    identity,
    userId: data.userId as number,
    accessToken: data.accessToken as string,
    accessTokenExpiresAt: data.accessTokenExpiresAt ?? 0,
  };
}

export function hasRole(user: SignedIn, role: "SsiEditor" | "SsiApprover") {
  return user.identity.roles.includes(role);
}
