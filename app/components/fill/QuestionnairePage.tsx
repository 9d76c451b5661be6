import { Form } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { focusHeading } from "~/components/layout/page-focus";
import { useTranslation } from "~/texts";
import type { AnswerValue, Answers } from "~/domain/answers";
import type { Category, Question } from "~/domain/survey";
import type { CategoryStatus } from "~/domain/category-status";
import { CategorySidebar } from "./CategorySidebar";
import type { PageProblems, ValueProblem } from "~/domain/page-problems";
import { answerText } from "~/domain/answer-text";
import { surveyQuestions } from "~/domain/visibility";
import { ConfirmDialog } from "~/components/ui/ConfirmDialog";
import { QuestionBlock } from "./QuestionBlock";
import type { SaveState } from "./save-queue";

export interface QuestionnairePageProps {
  categories: Category[];
  current: Category;
  answers: Answers;
  statuses: Record<number, CategoryStatus>;
  isVisible: (q: Question) => boolean;
  subQuestionsOf: (q: Question) => Question[];
  failed: ReadonlySet<number>;
  /** Whether each changed answer is being saved or is kept (not in preview). */
  states?: ReadonlyMap<number, SaveState>;
  onAnswer: (q: Question, v: AnswerValue | undefined, typing?: boolean) => void;
  hydrated: boolean;
  /** Without JavaScript: typed values the form's action refused, by question. */
  problems?: Record<number, ValueProblem>;
  /** Without JavaScript: a question's answer that ends the survey, sent and waiting for its confirmation. */
  exitAsked?: PageProblems["questionExit"];
  formKey?: string;
  hrefOf: (categoryId: number) => string;
  onPick: (categoryId: number) => void;
  /** None where the way back is not the person's (a patient handed the device, before the questionnaire). */
  onBack?: () => void;
  onSubmit: () => void;
  /** Without JavaScript: a patient's submit while questions are unanswered, waiting for its confirmation. */
  submitOpen?: boolean;
  attachments?: (q: Question) => React.ReactNode;
  /** The editor's preview: each question's number as the editor shows it. */
  numbers?: ReadonlyMap<number, string>;
}

