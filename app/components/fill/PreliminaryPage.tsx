import { Form } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "~/texts";
import { ConfirmDialog } from "~/components/ui/ConfirmDialog";
import { Modal } from "~/components/ui/Modal";
import type { PreliminaryAnswers } from "~/domain/answers";
import type { PageProblems } from "~/domain/page-problems";
import type { PatientFormAttribute } from "~/domain/survey";
import { useChoiceGroup } from "./useChoiceGroup";

interface PreliminaryPageProps {
  attributes: PatientFormAttribute[];
  answers: PreliminaryAnswers;
  failed: ReadonlySet<number>;
  /** An answer chosen; one that ends the survey asks first (FillFlow). */
  onAnswer: (attributeId: number, optionId: number) => void;
  hydrated: boolean;
  preview: boolean;
  /** Without JavaScript: continue was chosen with questions unanswered (the action said so). */
  incomplete: boolean;
  /** Without JavaScript: an answer that ends the survey was sent, and waits for its confirmation. */
  exitAsked?: PageProblems["exit"];
  /** Where the form posts without JavaScript (this page's own address). */
  action: string;
  formKey?: string;
  /** None where the preliminary questions are the case's first page. */
  onBack?: () => void;
  onContinue: () => void;
  /** Save and leave: asks for confirmation, then goes to the outro (section 4). */
  onSave: () => void;
}

/** The single choice is the person's, as in every group of answers (docs/decisions/039-keyboard-and-focus.md). */
const SINGLE = { Type: "SingleSelection", AllowMultipleAnswers: false } as const;

/**
 * One preliminary question's answers. The arrow keys pass over an answer that ends the survey, as in a question;
 * a preliminary answer is changed, never emptied (choosing the chosen answer again keeps it).
 */
function PreliminaryChoices({
  attribute,
  chosen,
  onAnswer,
}: {
  attribute: PatientFormAttribute;
  chosen: number | undefined;
  onAnswer: (optionId: number) => void;
}) {
  const { t } = useTranslation();
  const value = chosen === undefined ? undefined : { AnswerOptionIds: [chosen] };
  const { group, option } = useChoiceGroup(SINGLE, value, (next) => {
    const id = next?.AnswerOptionIds?.[0];
    if (id !== undefined) onAnswer(id);
  });
  const exitHint = `a-${attribute.Id}-exit-hint`;
  return (
    <div className="choices" {...group}>
      {attribute.AnswerOptions.map((o) => {
        const { checked, ...handlers } = option(o);
        return (
          <label key={o.Id} className={`choice${checked ? " choice--checked" : ""}`}>
            <input
              type="radio"
              name={`a${attribute.Id}`}
              value={o.Id}
              checked={checked}
              aria-describedby={o.IsExitAnswer ? exitHint : undefined}
              {...handlers}
            />
            <span>{o.Text}</span>
            {o.IsExitAnswer ? <span className="choice__exit">{t("fill.endsSurvey")}</span> : null}
          </label>
        );
      })}
      {attribute.AnswerOptions.some((o) => o.IsExitAnswer) ? (
        <span id={exitHint} className="visually-hidden">
          {t("fill.endsSurveyHint")}
        </span>
      ) : null}
    </div>
  );
}

