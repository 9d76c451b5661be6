import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/server/auth/guards.server";

/**
 * Renews the access token on the server (tokens never reach the browser) and tells the page when
 * it runs out next, so the page can ask again in time. A lapsed session answers 401.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  try {
    const user = await requireUser(request);
    return Response.json({ expiresAt: user.accessTokenExpiresAt }, { headers: { "Cache-Control": "no-store" } });
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) {
      return Response.json({ expiresAt: null }, { status: 401, headers: { "Cache-Control": "no-store" } });
    }
    throw thrown;
  }
}
