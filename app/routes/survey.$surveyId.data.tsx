import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { useTranslation } from "~/texts";
import type { RouteHandle } from "~/components/layout/Header";
import { pageTitle } from "~/components/layout/meta";
import { AuditErrorBoundary } from "~/components/audit/AuditForbidden";
import { PatientLookup } from "~/components/audit/PatientLookup";
import { PatientDataView } from "~/components/audit/PatientDataView";
import { ErasedNote } from "~/components/audit/ErasedNote";
import { ConfirmDialog } from "~/components/ui/ConfirmDialog";
import { Choice } from "~/components/ui/Field";
import { ERASURE_REASONS } from "~/domain/erasure";
import { positiveId } from "~/domain/ids";
import { ensureTexts, type TextsHandle } from "~/locale-files";
import { apiClient } from "~/server/api-client.server";
import { requireUser } from "~/server/auth/guards.server";
import { erasePatientData, loadPatientDataPage } from "~/server/patient-data-page.server";
import { redirect } from "~/server/responses.server";
import "~/components/audit/audit.css";

export const handle: RouteHandle & TextsHandle = { backToList: true, texts: ["authoring"] };

export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const [loaded] = await Promise.all([serverLoader<typeof loader>(), ensureTexts(["authoring"])]);
  return loaded;
}

/** A patient id's data, printable, with its download and erasure (docs/decisions/042-retention-and-erasure.md). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = positiveId(params.surveyId);
  if (!id) throw redirect("/surveys");
  return loadPatientDataPage(request, apiClient(user.accessToken), id);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const id = positiveId(params.surveyId);
  if (!id) throw redirect("/surveys");
  return erasePatientData(request, apiClient(user.accessToken), id);
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  pageTitle(matches, "dataProtection.pageTitle", { title: data?.survey.title ?? "" });

export function ErrorBoundary() {
  return <AuditErrorBoundary page="history" />;
}

export default function PatientDataPage() {
  const { survey, patientId, timeZone, data, confirm, erased } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const here = `/survey/${survey.id}/data`;
  const self = `${here}?patientId=${encodeURIComponent(patientId)}`;
  return (
    <section className="page audit patient-data" aria-labelledby="data-title">
      <h1 id="data-title">
        {data || erased ? t("dataProtection.titleFor", { patientId }) : t("dataProtection.title")}
      </h1>
      <p className="audit__survey">{survey.title}</p>
      <nav className="audit__links no-print" aria-label={t("audit.links")}>
        <Link to={`/survey/${survey.id}/history`}>{t("audit.toHistory")}</Link>
        <Link to={`/survey/${survey.id}/trail`}>{t("audit.toTrail")}</Link>
      </nav>
      <PatientLookup patientId={patientId} label={t("dataProtection.lookup")} submit={t("dataProtection.show")} />
      {erased ? <ErasedNote patientId={patientId} erased={erased} /> : null}
      {data ? (
        <>
          <div className="patient-data__actions no-print">
            <button type="button" className="btn" onClick={() => window.print()}>
              {t("dataProtection.print")}
            </button>
            <a className="btn" href={`${here}/download?patientId=${encodeURIComponent(patientId)}`} download>
              {t("dataProtection.download")}
            </a>
          </div>
          <PatientDataView data={data} timeZone={timeZone} />
          <Form method="get" className="patient-data__erase no-print" aria-labelledby="erase-title">
            <h2 id="erase-title">{t("dataProtection.eraseTitle")}</h2>
            <input type="hidden" name="patientId" value={patientId} />
            <fieldset>
              <legend>{t("dataProtection.reason")}</legend>
              {ERASURE_REASONS.map((reason, i) => (
                <Choice key={reason} id={`erase-reason-${reason}`} label={t(`dataProtection.reasons.${reason}`)}>
                  <input
                    id={`erase-reason-${reason}`}
                    type="radio"
                    name="erase"
                    value={reason}
                    defaultChecked={i === 0}
                    required
                  />
                </Choice>
              ))}
            </fieldset>
            <button type="submit" className="btn btn--danger" data-testid="erase-open">
              {t("dataProtection.erase")}
            </button>
          </Form>
        </>
      ) : null}
      {confirm ? (
        <ConfirmDialog
          open
          title={t("dataProtection.confirmTitle", { patientId })}
          confirmLabel={t("dataProtection.confirm")}
          cancelLabel={t("dataProtection.cancel")}
          cancelHref={self}
          fields={{ intent: "erase", patientId, reason: confirm.reason }}
          danger
        >
          <p>{t("dataProtection.confirmGoes")}</p>
          <ul data-testid="erase-what">
            <li>{t("dataProtection.goesAnswers", { count: confirm.preview.Answers })}</li>
            <li>{t("dataProtection.goesPreliminary", { count: confirm.preview.PreliminaryAnswers })}</li>
            <li>{t("dataProtection.goesFiles", { count: confirm.preview.Attachments })}</li>
            <li>{t("dataProtection.goesSignatures", { count: confirm.preview.Signatures })}</li>
            <li>{t("dataProtection.goesTrail")}</li>
          </ul>
          <p>{t("dataProtection.confirmKept", { reason: t(`dataProtection.reasons.${confirm.reason}`) })}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
