import { Form } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Modal } from "~/components/ui/Modal";
import type { PreliminaryAnswers } from "~/domain/answers";
import type { PatientFormAttribute } from "~/domain/survey";

interface PreliminaryPageProps {
  attributes: PatientFormAttribute[];
  answers: PreliminaryAnswers;
  failed: ReadonlySet<number>;
  onAnswer: (attributeId: number, optionId: number) => void;
  hydrated: boolean;
  preview: boolean;
  /** Without JavaScript: continue was chosen with questions unanswered (the action said so). */
  incomplete: boolean;
  /** Where the form posts without JavaScript (this page's own address). */
  action: string;
  onBack: () => void;
  onContinue: () => void;
  /** Save and leave: asks for confirmation, then goes to the outro (section 4). */
  onSave: () => void;
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
  action,
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
          <span
            className="fill-question__failed"
            role="img"
            aria-label={t("fill.saveFailed")}
            title={t("fill.saveFailed")}
          >
            ⚠
          </span>
        ) : null}
      </legend>
      <div className="choices">
        {a.AnswerOptions.map((o) => (
          <label key={o.Id} className={`choice${answers[a.Id] === o.Id ? " choice--checked" : ""}`}>
            <input
              type="radio"
              name={`a${a.Id}`}
              value={o.Id}
              checked={answers[a.Id] === o.Id}
              onChange={() => onAnswer(a.Id, o.Id)}
            />
            <span>{o.Text}</span>
          </label>
        ))}
      </div>
    </fieldset>
  ));

  if (!hydrated) {
    return (
      <Form method="post" action={action} className="fill-preliminary">
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
    );
  }
  return (
    <div className="fill-preliminary">
      {body}
      <div className="fill-actions">
        <button type="button" className="btn" onClick={onBack}>
          {t("fill.back")}
        </button>
        <button type="button" className="btn" onClick={() => setConfirm(true)}>
          {t("fill.save")}
        </button>
        <button type="button" className="btn btn--primary" disabled={!canContinue} onClick={onContinue}>
          {t("fill.continue")}
        </button>
      </div>
      {!canContinue ? <p className="hint">{t("fill.answerAllPreliminary")}</p> : null}
      <Modal
        open={confirm}
        title={t("fill.saveTitle")}
        size="s"
        onClose={() => setConfirm(false)}
        footer={
          <>
            <button type="button" className="btn" onClick={() => setConfirm(false)}>
              {t("surveys.cancel")}
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
