import { redirect } from "@remix-run/node";
import { handoverPath, pageAllowedInHandover, type HandoverScope } from "~/domain/handover";
import { hasToolAccess, type Identity } from "~/domain/user";
import { noteRequestHandover } from "~/server/log.server";
import { forgetCredentials } from "~/server/api/authenticate.server";
import { getContext } from "~/server/context.server";
import { safeReturnTo } from "./return-to.server";
import { isCrossSiteWrite } from "./same-origin.server";
import { refreshTokens } from "./oidc.server";
import { freshSession, ProviderUnavailable } from "./renewal.server";
import type { AuthSessionData } from "./session.server";

export interface SignedIn {
  identity: Identity;
  surveyUserDataId: number;
  accessToken: string;
  accessTokenExpiresAt: number;
}

function loginRedirect(request: Request) {
  const url = new URL(request.url);
  const returnTo = safeReturnTo(url.pathname + url.search);
  return redirect(`/authentication/login?returnTo=${encodeURIComponent(returnTo)}`);
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

/**
 * The signed-in person, if any, without redirecting (for pages anyone may see). With renew, the access
 * token is renewed when due, as for requireUser, and a session that cannot be renewed counts as none.
 */
export async function getOptionalUser(request: Request, opts: { renew?: boolean } = {}): Promise<SignedIn | null> {
  const { sessions } = getContext();
  const session = await sessions.forRequest(request).getSession(request.headers.get("Cookie"));
  let data: Partial<AuthSessionData> | null = session.data;
  if (opts.renew && data.identity) {
    data = await freshSession(sessions, session.id, data, refreshTokens).catch(() => null);
  }
  if (!data?.identity || !data.surveyUserDataId || !data.accessToken) return null;
  return {
    identity: data.identity,
    surveyUserDataId: data.surveyUserDataId,
    accessToken: data.accessToken,
    accessTokenExpiresAt: data.accessTokenExpiresAt ?? 0,
  };
}

/**
 * The signed-in person with a valid access token, renewed silently when it runs out.
 * No session: to the sign-in. A session that has ended: to /401. No permission for the tool: to /403.
 */
export async function requireUser(request: Request): Promise<SignedIn> {
  requireSameOrigin(request);
  const { sessions, env } = getContext();
  const session = await sessions.forRequest(request).getSession(request.headers.get("Cookie"));
  if (!session.get("identity")) {
    if (await sessions.cookieSessionId(request)) throw redirect("/401");
    throw loginRedirect(request);
  }
  let data;
  try {
    data = await freshSession(sessions, session.id, session.data, refreshTokens);
  } catch (error) {
    if (!(error instanceof ProviderUnavailable)) throw error;
    const url = new URL(request.url);
    const back = encodeURIComponent(safeReturnTo(url.pathname + url.search));
    throw redirect(`/authentication/error?reason=idp&returnTo=${back}`);
  }
  if (!data) {
    const surveyUserDataId = session.get("surveyUserDataId");
    forgetCredentials((caller) => caller.surveyUserDataId === surveyUserDataId);
    throw redirect("/401");
  }
  if (!hasToolAccess(data.identity.roles, env.OIDC_ACCESS_ROLE)) throw redirect("/403");
  keepToHandover(request, data.handover);
  return {
    identity: data.identity,
    surveyUserDataId: data.surveyUserDataId,
    accessToken: data.accessToken,
    accessTokenExpiresAt: data.accessTokenExpiresAt,
  };
}

/**
 * While the session is handed to the patient (docs/decisions/058-hand-over.md), every page but the case's
 * fill page and the way back answers with the patient's page; the page's own API calls are bound to it too.
 */
export function keepToHandover(request: Request, handover: HandoverScope | undefined): void {
  if (!handover) return;
  noteRequestHandover(handover);
  if (!pageAllowedInHandover(new URL(request.url).pathname, handover)) {
    throw redirect(handoverPath(handover), { headers: { "Cache-Control": "no-store" } });
  }
}

/** The hand-over of the request's session, if any (pages that do not require a person: sign-in, sign-out). */
export async function sessionHandover(request: Request): Promise<HandoverScope | undefined> {
  const session = await getContext().sessions.forRequest(request).getSession(request.headers.get("Cookie"));
  return session.get("handover");
}

export function hasRole(user: SignedIn, role: "SsiEditor" | "SsiApprover") {
  return user.identity.roles.includes(role);
}
