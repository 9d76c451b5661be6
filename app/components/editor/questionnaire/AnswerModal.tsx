import { Field } from "~/components/ui/Field";
import { answerOptionsApi } from "~/contracts/answer-options";
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "~/texts";
import { FormModal } from "~/components/ui/FormModal";
import { weightingStates } from "~/domain/editing";
import { AnswerFormSchema } from "~/domain/editor-forms";
import { parseForm } from "~/domain/forms";
import type { AnswerOption, Question, Survey } from "~/domain/survey";
import { IN_PLACE, useEditorMutation } from "../editor-api";
import {
  chooseWeight,
  chooseWeightingState,
  initialAnswerDraft,
  updateAnswerBody,
  type AnswerDraft,
  type WeightingState,
} from "./answer-form";

interface AnswerModalProps {
  open: boolean;
  survey: Survey;
  question: Question;
  /** The answer to edit (new answers are added on the question's card). */
  answer: AnswerOption;
  onClose: () => void;
}

/**
 * Edit an answer of a question (or an image question's marker): text, exit answer, its score in the
 * instrument (docs/decisions/051-instrument-scores.md) and, for a test question, its weighting (section 5).
 */
export function AnswerModal(props: AnswerModalProps) {
  // Each opening starts from the answer's saved values.
  return props.open ? <AnswerForm {...props} /> : null;
}

const states: { value: WeightingState; label: string }[] = [
  { value: weightingStates.correct, label: "questionModal.correct" },
  { value: weightingStates.notCorrect, label: "questionModal.notCorrect" },
  { value: weightingStates.notWeighted, label: "questionModal.notWeighted" },
];

const constraint = getZodConstraint(AnswerFormSchema);

function AnswerForm({ survey, question, answer, onClose }: AnswerModalProps) {
  const { t, i18n } = useTranslation();
  const mutate = useEditorMutation();
  const id = useId();
  // The text and the score are the form's fields, checked by its schema; the choices below cannot be wrong.
  const [draft, setDraft] = useState<AnswerDraft>(() => initialAnswerDraft(answer, i18n.language));
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const textRef = useRef<HTMLInputElement>(null);
  const correct = draft.state === weightingStates.correct;
  const [form, fields] = useForm({
    defaultValue: { text: draft.text, score: draft.score },
    constraint,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseForm(formData, AnswerFormSchema),
    onSubmit: (event, { submission }) => {
      // Saved through the API from the page (section 7), not posted.
      event.preventDefault();
      setFailure(null);
      if (submission?.status === "success") void submit(submission.value.text, submission.value.score ?? "");
    },
  });
  const { key: textKey, ...textInput } = getInputProps(fields.text, { type: "text" });
  const textError = fields.text.errors?.[0];
  const { key: scoreKey, ...scoreInput } = getInputProps(fields.score, {
    type: "text",
    ariaDescribedBy: fields.score.descriptionId,
  });
  const scoreError = fields.score.errors?.[0];

  useEffect(() => textRef.current?.focus(), []);

  const submit = async (text: string, score: string) => {
    const body = updateAnswerBody(question, answer, { ...draft, text, score }, survey.Id);
    if (!body) return onClose();
    setBusy(true);
    const result = await mutate(
      answerOptionsApi.update,
      { params: { id: answer.Id }, body },
      "questionModal.answerSaved",
      IN_PLACE,
    );
    setBusy(false);
    if (result.ok) onClose();
    else setFailure(result.words);
  };

  return (
    <FormModal
      size="s"
      title={t("questionModal.answerEditTitle")}
      onClose={onClose}
      form={getFormProps(form)}
      busy={busy}
      className="qmodal"
      testId="answer-form"
    >
      {failure ? (
        <p className="field__error" role="alert" data-testid="answer-failure">
          {failure}
        </p>
      ) : null}
      <Field
        id={fields.text.id}
        errorId={fields.text.errorId}
        label={t("questionModal.answerText")}
        error={textError ? t(textError) : null}
      >
        <input key={textKey} ref={textRef} className="input" {...textInput} />
      </Field>
      <label className="choice">
        <input
          type="checkbox"
          checked={draft.exit}
          aria-describedby={`${id}-exit-hint`}
          onChange={(e) => setDraft((d) => ({ ...d, exit: e.target.checked }))}
        />
        {t("questionModal.exitAnswer")}
      </label>
      <span id={`${id}-exit-hint`} className="hint">
        {t("questionModal.exitAnswerHint")}
      </span>
      <Field
        id={fields.score.id}
        errorId={fields.score.errorId}
        hintId={fields.score.descriptionId}
        label={t("questionModal.score")}
        hint={t("questionModal.scoreHint")}
        error={scoreError ? t(scoreError) : null}
      >
        <input key={scoreKey} className="input qmodal__score" inputMode="decimal" autoComplete="off" {...scoreInput} />
      </Field>
      {question.IsTestQuestion ? (
        <>
          <fieldset className="choice-list">
            <legend className="field__label">{t("questionModal.weighting")}</legend>
            {states.map((s) => (
              <label key={s.value} className="choice">
                <input
                  type="radio"
                  name={`${id}-state`}
                  value={s.value}
                  checked={draft.state === s.value}
                  onChange={() => setDraft((d) => chooseWeightingState(d, s.value))}
                />
                {t(s.label)}
              </label>
            ))}
          </fieldset>
          <fieldset
            className="choice-list"
            disabled={!correct}
            aria-describedby={!correct ? `${id}-weight-hint` : undefined}
          >
            <legend className="field__label">{t("questionModal.weight")}</legend>
            <div className="qmodal__inline">
              {[1, 2, 3].map((w) => (
                <label key={w} className="choice">
                  <input
                    type="radio"
                    name={`${id}-weight`}
                    value={w}
                    checked={draft.weight === w}
                    onChange={() => setDraft((d) => chooseWeight(d, w))}
                  />
                  {w}
                </label>
              ))}
            </div>
            {!correct ? (
              <span id={`${id}-weight-hint`} className="hint">
                {t("questionModal.weightHint")}
              </span>
            ) : null}
          </fieldset>
        </>
      ) : null}
    </FormModal>
  );
}
