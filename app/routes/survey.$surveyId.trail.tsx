import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "~/server/responses.server";
import { Form, Link, useLoaderData, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "~/texts";
import type { RouteHandle } from "~/components/layout/Header";
import { pageTitle } from "~/components/layout/meta";
import { Field } from "~/components/ui/Field";
import { ActorName } from "~/components/audit/ActorName";
import { AuditErrorBoundary } from "~/components/audit/AuditForbidden";
import { translatedPlaceKey } from "~/domain/audit-translations";
import { wordKey, type Change, type ChangeValue } from "~/domain/audit-words";
import { positiveId } from "~/domain/ids";
import { ensureTexts, type TextsHandle } from "~/locale-files";
import { apiClient } from "~/server/api-client.server";
import { loadSurveyTrailPage } from "~/server/audit-pages.server";
import { requireUser } from "~/server/auth/guards.server";
import "~/components/audit/audit.css";

export const handle: RouteHandle & TextsHandle = { backToList: true, texts: ["authoring"] };

export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const [loaded] = await Promise.all([serverLoader<typeof loader>(), ensureTexts(["authoring"])]);
  return loaded;
}

/** Who changed what in a survey outside its cases, for its approvers (decision 028); a plain GET filter. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = positiveId(params.surveyId);
  if (!id) throw redirect("/surveys");
  return loadSurveyTrailPage(request, apiClient(user.accessToken), id);
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  pageTitle(matches, "audit.trail.pageTitle", { title: data?.survey.title ?? "" });

/** A value of a change as people read it. */
function Value({ value }: { value: ChangeValue }) {
  const { t } = useTranslation();
  if ("none" in value) return <em>{t("audit.value.none")}</em>;
  if ("word" in value) return <>{t(wordKey(value), { answers: value.of })}</>;
  if ("lines" in value)
    return (
      <ul>
        {value.lines.map((line, i) => (
          <li key={i}>{line}</li>
        ))}
      </ul>
    );
  if ("translations" in value)
    return (
      <ul>
        {value.translations.map((text, i) => (
          <li key={i}>
            {t("audit.translatedText", {
              place: t(translatedPlaceKey(text), { name: text.name }),
              text: t("audit.quoted", { text: text.text }),
            })}
          </li>
        ))}
      </ul>
    );
  return <>{t("audit.quoted", { text: value.text })}</>;
}

/** What an entry changed: each field by its name, before → after. */
function Changes({ changes, more }: { changes: Change[]; more: boolean }) {
  const { t } = useTranslation();
  if (changes.length === 0 && !more) return null;
  return (
    <ul className="audit__changes">
      {changes.map((c) => (
        <li key={c.field}>
          {t(`audit.field.${c.field}`)}: <Value value={c.before} /> <span aria-hidden="true">→</span>{" "}
          <span className="visually-hidden">{t("audit.becomes")} </span>
          <Value value={c.after} />
        </li>
      ))}
      {more ? <li>{t("audit.moreChanged")}</li> : null}
    </ul>
  );
}

export function ErrorBoundary() {
  return <AuditErrorBoundary page="trail" />;
}

export default function SurveyTrailPage() {
  const { survey, timeZone, filter, page, pages, total, actors, actions, entries } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  /** An action's name in the page's language; a code without one (a newer action) is shown as it is. */
  const actionLabel = (code: string) => t(`audit.action.${code.replace(/\./g, "_")}`, { defaultValue: code });
  const ids = { actor: useId(), action: useId(), from: useId(), to: useId() };
  const pageHref = (n: number) => {
    const query = new URLSearchParams(Object.entries(filter).filter(([, v]) => v !== ""));
    query.set("page", String(n));
    return `?${query.toString()}`;
  };
  return (
    <section className="page audit" aria-labelledby="trail-title">
      <h1 id="trail-title">{t("audit.trail.title")}</h1>
      <p className="audit__survey">{survey.title}</p>
      <nav className="audit__links" aria-label={t("audit.links")}>
        <Link to={`/survey/${survey.id}/statistics`}>{t("audit.toStatistics")}</Link>
        <Link to={`/survey/${survey.id}/history`}>{t("audit.toHistory")}</Link>
        <Link to={`/survey/${survey.id}/data`}>{t("audit.toData")}</Link>
      </nav>
      <Form method="get" className="audit__filter" aria-labelledby="trail-filter-title">
        <h2 id="trail-filter-title">{t("audit.trail.filter")}</h2>
        <div className="audit__fields">
          <Field id={ids.actor} label={t("audit.col.person")}>
            <select id={ids.actor} name="actor" defaultValue={filter.actor}>
              <option value="">{t("audit.trail.anyone")}</option>
              {actors.map((a) => (
                <option key={a.userId} value={a.userId}>
                  {a.name ?? t("audit.userId", { id: a.userId })}
                </option>
              ))}
            </select>
          </Field>
          <Field id={ids.action} label={t("audit.col.action")}>
            <select id={ids.action} name="action" defaultValue={filter.action}>
              <option value="">{t("audit.trail.anyAction")}</option>
              {actions.map((a) => (
                <option key={a} value={a}>
                  {actionLabel(a)}
                </option>
              ))}
            </select>
          </Field>
          <Field id={ids.from} label={t("audit.trail.from")}>
            <input id={ids.from} type="date" name="from" defaultValue={filter.from} />
          </Field>
          <Field id={ids.to} label={t("audit.trail.to")}>
            <input id={ids.to} type="date" name="to" defaultValue={filter.to} />
          </Field>
        </div>
        <button type="submit" className="btn btn--primary">
          {t("audit.trail.apply")}
        </button>{" "}
        <Link to={`/survey/${survey.id}/trail`} className="btn">
          {t("audit.trail.reset")}
        </Link>
      </Form>
      <p className="audit__note" data-testid="trail-count">
        {t("audit.trail.count", { count: total, page, pages })} {t("audit.timeZoneNote", { zone: timeZone })}
      </p>
      <div className="audit__table">
        <table data-testid="trail-table">
          <caption>{t("audit.trail.caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("audit.col.at")}</th>
              <th scope="col">{t("audit.col.person")}</th>
              <th scope="col">{t("audit.col.action")}</th>
              <th scope="col">{t("audit.col.entity")}</th>
              <th scope="col">{t("audit.col.change")}</th>
            </tr>
          </thead>
          <tbody>
            {entries.length === 0 ? (
              <tr>
                <td colSpan={5}>{t("audit.trail.empty")}</td>
              </tr>
            ) : (
              entries.map((e) => (
                <tr key={e.id}>
                  <td>
                    <time dateTime={e.atIso}>{e.at}</time>
                  </td>
                  <td>
                    <ActorName actor={e.actor} />
                  </td>
                  <td>{actionLabel(e.action)}</td>
                  <td>
                    {t(`audit.entity.${e.entity.kind}`, { defaultValue: t("audit.entity.other") })}
                    {e.entity.name ? <> {t("audit.quoted", { text: e.entity.name })}</> : null}
                  </td>
                  <td>
                    <Changes changes={e.changes} more={e.more} />
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {pages > 1 ? (
        <nav className="audit__pager" aria-label={t("audit.trail.pages")}>
          {page > 1 ? <Link to={pageHref(page - 1)}>{t("audit.trail.previous")}</Link> : null}
          <span aria-current="page">{t("audit.trail.pageOf", { page, pages })}</span>
          {page < pages ? <Link to={pageHref(page + 1)}>{t("audit.trail.next")}</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}
