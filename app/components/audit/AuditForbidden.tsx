import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { useTranslation } from "~/texts";

interface Forbidden {
  forbidden: true;
  survey: { id: number; title: string; canEdit: boolean };
}

function isForbidden(data: unknown): data is Forbidden {
  return typeof data === "object" && data !== null && (data as { forbidden?: unknown }).forbidden === true;
}

/**
 * The error boundary of the audit pages: a person who may not see this page of this survey (only its
 * approvers may) reads why, with the way back to the survey; any other error goes to the app's own boundary.
 */
export function AuditErrorBoundary({ page }: { page: "trail" | "history" }) {
  const error = useRouteError();
  const { t } = useTranslation();
  if (!isRouteErrorResponse(error) || error.status !== 403 || !isForbidden(error.data)) throw error;
  const { survey } = error.data;
  return (
    <section className="page page--narrow" aria-labelledby="audit-forbidden-title">
      <h1 id="audit-forbidden-title">{t(`auditForbidden.${page}.title`)}</h1>
      <p data-testid="audit-forbidden">{t(`auditForbidden.${page}.text`, { title: survey.title })}</p>
      <p className="actions">
        <Link className="btn btn--primary" to={survey.canEdit ? `/survey/${survey.id}/edit` : `/survey/${survey.id}`}>
          {t("auditForbidden.toSurvey")}
        </Link>{" "}
        <Link className="btn" to="/surveys">
          {t("notFound.toList")}
        </Link>
      </p>
    </section>
  );
}
