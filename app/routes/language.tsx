import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { CultureSchema } from "~/domain/user";
import { apiClient } from "~/server/api-client.server";
import { getOptionalUser, requireSameOrigin } from "~/server/auth/guards.server";
import { safeReturnTo } from "~/server/auth/return-to.server";
import { setLocaleCookie } from "~/server/i18n.server";
import { log } from "~/server/log.server";

/** Switches the page language at once and keeps it for the person's next sign-in. */
export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const form = await request.formData();
  const parsed = CultureSchema.safeParse(form.get("locale"));
  const back = safeReturnTo(String(form.get("redirectTo") ?? "/surveys"));
  if (!parsed.success) return redirect(back);
  const user = await getOptionalUser(request, { renew: true });
  if (user) {
    await apiClient(user.accessToken)
      .post("/users/current/culture", { query: { culture: parsed.data } })
      .catch((error: unknown) => log.info("culture.save_failed", { error: String(error) }));
  }
  const cookie = await setLocaleCookie(parsed.data, new URL(request.url).protocol === "https:");
  return redirect(back, { headers: { "Set-Cookie": cookie } });
}

export function loader() {
  return redirect("/surveys");
}
