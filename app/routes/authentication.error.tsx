import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/texts";
import { pageTitle } from "~/components/layout/meta";
import { safeReturnTo } from "~/server/auth/return-to.server";

/** What went wrong at sign-in; Retry goes back to the page the person was on, when one is named. */
export function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  return { idpDown: params.get("reason") === "idp", retry: safeReturnTo(params.get("returnTo")) };
}

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "auth.errorTitle");

export default function AuthenticationError() {
  const { t } = useTranslation();
  const { idpDown, retry } = useLoaderData<typeof loader>();
  return (
    <section className="page page--narrow" aria-labelledby="auth-err">
      <h1 id="auth-err">{t("auth.errorTitle")}</h1>
      <p role="alert">{idpDown ? t("auth.idpUnavailable") : t("auth.errorText")}</p>
      <Link className="btn btn--primary" to={retry} reloadDocument>
        {t("auth.retry")}
      </Link>
    </section>
  );
}
