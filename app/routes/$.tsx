import { type MetaFunction } from "@remix-run/node";
import { data } from "~/server/responses.server";
import { Link } from "@remix-run/react";
import { useTranslation } from "~/texts";
import { pageTitle } from "~/components/layout/meta";

export function loader() {
  return data(null, { status: 404 });
}

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "notFound.title");

export default function NotFound() {
  const { t } = useTranslation();
  return (
    <section className="page page--narrow" aria-labelledby="nf-title">
      <h1 id="nf-title">{t("notFound.title")}</h1>
      <p>{t("notFound.text")}</p>
      <Link className="btn btn--primary" to="/surveys">
        {t("notFound.toList")}
      </Link>
    </section>
  );
}
