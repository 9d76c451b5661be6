import { usersApi } from "~/contracts/users";
import { type ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "~/server/responses.server";
import { parseForm } from "~/domain/forms";
import { LanguageFormSchema } from "~/domain/page-forms";
import { apiClient } from "~/server/api-client.server";
import { getOptionalUser, requireSameOrigin } from "~/server/auth/guards.server";
import { safeReturnTo } from "~/server/auth/return-to.server";
import { setLocaleCookie } from "~/server/i18n.server";
import { log } from "~/server/log.server";

/** Switches the page language at once and keeps it for the person's next sign-in. */
export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const submission = parseForm(await request.formData(), LanguageFormSchema);
  const redirectTo = submission.payload.redirectTo;
  const back = safeReturnTo(typeof redirectTo === "string" ? redirectTo : "/surveys");
  if (submission.status !== "success") return redirect(back);
  const { locale } = submission.value;
  const user = await getOptionalUser(request, { renew: true });
  if (user) {
    await apiClient(user.accessToken)
      .call(usersApi.setCulture, { query: { culture: locale } })
      .catch((error: unknown) => log.info("culture.save_failed", { error: String(error) }));
  }
  const cookie = await setLocaleCookie(locale, new URL(request.url).protocol === "https:");
  return redirect(back, { headers: { "Set-Cookie": cookie } });
}

export function loader() {
  return redirect("/surveys");
}
