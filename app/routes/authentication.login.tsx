import { type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/server/responses.server";
import { assertProviderReachable, getOidc } from "~/server/auth/oidc.server";
import { returnToCookie, safeReturnTo } from "~/server/auth/return-to.server";
import { isDocumentNavigation, keepHashPage } from "~/server/auth/return-hash.server";
import { log } from "~/server/log.server";
import { handoverPath } from "~/domain/handover";
import { sessionHandover } from "~/server/auth/guards.server";

/**
 * Starts the sign-in at the identity provider; remembers where the person wanted to go. A page's own
 * navigation goes through a tiny page that keeps the address's hash (a tab) first (return-hash.server.ts).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const returnTo = safeReturnTo(url.searchParams.get("returnTo"));
  // Handed over to the patient (decision 058): no other sign-in from here, the patient's page instead.
  const handover = await sessionHandover(request);
  if (handover) throw redirect(handoverPath(handover));
  try {
    const oidc = await getOidc();
    await assertProviderReachable();
    await oidc.authenticatorFor(request).authenticate("oidc", request);
  } catch (thrown) {
    if (thrown instanceof Response) {
      thrown.headers.append(
        "Set-Cookie",
        await returnToCookie.serialize(returnTo, { secure: url.protocol === "https:" }),
      );
      const target = thrown.headers.get("Location");
      // A silent sign-in runs in a hidden frame, where the app's pages may not be shown: straight on.
      const silent = url.searchParams.get("prompt") === "none";
      if (!target || silent || !isDocumentNavigation(request)) throw thrown;
      const headers = new Headers({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
      for (const cookie of thrown.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
      const nonce = typeof context.cspNonce === "string" ? context.cspNonce : "";
      return new Response(keepHashPage(request, target, nonce), { status: 200, headers });
    }
    log.error("auth.login_failed", { error: String(thrown) });
    throw redirect("/authentication/error?reason=idp");
  }
  throw redirect("/authentication/error");
}