/** The category sidebar, the questions of the chosen category, next category, submit and back (section 2). */
export function QuestionnairePage(props: QuestionnairePageProps) {
  const { t } = useTranslation();
  const { categories, current, statuses, hydrated } = props;
  const action = props.hrefOf(current.Id);
  const allComplete = categories.every((c) => statuses[c.Id] === "complete");
  const index = categories.findIndex((c) => c.Id === current.Id);
  const next = categories[(index + 1) % categories.length];
  const visible = current.Questions.filter(props.isVisible);

  const questions = visible.map((q) => (
    <QuestionBlock
      key={q.Id}
      question={q}
      answers={props.answers}
      subQuestionsOf={props.subQuestionsOf}
      failed={props.failed}
      states={props.states}
      onAnswer={props.onAnswer}
      named={!hydrated}
      problems={props.problems}
      attachments={props.attachments}
      numbers={props.numbers}
    />
  ));

  // Another category (the sidebar, "Nächste Kategorie"): focus goes to its heading, so that a screen reader
  // says which category this is before its first question, which the next Tab reaches.
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = useRef(current.Id);
  useEffect(() => {
    if (shown.current === current.Id) return;
    shown.current = current.Id;
    focusHeading(heading.current, true);
  }, [current.Id]);

  return (
    <div className="fill-questionnaire">
      <CategorySidebar
        categories={categories}
        statuses={statuses}
        current={current.Id}
        hrefOf={props.hrefOf}
        onPick={props.onPick}
      />
      <div className="fill-questionnaire__main">
        <h2 ref={heading} className="fill-category-title">
          {current.Title}
        </h2>
        {visible.length === 0 ? <p className="empty">{t("fill.noQuestionsVisible")}</p> : null}
        {/* One form element either way: the page running keeps the questions' elements it was drawn with.
            Without JavaScript it posts the page; with it, each answer is saved as given and it never posts. */}
        <Form
          method="post"
          action={action}
          encType="multipart/form-data"
          className="fill-questions"
          id="page-form"
          onSubmit={hydrated ? (event) => event.preventDefault() : undefined}
        >
          {hydrated ? null : (
            <>
              {/* Enter in a field saves and stays: the first submit button is the form's default. */}
              <button
                type="submit"
                name="go"
                value="stay"
                className="visually-hidden"
                tabIndex={-1}
                aria-hidden="true"
              />
              <input type="hidden" name="intent" value="savePage" />
              <input type="hidden" name="categoryId" value={current.Id} />
              {props.formKey ? <input type="hidden" name="formKey" value={props.formKey} /> : null}
            </>
          )}
          {questions}
        </Form>
        {hydrated ? null : <ExitAsked exit={props.exitAsked} categories={categories} action={action} />}
        {hydrated || !props.submitOpen ? null : (
          // Confirmed, the case closes; no answer is sent with it (the page's were saved when it was asked).
          <ConfirmDialog
            open
            title={t("fill.submitOpenTitle")}
            confirmLabel={t("fill.submitOpenConfirm")}
            cancelLabel={t("fill.submitOpenContinue")}
            cancelHref={action}
            action={action}
            fields={{ intent: "savePage", go: "submitAnyway", categoryId: String(current.Id) }}
            danger
          >
            <p>{t("fill.submitOpenText")}</p>
          </ConfirmDialog>
        )}
        <div className="fill-actions">
          {!props.onBack ? null : hydrated ? (
            <button type="button" className="btn" onClick={props.onBack}>
              {t("fill.back")}
            </button>
          ) : (
            <button type="submit" className="btn" form="page-form" name="go" value="back">
              {t("fill.back")}
            </button>
          )}
          {!hydrated ? (
            <button type="submit" className="btn" form="page-form" name="go" value="stay">
              {t("fill.save")}
            </button>
          ) : null}
          {!allComplete && categories.length > 1 ? (
            hydrated ? (
              <button type="button" className="btn" onClick={() => props.onPick(next.Id)}>
                {t("fill.nextCategory")}
              </button>
            ) : (
              <button type="submit" className="btn" form="page-form" name="go" value={`category:${next.Id}`}>
                {t("fill.nextCategory")}
              </button>
            )
          ) : null}
          {hydrated ? (
            <button
              type="button"
              className={`btn${allComplete ? " btn--primary" : ""}`}
              onClick={props.onSubmit}
              data-testid="submit-survey"
            >
              {t("fill.submit")}
            </button>
          ) : (
            <button
              type="submit"
              className={`btn${allComplete ? " btn--primary" : ""}`}
              form="page-form"
              name="go"
              value="submit"
              data-testid="submit-survey"
            >
              {t("fill.submit")}
            </button>
          )}
        </div>
      </div>
    </div>
  );
}

/**
 * Without JavaScript: the question's answer that ends the survey, sent with the page, is confirmed by a form of
 * its own (saved, and the case ends), or not taken: back to the page as it was saved.
 */
function ExitAsked(props: { exit?: PageProblems["questionExit"]; categories: Category[]; action: string }) {
  const { t } = useTranslation();
  const exit = props.exit;
  const question = exit
    ? surveyQuestions({ Categories: props.categories }).find((q) => q.Id === exit.questionId)
    : undefined;
  const option = question?.AnswerOptions.find((o) => o.IsExitAnswer && exit?.optionIds.includes(o.Id));
  if (!exit || !option) return null;
  return (
    <ConfirmDialog
      open
      title={t("fill.exitTitle")}
      confirmLabel={t("fill.exitConfirm")}
      cancelLabel={t("fill.exitReject")}
      cancelHref={props.action}
      action={props.action}
      fields={{
        intent: "savePage",
        go: "exit",
        questionIds: String(exit.questionId),
        [`q${exit.questionId}`]: exit.optionIds.map(String),
      }}
      danger
    >
      <p>{t("fill.exitText", { answer: answerText(option) })}</p>
    </ConfirmDialog>
  );
}
