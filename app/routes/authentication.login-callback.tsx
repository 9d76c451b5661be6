import { type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/server/responses.server";
import { hasToolAccess } from "~/domain/user";
import { getContext } from "~/server/context.server";
import { clearStateCookies, getOidc, termsUrl } from "~/server/auth/oidc.server";
import { renewAt } from "~/server/auth/renewal.server";
import { finishSigning } from "~/server/auth/signing.server";
import { finishHandoverReturn, isHandoverReturn } from "~/server/auth/handover-return.server";
import { clearKeptHash, keptHash } from "~/server/auth/return-hash.server";
import { returnToCookie, safeReturnTo } from "~/server/auth/return-to.server";
import { setLocaleCookie } from "~/server/i18n.server";
import { log } from "~/server/log.server";
import { findSigningIntent } from "~/server/services/fill/signatures.server";
import { syncUser } from "~/server/services/users.server";
import { SILENT_DONE, silentOutcome } from "./authentication.silent-done";

/**
 * The provider sends the person back here. Terms not accepted: to the provider's terms page.
 * Otherwise a session is made and the person lands where they wanted to go, in their language. The
 * sign-in's state cookie has done its work either way and is removed; a session the browser still named
 * (an earlier sign-in) ends, so that only the new one is valid. A signing's fresh sign-in comes back here
 * too (its state names a signing intent): it records the signature and leaves the session as it was
 * (docs/decisions/029-signed-close.md). So does the fresh sign-in that ends a hand-over (decision 058).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { env, db, sessions } = getContext();
  const url = new URL(request.url);
  const state = url.searchParams.get("state");
  // The way back from a hand-over by a fresh sign-in (decision 058): the session itself names its state.
  if (await isHandoverReturn(request, state)) throw await finishHandoverReturn(request);
  const signing = state ? await findSigningIntent(db, state) : undefined;
  if (signing) throw await finishSigning(request, signing);
  const secure = url.protocol === "https:";
  const headers = new Headers();
  for (const cookie of clearStateCookies(request)) headers.append("Set-Cookie", cookie);
  const path = safeReturnTo((await returnToCookie.parse(request.headers.get("Cookie"))) as string | null);
  // The tab of a deep link, kept by the sign-in's first page (the server never sees a hash).
  const returnTo = path.includes("#") ? path : `${path}${keptHash(request.headers.get("Cookie"))}`;
  headers.append("Set-Cookie", clearKeptHash(secure));
  // A silent sign-in ends on its own page either way; the page that asked reads the outcome there.
  const silent = returnTo.startsWith(SILENT_DONE);
  let result;
  try {
    result = await (await getOidc()).authenticatorFor(request).authenticate("oidc", request);
  } catch (error) {
    if (error instanceof Response) throw error;
    log.info("auth.callback_failed", { error: String(error), silent });
    throw redirect(silent ? silentOutcome(false) : "/authentication/error", { headers });
  }
  if (silent && (!result.identity.hasAcceptedTos || !hasToolAccess(result.identity.roles, env.OIDC_ACCESS_ROLE))) {
    throw redirect(silentOutcome(false), { headers });
  }

  if (!result.identity.hasAcceptedTos) {
    const again = `${env.publicUrl}/authentication/login?returnTo=${encodeURIComponent(returnTo)}`;
    throw redirect(termsUrl(again), { headers });
  }

  const previous = await sessions.cookieSessionId(request);
  if (previous) await sessions.end(previous);

  const record = await syncUser(db, result.identity, { login: true });
  const storage = sessions.forRequest(request);
  const session = await storage.getSession();
  session.set("identity", result.identity);
  session.set("surveyUserDataId", record.id);
  session.set("accessToken", result.accessToken);
  if (result.refreshToken) session.set("refreshToken", result.refreshToken);
  if (result.idToken) session.set("idToken", result.idToken);
  session.set("accessTokenExpiresAt", result.accessTokenExpiresAt);
  session.set("renewAfter", renewAt(result.accessTokenExpiresAt));

  headers.append("Set-Cookie", await storage.commitSession(session));
  headers.append("Set-Cookie", await returnToCookie.serialize("", { maxAge: 0, secure }));
  if (record.culture) headers.append("Set-Cookie", await setLocaleCookie(record.culture, secure));
  log.info("auth.signed_in", { surveyUserDataId: record.id });
  const target = hasToolAccess(result.identity.roles, env.OIDC_ACCESS_ROLE) ? returnTo : "/403";
  throw redirect(target, { headers });
}
