import QRCode from "qrcode";
import { patientLinksApi } from "~/contracts/patient-links";
import { surveysApi } from "~/contracts/surveys";
import { caseLanguages } from "~/domain/case-language";
import { DISPLAY_TIME_ZONE, formatDateTime } from "~/domain/dates";
import { positiveId } from "~/domain/ids";
import { newIdempotencyKey } from "~/domain/idempotency";
import { fillLocales } from "~/domain/case-language";
import { isContentLanguage } from "~/domain/content-languages";
import { translateSurvey } from "~/domain/languages";
import { LINK_EXPIRY_DEFAULT_DAYS, LINK_EXPIRY_MAX_DAYS, formatCode } from "~/domain/patient-links";
import type { MadeLink, PatientLink } from "~/domain/patient-link-requests";
import type { LetterWords, LinkRow, MadeView } from "~/domain/patient-link-views";
import { isValidPatientId } from "~/domain/patient-id";
import { apiClient } from "~/server/api-client.server";
import { requireUser } from "~/server/auth/guards.server";
import { getContext } from "~/server/context.server";
import { setFlash } from "~/server/flash.server";
import { translate } from "~/server/locales.server";
import { refused } from "~/server/refusals.server";
import { data, redirect } from "~/server/responses.server";
import { codeHash, tokenHash } from "~/server/services/links/secrets.server";

/**
 * Staff's pages of patients' links (docs/decisions/057-patient-links.md): make a link for a case, see its links
 * with their states, revoke and renew them, and print the letter. The token and the code are answered once, to
 * the post that made them: this page shows them in that answer only, and the letter is made from them when that
 * page posts them back (checked against the stored hashes), so the plain token is kept nowhere.
 */

const noStore = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

export const linkUrl = (token: string) => `${getContext().env.publicUrl}/l/${token}`;

/** The QR code of an address as an SVG drawn on the server (the page's script stays light). */
export const qrSvg = (url: string) => QRCode.toString(url, { type: "svg", errorCorrectionLevel: "M", margin: 4 });

const when = (iso: string) => formatDateTime(iso, false, DISPLAY_TIME_ZONE);

function rowOf(link: PatientLink, source: string): LinkRow {
  return {
    id: link.Id,
    language: link.Language ?? source,
    state: link.State,
    created: when(link.CreatedAt),
    expires: when(link.ExpiresAt),
    renewedFrom: link.RenewedFrom,
  };
}

async function madeView(made: MadeLink, source: string): Promise<MadeView> {
  const url = linkUrl(made.Token);
  return {
    id: made.Link.Id,
    patientId: made.Link.PatientId,
    url,
    qr: await qrSvg(url),
    code: formatCode(made.Code),
    token: made.Token,
    expires: when(made.Link.ExpiresAt),
    language: made.Link.Language ?? source,
  };
}

export async function linksLoader(request: Request, surveyIdParam: string | undefined) {
  const user = await requireUser(request);
  const surveyId = positiveId(surveyIdParam);
  if (!surveyId) throw redirect("/surveys");
  const typed = new URL(request.url).searchParams.get("patientId")?.trim() ?? "";
  const patientId = typed && isValidPatientId(typed) ? typed : "";
  const api = apiClient(user.accessToken);
  try {
    const survey = await api.call(surveysApi.get, { params: { id: surveyId } });
    const links = patientId ? await api.call(patientLinksApi.list, { query: { surveyId, patientId } }) : [];
    return data(
      {
        surveyId,
        title: survey.Title,
        status: survey.Status,
        patientId,
        languages: caseLanguages(survey),
        links: links.map((l) => rowOf(l, survey.SourceLanguage)),
        defaultDays: LINK_EXPIRY_DEFAULT_DAYS,
        maxDays: LINK_EXPIRY_MAX_DAYS,
        formKey: newIdempotencyKey(),
      },
      { headers: noStore },
    );
  } catch (error) {
    return refused(request, error, { back: `/survey/${surveyId}`, notFound: "/surveys" });
  }
}

const daysOf = (value: FormDataEntryValue | null) => {
  const n = Number(value ?? LINK_EXPIRY_DEFAULT_DAYS);
  return Number.isInteger(n) && n >= 1 && n <= LINK_EXPIRY_MAX_DAYS ? n : null;
};

export type LinksActionResult = { made: MadeView } | { problem: "days" | "patientId" | "refused"; message?: string };

