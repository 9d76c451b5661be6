import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { linkPageTitle } from "~/components/layout/meta";
import { caseLanguageFillTexts } from "~/locale-files";
import { LinkFill, type LinkFillData } from "~/components/links/LinkFill";
import { LinkProblem } from "~/components/links/LinkProblem";
import { LinkThanks } from "~/components/links/LinkThanks";
import type { PageProblems } from "~/domain/page-problems";
import { linkFillAction, linkFillLoader } from "~/server/link-fill-page.server";
import "~/components/links/links.css";

/** /l/fill: the patient answers their case's questionnaire through their link (decision 057). */
export async function loader({ request }: LoaderFunctionArgs) {
  return linkFillLoader(request);
}

/** Without JavaScript each page is a form, saved here through the link. */
export async function action({ request, context }: ActionFunctionArgs) {
  return linkFillAction(request, context.bodyRefused);
}

export const meta: MetaFunction = ({ matches }) => linkPageTitle(matches, "patientLink.pageTitle");
/** No staff header; the page's data names the case's language, whose fill words come with it (root.tsx). */
export const handle = { bare: true, fillTexts: caseLanguageFillTexts };

export default function PatientLinkFill() {
  const d = useLoaderData<typeof loader>();
  const problems = useActionData<typeof action>() as PageProblems | null | undefined;
  if (d.kind === "problem") return <LinkProblem problem={d.problem} language={d.language} />;
  if (d.kind === "done") return <LinkThanks language={d.language} />;
  return <LinkFill d={d as unknown as LinkFillData} problems={problems ?? undefined} />;
}
