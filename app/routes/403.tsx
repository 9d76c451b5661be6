import { type MetaFunction } from "@remix-run/node";
import { data } from "~/server/responses.server";
import { Form } from "@remix-run/react";
import { useTranslation } from "~/texts";
import { pageTitle } from "~/components/layout/meta";

export function loader() {
  return data(null, { status: 403 });
}

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "auth.forbiddenTitle");

export default function Forbidden() {
  const { t } = useTranslation();
  return (
    <section className="page page--narrow" aria-labelledby="forbidden-title">
      <h1 id="forbidden-title">{t("auth.forbiddenTitle")}</h1>
      <p>{t("auth.forbiddenText")}</p>
      <Form method="post" action="/authentication/logout">
        <button type="submit" className="btn btn--primary">
          {t("header.signOut")}
        </button>
      </Form>
    </section>
  );
}