export async function linksAction(request: Request, surveyIdParam: string | undefined) {
  const user = await requireUser(request);
  const surveyId = positiveId(surveyIdParam);
  if (!surveyId) throw redirect("/surveys");
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const patientId = String(form.get("patientId") ?? "").trim();
  const here = `/survey/${surveyId}/links?patientId=${encodeURIComponent(patientId)}`;
  const api = apiClient(user.accessToken);
  const answer = (result: LinksActionResult, status = 200) => data(result, { status, headers: noStore });
  try {
    const survey = await api.call(surveysApi.get, { params: { id: surveyId } });
    if (intent === "create" || intent === "renew") {
      const days = daysOf(form.get("days"));
      if (days === null) return answer({ problem: "days" }, 400);
      let made: MadeLink;
      if (intent === "create") {
        if (!isValidPatientId(patientId)) return answer({ problem: "patientId" }, 400);
        const language = String(form.get("language") ?? "");
        made = await api.call(
          patientLinksApi.create,
          {
            body: {
              SurveyId: surveyId,
              PatientId: patientId,
              ExpiryDays: days,
              Language: isContentLanguage(language) && language !== survey.SourceLanguage ? language : null,
            },
          },
          { idempotencyKey: String(form.get("formKey") ?? "") || undefined },
        );
      } else {
        const id = positiveId(String(form.get("linkId") ?? ""));
        if (!id) return answer({ problem: "refused" }, 400);
        made = await api.call(patientLinksApi.renew, { params: { id }, body: { ExpiryDays: days } });
      }
      return answer({ made: await madeView(made, survey.SourceLanguage) }, 201);
    }
    if (intent === "revoke") {
      const id = positiveId(String(form.get("linkId") ?? ""));
      if (id) await api.call(patientLinksApi.revoke, { params: { id } });
      const flash = await setFlash(request, { kind: "success", key: "patientLinks.revoked", vars: { id: String(id) } });
      return redirect(`${here}#link-${id}`, { headers: { "Set-Cookie": flash } });
    }
    return answer({ problem: "refused" }, 400);
  } catch (error) {
    return refused(request, error, { back: here, notFound: "/surveys" });
  }
}

/** The letter's words in one language: German staff's and the patient's (their fill words). */
function letterWords(language: string, vars: Record<string, string>): LetterWords {
  const locale = isContentLanguage(language) ? fillLocales[language] : "de-DE";
  const t = (key: string) => translate(locale, `fill.letter.${key}`, vars);
  return {
    lang: language,
    title: t("title"),
    intro: t("intro"),
    scan: t("scan"),
    type: t("type"),
    codeLabel: t("codeLabel"),
    addressLabel: t("addressLabel"),
    expires: t("expires"),
    once: t("once"),
    help: t("help"),
  };
}

/**
 * The printable letter (POST from the page that made the link, with its token and code): made only when both
 * are the link's own, so that nothing else can be printed as a letter of this link.
 */
export async function letterAction(
  request: Request,
  surveyIdParam: string | undefined,
  linkIdParam: string | undefined,
) {
  const user = await requireUser(request);
  const surveyId = positiveId(surveyIdParam);
  const linkId = positiveId(linkIdParam);
  if (!surveyId || !linkId) throw redirect("/surveys");
  const form = await request.formData();
  const token = String(form.get("token") ?? "").slice(0, 128);
  const code = String(form.get("code") ?? "").slice(0, 64);
  const api = apiClient(user.accessToken);
  const back = `/survey/${surveyId}/links`;
  try {
    const survey = await api.call(surveysApi.get, { params: { id: surveyId } });
    const links = await api.call(patientLinksApi.list, { query: { surveyId } });
    const link = links.find((l) => l.Id === linkId);
    const row = link
      ? await getContext()
          .db.selectFrom("patient_links")
          .select(["token_hash", "code_hash"])
          .where("id", "=", linkId)
          .executeTakeFirst()
      : undefined;
    if (!link || !row || row.token_hash !== tokenHash(token) || row.code_hash !== codeHash(code)) {
      const flash = await setFlash(request, { kind: "error", key: "patientLinks.letterGone" });
      return redirect(back, { headers: { "Set-Cookie": flash } });
    }
    const url = linkUrl(token);
    const language = link.Language ?? survey.SourceLanguage;
    const vars = {
      date: when(link.ExpiresAt),
      address: `${getContext().env.publicUrl}/l`,
      title: survey.Title,
    };
    // Each language's part names the survey by its title in that language, where it has one.
    const inLanguage = (lang: string) => letterWords(lang, { ...vars, title: translateSurvey(survey, lang).Title });
    const words = [inLanguage("de"), ...(language === "de" ? [] : [inLanguage(language)])];
    return data(
      { url, qr: await qrSvg(url), code: formatCode(code), address: vars.address, expires: vars.date, words },
      { headers: noStore },
    );
  } catch (error) {
    return refused(request, error, { back, notFound: "/surveys" });
  }
}
