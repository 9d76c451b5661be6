import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "~/server/responses.server";
import { useTranslation } from "~/texts";
import { getContext } from "~/server/context.server";
import { pageTitle } from "~/components/layout/meta";

/** Signs the person out at once (the session has lapsed) and says so. */
export async function loader({ request }: LoaderFunctionArgs) {
  const storage = getContext().sessions.forRequest(request);
  const session = await storage.getSession(request.headers.get("Cookie"));
  return data(null, { status: 401, headers: { "Set-Cookie": await storage.destroySession(session) } });
}

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "auth.expiredTitle");

export default function SessionExpired() {
  const { t } = useTranslation();
  return (
    <section className="page page--narrow" aria-labelledby="expired-title">
      <h1 id="expired-title">{t("auth.expiredTitle")}</h1>
      <p>{t("auth.expiredText")}</p>
      <a className="btn btn--primary" href="/authentication/login?returnTo=%2Fsurveys">
        {t("auth.signIn")}
      </a>
    </section>
  );
}
