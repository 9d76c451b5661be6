import { useTranslation } from "react-i18next";

export type LinkProblemKind = "invalid" | "expired" | "used" | "revoked" | "unavailable" | "limited";

/**
 * What a patient sees when their link does not open (decision 057): which way it is invalid where the link
 * exists, only "not valid" for a wrong one, and what to do.
 */
export function LinkProblem({ problem }: { problem: LinkProblemKind }) {
  const { t } = useTranslation();
  return (
    <section className="page page--narrow link-page" aria-labelledby="link-problem-title" data-link-problem={problem}>
      <h1 id="link-problem-title">{t(`patientLink.problem.${problem}.title`)}</h1>
      <p>{t(`patientLink.problem.${problem}.text`)}</p>
      {problem === "invalid" ? (
        <p>
          <a className="btn btn--primary link-page__action" href="/l">
            {t("patientLink.enterCode")}
          </a>
        </p>
      ) : null}
    </section>
  );
}
