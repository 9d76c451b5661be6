import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "~/texts";
import { pageTitle } from "~/components/layout/meta";
import { LinkProblem } from "~/components/links/LinkProblem";
import { Field } from "~/components/ui/Field";
import { openLinkPage } from "~/server/link-pages.server";
import "~/components/links/links.css";

/** /l: the short code from the letter, typed by hand (decision 057). */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const code = String(form.get("code") ?? "").slice(0, 200);
  return openLinkPage({ code }, context.clientAddress);
}

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "patientLink.codeTitle");
export const handle = { bare: true };

export default function PatientLinkCode() {
  const { t } = useTranslation();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (result?.problem) field.current?.focus();
  }, [result]);
  return (
    <>
      {result?.problem ? <LinkProblem problem={result.problem} /> : null}
      <section className="page page--narrow link-page" aria-labelledby="link-code-title">
        <h1 id="link-code-title">{t("patientLink.codeTitle")}</h1>
        <p id="link-code-hint">{t("patientLink.codeHint")}</p>
        <Form method="post" className="link-page__form">
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
              aria-describedby="link-code-hint"
              aria-invalid={result?.problem ? true : undefined}
            />
          </Field>
          <button type="submit" className="btn btn--primary link-page__action" disabled={busy}>
            {t("patientLink.open")}
          </button>
        </Form>
      </section>
    </>
  );
}