/** The patient-identification questions; continue is enabled only when every one is answered (section 5). */
export function PreliminaryPage({
  attributes,
  answers,
  failed,
  onAnswer,
  hydrated,
  preview,
  incomplete,
  exitAsked,
  action,
  formKey,
  onBack,
  onContinue,
  onSave,
}: PreliminaryPageProps) {
  const { t } = useTranslation();
  const [confirm, setConfirm] = useState(false);
  const complete = attributes.every((a) => answers[a.Id] !== undefined);
  const canContinue = preview || complete;
  const hintId = "preliminary-hint";
  // Without JavaScript the unanswered questions are marked once continue was refused.
  const missing = (id: number) => incomplete && !hydrated && answers[id] === undefined;
  const body = attributes.map((a) => (
    <fieldset
      key={a.Id}
      className="fill-question"
      data-testid="preliminary-question"
      aria-invalid={missing(a.Id) || undefined}
      aria-describedby={missing(a.Id) ? hintId : undefined}
    >
      <legend className="fill-question__title">
        {a.Title}
        {failed.has(a.Id) ? (
          <span className="fill-question__failed" role="img" title={t("fill.saveFailed")}>
            ⚠
          </span>
        ) : null}
      </legend>
      <PreliminaryChoices attribute={a} chosen={answers[a.Id]} onAnswer={(o) => onAnswer(a.Id, o)} />
    </fieldset>
  ));
  // The answer that ends the survey, sent without JavaScript: confirmed by a form of its own, or not taken.
  const exitOption = exitAsked
    ? attributes.find((a) => a.Id === exitAsked.attributeId)?.AnswerOptions.find((o) => o.Id === exitAsked.optionId)
    : undefined;
  const exitDialog =
    exitAsked && exitOption ? (
      <ConfirmDialog
        open
        title={t("fill.exitTitle")}
        confirmLabel={t("fill.exitConfirm")}
        cancelLabel={t("fill.exitReject")}
        cancelHref={action}
        action={action}
        fields={{
          intent: "savePreliminary",
          go: "exit",
          [`a${exitAsked.attributeId}`]: String(exitAsked.optionId),
          ...(formKey ? { formKey } : {}),
        }}
        danger
      >
        <p>{t("fill.exitText", { answer: exitOption.Text })}</p>
      </ConfirmDialog>
    ) : null;

  if (!hydrated) {
    return (
      <>
        <Form method="post" action={action} className="fill-preliminary" id="page-form">
          <input type="hidden" name="intent" value="savePreliminary" />
          {body}
          <div className="fill-actions">
            <button type="submit" className="btn" name="go" value="back">
              {t("fill.back")}
            </button>
            <button type="submit" className="btn" name="go" value="outro">
              {t("fill.save")}
            </button>
            <button type="submit" className="btn btn--primary" name="go" value="continue">
              {t("fill.continue")}
            </button>
          </div>
          {incomplete ? (
            <p className="field__error" role="alert" id={hintId}>
              {t("fill.answerAllPreliminary")}
            </p>
          ) : (
            <p className="hint">{t("fill.answerAllPreliminary")}</p>
          )}
        </Form>
        {exitDialog}
      </>
    );
  }
  return (
    <div className="fill-preliminary">
      {body}
      <div className="fill-actions">
        {onBack ? (
          <button type="button" className="btn" onClick={onBack}>
            {t("fill.back")}
          </button>
        ) : null}
        <button type="button" className="btn" onClick={() => setConfirm(true)}>
          {t("fill.save")}
        </button>
        {/* Not yet: still reachable by keyboard, and says why (a disabled button is skipped and says nothing). */}
        <button
          type="button"
          className="btn btn--primary"
          aria-disabled={!canContinue || undefined}
          aria-describedby={canContinue ? undefined : "preliminary-why"}
          onClick={canContinue ? onContinue : undefined}
        >
          {t("fill.continue")}
        </button>
      </div>
      {!canContinue ? (
        <p className="hint" id="preliminary-why">
          {t("fill.answerAllPreliminary")}
        </p>
      ) : null}
      {exitDialog}
      <Modal
        open={confirm}
        title={t("fill.saveTitle")}
        size="s"
        onClose={() => setConfirm(false)}
        footer={
          <>
            <button type="button" className="btn" onClick={() => setConfirm(false)}>
              {t("fill.cancel")}
            </button>
            <button
              type="button"
              className="btn btn--primary"
              autoFocus
              onClick={() => {
                setConfirm(false);
                onSave();
              }}
            >
              {t("fill.save")}
            </button>
          </>
        }
      >
        <p>{t("fill.saveConfirm")}</p>
      </Modal>
    </div>
  );
}
