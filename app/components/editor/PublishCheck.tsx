import { useTranslation } from "react-i18next";
import { blocksPublishing, publishProblems, publishSummary, type PublishProblem } from "~/domain/publish-check";
import type { Survey } from "~/domain/survey";

function problemText(t: (key: string, options?: Record<string, unknown>) => string, problem: PublishProblem) {
  switch (problem.kind) {
    case "noTitle":
    case "noQuestion":
      return t(`publishCheck.${problem.kind}`);
    case "emptyCategory":
      return t("publishCheck.emptyCategory", { title: problem.category });
    default:
      return t(`publishCheck.${problem.kind}`, { title: problem.question });
  }
}

/**
 * The pre-publish check while a Draft is edited (the start tab): what keeps it from being published, each
 * with the way to where it is fixed, and what is only noted. The approver's publish dialog shows the same.
 */
export function DraftCheck({ survey }: { survey: Pick<Survey, "Title" | "Categories" | "PatientForm"> }) {
  const { t } = useTranslation();
  const problems = publishProblems(survey);
  const blocking = problems.filter(blocksPublishing);
  const notes = problems.filter((p) => !blocksPublishing(p));
  const item = (p: PublishProblem, i: number) => (
    <li key={i}>{p.kind === "noTitle" ? problemText(t, p) : <a href="#questionnaire">{problemText(t, p)}</a>}</li>
  );
  return (
    <section className="draft-check" aria-labelledby="draft-check-title" data-testid="draft-check">
      <h2 id="draft-check-title" className="field__label">
        {t("publishCheck.editorTitle")}
      </h2>
      {blocking.length > 0 ? (
        <>
          <p>{t("publishCheck.editorIntro")}</p>
          <ul data-testid="draft-problems">{blocking.map(item)}</ul>
        </>
      ) : (
        <p data-testid="draft-ready">{t("publishCheck.editorReady")}</p>
      )}
      {notes.length > 0 ? (
        <>
          <p>{t("publishCheck.editorNotes")}</p>
          <ul data-testid="draft-notes">{notes.map(item)}</ul>
        </>
      ) : null}
    </section>
  );
}

/** Whether the questionnaire tab holds something that keeps the survey from being published (its mark). */
export function questionnaireNeedsWork(survey: Pick<Survey, "Title" | "Categories" | "PatientForm">): boolean {
  return publishProblems(survey).some((p) => p.kind !== "noTitle" && blocksPublishing(p));
}

/** Whether the survey may be published as it stands (the server checks the same). */
export function canPublish(survey: Pick<Survey, "Title" | "Categories" | "PatientForm">): boolean {
  return !publishProblems(survey).some(blocksPublishing);
}

/**
 * The pre-publish check shown in the publish confirmation: every problem (those that keep it from being
 * published first) and what is being released.
 */
export function PublishCheck({ survey }: { survey: Pick<Survey, "Title" | "Categories" | "PatientForm"> }) {
  const { t } = useTranslation();
  const problems = publishProblems(survey);
  const blocking = problems.filter(blocksPublishing);
  const notes = problems.filter((p) => !blocksPublishing(p));
  const summary = publishSummary(survey);
  return (
    <div className="publish-check" data-testid="publish-check">
      {blocking.length > 0 ? (
        <div role="alert">
          <p className="field__error">{t("publishCheck.blocked", { count: blocking.length })}</p>
          <ul data-testid="publish-problems">
            {blocking.map((p, i) => (
              <li key={i}>{problemText(t, p)}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {notes.length > 0 ? (
        <ul className="publish-check__notes" data-testid="publish-notes">
          {notes.map((p, i) => (
            <li key={i}>{problemText(t, p)}</li>
          ))}
        </ul>
      ) : null}
      <p data-testid="publish-summary">
        {t("publishCheck.summary", {
          categories: t("publishCheck.categories", { count: summary.categories }),
          questions: t("publishCheck.questions", { count: summary.questions }),
          rules: t("publishCheck.rules", { count: summary.rules }),
          preliminary: t("publishCheck.preliminary", { count: summary.preliminaryQuestions }),
        })}
      </p>
    </div>
  );
}
