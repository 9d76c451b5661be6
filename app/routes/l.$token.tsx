import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { linkPageTitle } from "~/components/layout/meta";
import { caseLanguageFillTexts } from "~/locale-files";
import { LinkProblem } from "~/components/links/LinkProblem";
import { codePageLanguage, openLinkPage } from "~/server/link-pages.server";
import "~/components/links/links.css";

/** A patient's link, /l/<token> (decision 057): opens its questionnaire, or says why it does not. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return openLinkPage({ token: params.token ?? "" }, context.clientAddress, codePageLanguage(request, null));
}

export const meta: MetaFunction = ({ matches }) => linkPageTitle(matches, "patientLink.pageTitle");
/**
 * No staff header; the page speaks its case's language where the link exists, else the browser's; its words come
 * with the page (root.tsx).
 */
export const handle = { bare: true, fillTexts: caseLanguageFillTexts };

export default function PatientLinkOpen() {
  const { problem, language } = useLoaderData<typeof loader>();
  return <LinkProblem problem={problem} language={language} />;
}
