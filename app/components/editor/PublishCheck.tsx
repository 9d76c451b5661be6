import type { TFunction } from "~/i18n";
import { useTranslation } from "~/texts";
import { languageName } from "~/domain/content-languages";
import { blocksPublishing, publishProblems, publishSummary, type PublishProblem } from "~/domain/publish-check";
import { textPlace } from "./languages/place";

type Checked = Parameters<typeof publishProblems>[0];

function problemText(t: TFunction, problem: PublishProblem, uiLanguage: string): string {
  switch (problem.kind) {
    case "untranslated":
      return t("publishCheck.untranslated", {
        language: languageName(problem.language, uiLanguage),
        count: problem.count,
        first: problem.first.map((text) => textPlace(t, text)).join(", "),
      });
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
export function DraftCheck({ survey }: { survey: Checked }) {
  const { t, i18n } = useTranslation();
  const problems = publishProblems(survey);
  const blocking = problems.filter(blocksPublishing);
  const notes = problems.filter((p) => !blocksPublishing(p));
  const item = (p: PublishProblem, i: number) => (
    <li key={i}>
      {p.kind === "noTitle" ? (
        problemText(t, p, i18n.language)
      ) : (
        <a href={p.kind === "untranslated" ? "#languages" : "#questionnaire"}>{problemText(t, p, i18n.language)}</a>
      )}
    </li>
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
export function questionnaireNeedsWork(survey: Checked): boolean {
  return publishProblems(survey).some((p) => p.kind !== "noTitle" && blocksPublishing(p));
}

/** Whether the survey may be published as it stands (the server checks the same). */
export function canPublish(survey: Checked): boolean {
  return !publishProblems(survey).some(blocksPublishing);
}

/**
 * The pre-publish check shown in the publish confirmation: every problem (those that keep it from being
 * published first) and what is being released.
 */
export function PublishCheck({ survey }: { survey: Checked }) {
  const { t, i18n } = useTranslation();
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
              <li key={i}>{problemText(t, p, i18n.language)}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {notes.length > 0 ? (
        <ul className="publish-check__notes" data-testid="publish-notes">
          {notes.map((p, i) => (
            <li key={i}>{problemText(t, p, i18n.language)}</li>
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
