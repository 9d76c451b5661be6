import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageTitle } from "~/components/layout/meta";
import { caseLanguageFillTexts } from "~/locale-files";
import { LinkProblem } from "~/components/links/LinkProblem";
import { openLinkPage } from "~/server/link-pages.server";
import "~/components/links/links.css";

/** A patient's link, /l/<token> (decision 057): opens its questionnaire, or says why it does not. */
export async function loader({ params, context }: LoaderFunctionArgs) {
  return openLinkPage({ token: params.token ?? "" }, context.clientAddress);
}

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "patientLink.pageTitle");
/** No staff header; a link that exists names its case's language, whose words come with the page (root.tsx). */
export const handle = { bare: true, fillTexts: caseLanguageFillTexts };

export default function PatientLinkOpen() {
  const { problem, language } = useLoaderData<typeof loader>();
  return <LinkProblem problem={problem} language={language} />;
}
