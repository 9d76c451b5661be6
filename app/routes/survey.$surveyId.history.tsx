import { type LoaderFunctionArgs, type MetaFunction, type SerializeFrom } from "@remix-run/node";
import { redirect } from "~/server/responses.server";
import { Link, useLoaderData, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { useTranslation } from "~/texts";
import { caseEventKey } from "~/domain/audit-reading";
import type { RouteHandle } from "~/components/layout/Header";
import { pageTitle } from "~/components/layout/meta";
import { ActorName } from "~/components/audit/ActorName";
import { AuditErrorBoundary } from "~/components/audit/AuditForbidden";
import { ErasedNote } from "~/components/audit/ErasedNote";
import { PatientLookup } from "~/components/audit/PatientLookup";
import { positiveId } from "~/domain/ids";
import { ensureTexts, type TextsHandle } from "~/locale-files";
import { apiClient } from "~/server/api-client.server";
import { loadCaseHistoryPage } from "~/server/audit-pages.server";
import { requireUser } from "~/server/auth/guards.server";
import "~/components/audit/audit.css";

// The audit screens' texts are with the statistics' (decision 015).
export const handle: RouteHandle & TextsHandle = { backToList: true, texts: ["authoring"] };

export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const [loaded] = await Promise.all([serverLoader<typeof loader>(), ensureTexts(["authoring"])]);
  return loaded;
}

/** A case's answer history, for the survey's approvers; opening it is logged (decision 028). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = positiveId(params.surveyId);
  if (!id) throw redirect("/surveys");
  return loadCaseHistoryPage(request, apiClient(user.accessToken), id);
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  pageTitle(matches, "audit.history.pageTitle", { title: data?.survey.title ?? "" });

type Loaded = SerializeFrom<typeof loader>;
type QuestionRows = NonNullable<Loaded["questions"]>[number];

/** One question's values, oldest first: a table captioned with the question's title. */
function HistoryTable({ question, testId }: { question: QuestionRows; testId: string }) {
  const { t } = useTranslation();
  return (
    <div className="audit__table">
      <table data-testid={testId}>
        <caption>{question.title}</caption>
        <thead>
          <tr>
            <th scope="col">{t("audit.col.at")}</th>
            <th scope="col">{t("audit.col.value")}</th>
            <th scope="col">{t("audit.col.person")}</th>
            <th scope="col">{t("audit.col.source")}</th>
          </tr>
        </thead>
        <tbody>
          {question.entries.map((e) => (
            <tr key={e.key}>
              <td>
                <time dateTime={e.atIso}>{e.at}</time>
              </td>
              <td>{e.value ?? <em>{t("audit.history.noValue")}</em>}</td>
              <td>
                <ActorName actor={e.actor} />
              </td>
              <td>{t(`audit.source.${e.source}`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The case's submit and close, and its hand-overs: when, what and by whom (the patient, where they submitted). */
function CaseEvents({ events }: { events: NonNullable<Loaded["events"]> }) {
  const { t } = useTranslation();
  return (
    <>
      <h2>{t("audit.history.events")}</h2>
      <div className="audit__table">
        <table data-testid="history-events">
          <caption>{t("audit.history.eventsCaption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("audit.col.at")}</th>
              <th scope="col">{t("audit.col.action")}</th>
              <th scope="col">{t("audit.col.person")}</th>
            </tr>
          </thead>
          <tbody>
            {events.map((e) => (
              <tr key={e.id}>
                <td>
                  <time dateTime={e.atIso}>{e.at}</time>
                </td>
                <td>{t(caseEventKey(e.action, e.endedBy))}</td>
                <td>
                  <ActorName actor={e.actor} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <AuditErrorBoundary page="history" />;
}

export default function CaseHistoryPage() {
  const { survey, patientId, timeZone, preliminary, questions, signatures, events, erased } =
    useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="page audit" aria-labelledby="history-title">
      <h1 id="history-title">
        {questions || erased ? t("audit.history.titleFor", { patientId }) : t("audit.history.title")}
      </h1>
      <p className="audit__survey">{survey.title}</p>
      <nav className="audit__links" aria-label={t("audit.links")}>
        <Link to={`/survey/${survey.id}/statistics`}>{t("audit.toStatistics")}</Link>
        <Link to={`/survey/${survey.id}/trail`}>{t("audit.toTrail")}</Link>
        <Link to={`/survey/${survey.id}/data`}>{t("audit.toData")}</Link>
      </nav>
      <PatientLookup patientId={patientId} label={t("audit.history.lookup")} submit={t("audit.history.show")} />
      {erased ? <ErasedNote patientId={patientId} erased={erased} /> : null}
      {questions ? (
        <>
          <p className="audit__note">{t("audit.timeZoneNote", { zone: timeZone })}</p>
          {events && events.length > 0 ? <CaseEvents events={events} /> : null}
          {signatures && signatures.length > 0 ? (
            <>
              <h2>{t("audit.history.signatures")}</h2>
              <div className="audit__table">
                <table data-testid="history-signatures">
                  <caption>{t("audit.history.signaturesCaption")}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t("audit.col.at")}</th>
                      <th scope="col">{t("audit.col.signer")}</th>
                      <th scope="col">{t("audit.col.meaning")}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {signatures.map((s) => (
                      <tr key={s.id}>
                        <td>
                          <time dateTime={s.atIso}>{s.at}</time>
                        </td>
                        <td>{s.name}</td>
                        <td>{t(`audit.meaning.${s.meaning}`)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          ) : null}
          {questions.length === 0 && (preliminary?.length ?? 0) === 0 ? (
            <p className="notice" data-testid="history-empty">
              {t("audit.history.empty")}
            </p>
          ) : (
            <>
              {preliminary && preliminary.length > 0 ? (
                <>
                  <h2>{t("audit.history.preliminary")}</h2>
                  {preliminary.map((q) => (
                    <HistoryTable key={q.id} question={q} testId={`history-preliminary-${q.id}`} />
                  ))}
                  <h2>{t("audit.history.questions")}</h2>
                </>
              ) : null}
              {questions.map((q) => (
                <HistoryTable key={q.id} question={q} testId={`history-${q.id}`} />
              ))}
            </>
          )}
        </>
      ) : null}
    </section>
  );
}
