import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/texts";
import { pageTitle } from "~/components/layout/meta";
import "~/components/links/link-staff.css";
import { LinkLetter } from "~/components/links/LinkLetter";
import { requireUser } from "~/server/auth/guards.server";
import { letterAction } from "~/server/link-staff-page.server";

/**
 * The printable A4 letter of a link just made (decision 057): only as the answer to the post of the page that
 * made it, which holds the token and code; asked for by address, it has neither and says so.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  return { back: `/survey/${Number(params.surveyId) || 0}/links` };
}

export async function action({ request, params }: ActionFunctionArgs) {
  return letterAction(request, params.surveyId, params.linkId);
}

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "patientLinks.letterTitle");
export const handle = { bare: true, texts: ["authoring"] };

export default function LetterPage() {
  const letter = useActionData<typeof action>();
  const { back } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  if (letter && "words" in letter) return <LinkLetter letter={letter} />;
  return (
    <section className="page page--narrow" aria-labelledby="letter-gone">
      <h1 id="letter-gone">{t("patientLinks.letterTitle")}</h1>
      <p>{t("patientLinks.letterGone")}</p>
      <Link to={back}>{t("patientLinks.title")}</Link>
    </section>
  );
}
