import crypto from "node:crypto";
import { redirect } from "@remix-run/node";
import { HANDOVER_RETURN_PATH, handoverPath, type HandoverScope } from "~/domain/handover";
import { forgetCredentials } from "~/server/api/authenticate.server";
import { getContext } from "~/server/context.server";
import { localeFromRequest } from "~/server/i18n.server";
import { log } from "~/server/log.server";
import { auditHandover } from "~/server/services/handover/handover.server";
import { SIGNING_CLOCK_SKEW_MS, SIGNING_INTENT_TTL_MS } from "~/server/services/fill/signatures.server";
import type { AuthSessionData } from "./session.server";
import { verifyIdToken } from "./discovery.server";
import { assertProviderReachable, getOidc } from "./oidc.server";

/**
 * The way back from a hand-over when the PIN is forgotten (docs/decisions/058-hand-over.md): a fresh sign-in
 * of the same staff member at the provider, as the signature's (decision 029: prompt=login, max_age=0, the
 * person named). What the sign-in needs is kept on the session itself, for one try; the callback checks the
 * ID token (nonce, audience), that it names the hand-over's staff member and that they authenticated afresh,
 * then clears the hand-over. The session's own tokens stay; the sign-in's are revoked.
 */

export type HandoverReturn = NonNullable<AuthSessionData["handoverReturn"]>;
export type ReturnRefusal = "expired" | "failed" | "stale" | "otherAccount";
export const RETURN_REFUSALS = ["expired", "failed", "stale", "otherAccount"] as const satisfies ReturnRefusal[];

const randomToken = () => crypto.randomBytes(32).toString("base64url");

/** The check of the fresh sign-in; null when the hand-over may end. */
export function checkHandoverReturn(
  pending: HandoverReturn,
  scope: HandoverScope,
  facts: { sub: string; authTime: number | undefined },
  now: number,
): ReturnRefusal | null {
  if (now - pending.startedAt > SIGNING_INTENT_TTL_MS) return "expired";
  if (facts.authTime === undefined || facts.authTime * 1000 < pending.startedAt - SIGNING_CLOCK_SKEW_MS) return "stale";
  if (facts.sub !== scope.staffSub) return "otherAccount";
  return null;
}

async function sessionOf(request: Request) {
  const storage = getContext().sessions.forRequest(request);
  const session = await storage.getSession(request.headers.get("Cookie"));
  return { storage, session };
}

/** Starts the fresh sign-in of the hand-over's staff member: answers the redirect to the provider. */
export async function beginHandoverReturn(request: Request): Promise<Response> {
  const { storage, session } = await sessionOf(request);
  const scope = session.get("handover");
  if (!scope) throw redirect("/surveys");
  const pending: HandoverReturn = {
    state: randomToken(),
    nonce: randomToken(),
    codeVerifier: randomToken(),
    startedAt: Date.now(),
  };
  const oidc = await getOidc();
  await assertProviderReachable();
  session.set("handoverReturn", pending);
  const location = oidc.strategy.signingUrl({
    state: pending.state,
    codeVerifier: pending.codeVerifier,
    nonce: pending.nonce,
    locale: localeFromRequest(request),
    loginHint: scope.staffSub,
  });
  log.info("handover.return_started", { surveyId: scope.surveyId, patientDataId: scope.patientDataId });
  return redirect(location, {
    headers: { "Cache-Control": "no-store", "Set-Cookie": await storage.commitSession(session) },
  });
}

/** Whether a callback's state is the fresh sign-in this session waits for. */
export async function isHandoverReturn(request: Request, state: string | null): Promise<boolean> {
  if (!state) return false;
  const pending = (await sessionOf(request)).session.get("handoverReturn");
  return Boolean(
    pending &&
    pending.state.length === state.length &&
    crypto.timingSafeEqual(Buffer.from(pending.state), Buffer.from(state)),
  );
}

/**
 * The provider's answer to the fresh sign-in: the pending sign-in is used up either way; the right person,
 * freshly authenticated, ends the hand-over and comes to the page that returns the device to them.
 */
export async function finishHandoverReturn(request: Request): Promise<Response> {
  const { env } = getContext();
  const { storage, session } = await sessionOf(request);
  const pending = session.get("handoverReturn")!;
  const scope = session.get("handover");
  session.unset("handoverReturn");
  const back = async (refusal: ReturnRefusal) => {
    log.info("handover.return_refused", { refusal });
    return redirect(`${HANDOVER_RETURN_PATH}?refused=${refusal}`, {
      headers: { "Set-Cookie": await storage.commitSession(session) },
    });
  };
  if (!scope) return redirect("/surveys", { headers: { "Set-Cookie": await storage.commitSession(session) } });
  const url = new URL(request.url);
  const code = url.searchParams.get("code");
  if (url.searchParams.get("error") || !code) return back("failed");
  let facts;
  try {
    const oidc = await getOidc();
    const tokens = await oidc.strategy.signingTokens(code, pending.codeVerifier);
    if (tokens.hasRefreshToken()) await oidc.strategy.revokeQuietly(tokens.refreshToken());
    await oidc.strategy.revokeQuietly(tokens.accessToken());
    facts = await verifyIdToken(tokens.idToken(), {
      issuer: env.issuer,
      clientId: env.OIDC_CLIENT_ID,
      nonce: pending.nonce,
    });
  } catch (error) {
    log.info("handover.return_token_refused", { error: String(error) });
    return back("failed");
  }
  const refusal = checkHandoverReturn(pending, scope, facts, Date.now());
  if (refusal) return back(refusal);
  await auditHandover(getContext().db, scope, "signIn");
  session.unset("handover");
  const cookie = await storage.commitSession(session);
  forgetCredentials((c) => c.surveyUserDataId === scope.staffUserId);
  log.info("handover.ended", { surveyId: scope.surveyId, patientDataId: scope.patientDataId, by: "sign-in" });
  return redirect(`${HANDOVER_RETURN_PATH}?returned=${encodeURIComponent(handoverPath(scope))}`, {
    headers: { "Set-Cookie": cookie },
  });
}
