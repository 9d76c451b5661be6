import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "~/texts";
import { linkPageTitle } from "~/components/layout/meta";
import { caseLanguageFillTexts } from "~/locale-files";
import { FillLanguage } from "~/components/fill/FillLanguage";
import { LinkProblem } from "~/components/links/LinkProblem";
import { Field } from "~/components/ui/Field";
import { contentLanguages, languageName, type ContentLanguage } from "~/domain/languages";
import { codePageLanguage, openLinkPage } from "~/server/link-pages.server";
import "~/components/links/links.css";

/**
 * /l: the short code from the letter, typed by hand (decision 057), in the patient's language: the one they
 * chose on the page, else their browser's.
 */
export function loader({ request }: LoaderFunctionArgs) {
  return { language: codePageLanguage(request, new URL(request.url).searchParams.get("lang")) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const code = String(form.get("code") ?? "").slice(0, 200);
  return openLinkPage({ code }, context.clientAddress, codePageLanguage(request, form.get("lang")));
}

export const meta: MetaFunction = ({ matches }) => linkPageTitle(matches, "patientLink.codeTitle");
/** No staff header; the words of the page's language come with it (root.tsx). */
export const handle = { bare: true, fillTexts: caseLanguageFillTexts };

export default function PatientLinkCode() {
  const { language } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <>
      {/* A code that opens nothing says so: in its case's language where the link exists, else the page's. */}
      {result?.problem ? <LinkProblem problem={result.problem} language={result.language} /> : null}
      <FillLanguage lang={language} className="page page--narrow link-page">
        <CodeForm language={language} failed={Boolean(result?.problem)} />
      </FillLanguage>
    </>
  );
}

function CodeForm({ language, failed }: { language: ContentLanguage; failed: boolean }) {
  const { t } = useTranslation();
  const busy = useNavigation().state !== "idle";
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (failed) field.current?.focus();
  }, [failed]);
  return (
    <div>
      <h1 id="link-code-title">{t("patientLink.codeTitle")}</h1>
      <p id="link-code-hint">{t("patientLink.codeHint")}</p>
      {/* A document's post: the link's page loads whole, with the words of the case's language, which a
          page drawn in the browser after this one would not have. */}
      <Form method="post" className="link-page__form" reloadDocument>
        <input type="hidden" name="lang" value={language} />
        <Field id="link-code" label={t("patientLink.codeLabel")}>
          <input
            ref={field}
            id="link-code"
            name="code"
            className="input link-page__code"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            required
            maxLength={40}
            dir="ltr"
            aria-describedby="link-code-hint"
            aria-invalid={failed || undefined}
          />
        </Field>
        <button type="submit" className="btn btn--primary link-page__action" disabled={busy}>
          {t("patientLink.open")}
        </button>
      </Form>
      {/* The page's language, each named in its own; a plain form, so that it loads whole in that language. */}
      <form method="get" action="/l" className="link-page__language">
        <Field id="link-language" label={t("fill.language")} className="link-page__language-field">
          <select id="link-language" name="lang" className="input" defaultValue={language} data-testid="link-language">
            {contentLanguages.map((lang) => (
              <option key={lang} value={lang} lang={lang}>
                {languageName(lang, lang)}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit" className="btn link-page__action">
          {t("fill.languageApply")}
        </button>
      </form>
    </div>
  );
}
