import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { pageTitle } from "~/components/layout/meta";

export function loader({ request }: LoaderFunctionArgs) {
  return { idpDown: new URL(request.url).searchParams.get("reason") === "idp" };
}

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "auth.errorTitle");

export default function AuthenticationError() {
  const { t } = useTranslation();
  const { idpDown } = useLoaderData<typeof loader>();
  return (
    <section className="page page--narrow" aria-labelledby="auth-err">
      <h1 id="auth-err">{t("auth.errorTitle")}</h1>
      <p role="alert">{idpDown ? t("auth.idpUnavailable") : t("auth.errorText")}</p>
      <Link className="btn btn--primary" to="/surveys" reloadDocument>
        {t("auth.retry")}
      </Link>
    </section>
  );
}
