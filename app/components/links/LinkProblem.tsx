import { useTranslation } from "~/texts";
import { FillLanguage } from "~/components/fill/FillLanguage";
import type { ContentLanguage } from "~/domain/languages";

export type LinkProblemKind = "invalid" | "expired" | "used" | "revoked" | "unavailable" | "limited";

/**
 * What a patient sees when their link does not open (decision 057): which way it is invalid where the link
 * exists, only "not valid" for a wrong one, and what to do: in the case's language where the link exists
 * (right to left for Arabic), a wrong link's in the patient's (their browser's, or chosen on /l); without a
 * language, inside a page that already says its own.
 */
export function LinkProblem({ problem, language }: { problem: LinkProblemKind; language?: ContentLanguage | null }) {
  if (!language) {
    return (
      <section className="page page--narrow link-page" aria-labelledby="link-problem-title">
        <Words problem={problem} language={null} />
      </section>
    );
  }
  return (
    <FillLanguage lang={language} className="page page--narrow link-page">
      <Words problem={problem} language={language} />
    </FillLanguage>
  );
}

function Words({ problem, language }: { problem: LinkProblemKind; language: ContentLanguage | null }) {
  const { t } = useTranslation();
  return (
    <div data-link-problem={problem}>
      <h1 id="link-problem-title">{t(`patientLink.problem.${problem}.title`)}</h1>
      <p>{t(`patientLink.problem.${problem}.text`)}</p>
      {problem === "invalid" ? (
        <p>
          <a className="btn btn--primary link-page__action" href={language ? `/l?lang=${language}` : "/l"}>
            {t("patientLink.enterCode")}
          </a>
        </p>
      ) : null}
    </div>
  );
}
