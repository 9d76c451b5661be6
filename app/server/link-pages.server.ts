import { LINK_COOKIE, LINK_COOKIE_PATH } from "~/server/api/link-routes.server";
import { getContext } from "~/server/context.server";
import { noteLoggedPath } from "~/server/log.server";
import { openLink, type Opened } from "~/server/services/links/open.server";
import { data, redirect } from "~/server/responses.server";
import { patientsApi } from "~/contracts/patients";
import { surveysApi } from "~/contracts/surveys";
import { isContentLanguage } from "~/domain/content-languages";
import { asContentLanguage, preferredContentLanguage, type ContentLanguage } from "~/domain/languages";
import { linkApiClient } from "~/server/api-client.server";
import type { LinkScope } from "~/server/services/links/scope.server";

/**
 * The pages a patient's link opens (docs/decisions/057-patient-links.md): /l/<token> and the code typed on /l
 * set the link's cookie and go on to /l/fill; an invalid try gets a page that says which, with its status.
 */

export type LinkProblem = Exclude<Opened["kind"], "open">;

/** The status of a link problem's page. */
export const problemStatus: Record<LinkProblem, number> = {
  invalid: 404,
  expired: 410,
  used: 410,
  revoked: 410,
  unavailable: 409,
  limited: 429,
};

/** The link's cookie: httpOnly, SameSite=Strict, only on the link's pages, Secure on https, until it expires. */
export function linkCookie(session: string, expiresAt: string): string {
  const secure = getContext().env.publicUrl.startsWith("https:") ? "; Secure" : "";
  return `${LINK_COOKIE}=${session}; Path=${LINK_COOKIE_PATH}; Expires=${new Date(expiresAt).toUTCString()}; HttpOnly; SameSite=Strict${secure}`;
}

/**
 * Opens a link by its token or code: on to its questionnaire with the cookie set, or its problem's page, in
 * the case's language where the link exists, else in `language` (the patient's choice or browser's).
 */
export async function openLinkPage(
  how: { token: string } | { code: string },
  address: string | undefined,
  language: ContentLanguage,
) {
  const opened = await openLink(getContext().db, how, address ?? "unknown");
  const linkId = opened.kind === "open" ? opened.scope.linkId : opened.linkId;
  if ("token" in how) noteLoggedPath(linkId ? `/l/[link ${linkId}]` : "/l/[invalid]");
  if (opened.kind === "open") {
    await startInLinkLanguage(opened.session, opened.scope);
    throw redirect("/l/fill", {
      headers: {
        "Set-Cookie": linkCookie(opened.session, opened.scope.expiresAt),
        "Referrer-Policy": "no-referrer",
        "Cache-Control": "no-store",
      },
    });
  }
  const problem: LinkProblem = opened.kind;
  return data(
    { problem, language: opened.language ?? language },
    { status: problemStatus[problem], headers: { "Referrer-Policy": "no-referrer", "Cache-Control": "no-store" } },
  );
}

/**
 * Opened, the case speaks the link's language (the survey's source language when it names none): the patient
 * may switch on the page, and opening the link again starts in its language once more.
 */
async function startInLinkLanguage(session: string, scope: LinkScope) {
  const api = linkApiClient(session);
  const ref = { surveyId: scope.surveyId, patientId: scope.patientId };
  const language =
    scope.language ?? (await api.call(surveysApi.get, { params: { id: scope.surveyId } })).SourceLanguage;
  if (!isContentLanguage(language)) return;
  await api.call(patientsApi.language, { query: ref, body: { Language: language } });
}

/**
 * The language of /l, the page a code is typed on, which belongs to no case yet: the patient's choice on it
 * (`lang`), else the first their browser asks for that content is offered in, else German.
 */
export function codePageLanguage(request: Request, chosen: unknown): ContentLanguage {
  return (
    (typeof chosen === "string" ? asContentLanguage(chosen) : null) ??
    preferredContentLanguage(request.headers.get("accept-language"))
  );
}
