import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { createCookie } from "@remix-run/node";
import { assertProviderReachable, getOidc } from "~/server/auth/oidc.server";
import { safeReturnTo } from "~/server/auth/return-to.server";
import { log } from "~/server/log.server";

export const returnToCookie = createCookie("sv_return_to", {
  path: "/authentication",
  httpOnly: true,
  sameSite: "lax",
  maxAge: 600,
});

/** Starts the sign-in at the identity provider; remembers where the person wanted to go. */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const returnTo = safeReturnTo(url.searchParams.get("returnTo"));
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
      throw thrown;
    }
    log.error("auth.login_failed", { error: String(thrown) });
    throw redirect("/authentication/error?reason=idp");
  }
  throw redirect("/authentication/error");
}
