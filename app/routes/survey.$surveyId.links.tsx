import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  type ClientLoaderFunctionArgs,
} from "@remix-run/react";
import { ensureTexts, type TextsHandle } from "~/locale-files";
import { useTranslation } from "~/texts";
import { pageTitle } from "~/components/layout/meta";
import "~/components/links/link-staff.css";
import { LinkList } from "~/components/links/LinkList";
import { MadeLink } from "~/components/links/MadeLink";
import { Field } from "~/components/ui/Field";
import { languageName } from "~/domain/languages";
import { linksAction, linksLoader, type LinksActionResult } from "~/server/link-staff-page.server";

/** "Link für Patient:in": a case's one-time links, made, listed, revoked and renewed (decision 057). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return linksLoader(request, params.surveyId);
}

export async function action({ request, params }: ActionFunctionArgs) {
  return linksAction(request, params.surveyId);
}

export const meta: MetaFunction<typeof loader> = ({ matches, data: loaded }) =>
  pageTitle(matches, "patientLinks.pageTitle", { title: loaded?.title ?? "" });

/** The page's words are staff's tools' (authoring), not every page's. */
export const handle: TextsHandle = { texts: ["authoring"] };

export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const [loaded] = await Promise.all([serverLoader<typeof loader>(), ensureTexts(["authoring"])]);
  return loaded;
}

export default function PatientLinks() {
  const { t, i18n } = useTranslation();
  const d = useLoaderData<typeof clientLoader>();
  const result = useActionData<typeof action>() as LinksActionResult | undefined;
  const busy = useNavigation().state === "submitting";
  const made = result && "made" in result ? result.made : null;
  const problem = result && "problem" in result ? result.problem : null;
  return (
    <section className="page links-page" aria-labelledby="links-title">
      <p>
        <Link to={`/survey/${d.surveyId}`}>{t("patientLinks.back", { title: d.title })}</Link>
      </p>
      <h1 id="links-title">{t("patientLinks.title")}</h1>
      <p className="hint">{t("patientLinks.intro", { title: d.title })}</p>
      {d.status !== "Active" ? (
        <p className="notice" role="status">
          {t("patientLinks.notActive")}
        </p>
      ) : null}
      {made ? <MadeLink made={made} surveyId={d.surveyId} /> : null}
      <section aria-labelledby="link-new-title" className="link-new">
        <h2 id="link-new-title">{t("patientLinks.newTitle")}</h2>
        {/* Drawn afresh once a link is made: the next link starts from the page's patient, not the last one typed. */}
        <Form
          key={made?.id ?? "new"}
          method="post"
          className="link-new__form"
          // The page's patient stays in the address; a page for no patient gets no empty `?patientId=`.
          action={d.patientId ? `?patientId=${encodeURIComponent(d.patientId)}` : undefined}
        >
          <input type="hidden" name="intent" value="create" />
          <input type="hidden" name="formKey" value={d.formKey} />
          <Field
            id="link-patient"
            label={t("patientLinks.patientId")}
            error={problem === "patientId" ? t("patientLinks.patientIdInvalid") : undefined}
          >
            {(control) => (
              <input
                {...control}
                name="patientId"
                className="input"
                defaultValue={d.patientId}
                required
                autoComplete="off"
              />
            )}
          </Field>
          <Field
            id="link-days"
            label={t("patientLinks.days")}
            hint={t("patientLinks.daysHint", { max: d.maxDays, days: d.defaultDays })}
            error={problem === "days" ? t("patientLinks.daysInvalid", { max: d.maxDays }) : undefined}
          >
            {(control) => (
              <input
                {...control}
                name="days"
                type="number"
                inputMode="numeric"
                className="input link-new__days"
                min={1}
                max={d.maxDays}
                defaultValue={d.defaultDays}
                required
              />
            )}
          </Field>
          <Field id="link-language" label={t("patientLinks.language")}>
            <select id="link-language" name="language" className="input" defaultValue={d.languages[0]}>
              {d.languages.map((lang) => (
                <option key={lang} value={lang}>
                  {languageName(lang, i18n.language)}
                </option>
              ))}
            </select>
          </Field>
          <button type="submit" className="btn btn--primary" disabled={busy} data-testid="link-create">
            {t("patientLinks.create")}
          </button>
        </Form>
      </section>
      {d.patientId ? (
        <LinkList surveyId={d.surveyId} patientId={d.patientId} links={d.links} defaultDays={d.defaultDays} />
      ) : null}
    </section>
  );
}
