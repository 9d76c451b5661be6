import { refusalKey } from "~/api-client";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormModal } from "~/components/ui/FormModal";
import { editingLimits } from "~/domain/editing";
import type { Survey } from "~/domain/survey";
import { useEditorMutation } from "../editor-api";
import { EntryList } from "../EntryList";
import type { QuestionModalMode } from "./context";
import { DependenceField } from "./DependenceField";
import { ImageMarkersField } from "./ImageMarkersField";
import type { MarkerDraft } from "./markers";
import {
  createQuestionBody,
  initialQuestionDraft,
  questionFeatures,
  questionTypeOf,
  updateQuestionBody,
  validateQuestion,
  type QuestionDraft,
  type QuestionErrors,
} from "./question-form";

interface QuestionModalProps {
  open: boolean;
  survey: Survey;
  mode: QuestionModalMode;
  onClose: () => void;
}

/** Add a question (to a category or under an answer) or edit one: section 2 options, section 5 rules. */
export function QuestionModal(props: QuestionModalProps) {
  // Each opening starts from the question's saved values.
  return props.open ? <QuestionForm {...props} /> : null;
}

/** The id of the field to focus for the first error. */
function firstInvalid(id: string, errors: QuestionErrors): string {
  if (errors.title) return `${id}-title`;
  if (errors.unit) return `${id}-unit`;
  if (errors.image) return `${id}-file`;
  if (errors.markers) return `${id}-add-marker`;
  return `${id}-marker-${errors.blankMarkers[0]}`;
}

function QuestionForm({ survey, mode, onClose }: QuestionModalProps) {
  const { t } = useTranslation();
  const mutate = useEditorMutation();
  const id = useId();
  const type = questionTypeOf(mode);
  const features = questionFeatures(type);
  const [draft, setDraft] = useState<QuestionDraft>(() => initialQuestionDraft(mode));
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const titleRef = useRef<HTMLInputElement>(null);
  const errors = checked ? validateQuestion(type, draft) : null;

  // The Modal (a child) shows the dialog in its own effect, which runs first: then the first field takes focus.
  useEffect(() => titleRef.current?.focus(), []);

  const set = <K extends keyof QuestionDraft>(key: K, value: QuestionDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const updateMarkers = (update: (list: MarkerDraft[]) => MarkerDraft[]) =>
    setDraft((d) => ({ ...d, markers: update(d.markers) }));

  const submit = async () => {
    setChecked(true);
    setFailure(null);
    const invalid = validateQuestion(type, draft);
    if (invalid) {
      document.getElementById(firstInvalid(id, invalid))?.focus();
      return;
    }
    let result;
    if (mode.kind === "edit") {
      const body = updateQuestionBody(mode.question, draft, survey.Id);
      if (!body) return onClose();
      setBusy(true);
      result = await mutate("PUT", `/questions/${mode.question.Id}`, body, "questionModal.saved");
    } else if (mode.kind === "create") {
      setBusy(true);
      const body = createQuestionBody(type, draft, survey.Id, mode.categoryId);
      result = await mutate("POST", "/questions", body, "questionModal.created");
    } else {
      setBusy(true);
      const body = createQuestionBody(type, draft, survey.Id);
      const path = `/answer-options/${mode.parentAnswerOptionId}/sub-question`;
      result = await mutate("POST", path, body, "questionModal.created");
    }
    setBusy(false);
    if (result.ok) onClose();
    else setFailure(t(refusalKey(result)));
  };

  const heading =
    mode.kind === "edit"
      ? "questionModal.editTitle"
      : mode.kind === "create"
        ? "questionModal.createTitle"
        : "questionModal.createSubTitle";
  const described = (error: unknown, errorId: string, extra?: string) =>
    [extra, error ? errorId : undefined].filter(Boolean).join(" ") || undefined;

  return (
    <FormModal
      size={features.image ? "xl" : "lg"}
      title={t(heading, { type: t(`questionType.${type}`) })}
      onClose={onClose}
      onSubmit={() => void submit()}
      busy={busy}
      className="qmodal"
      testId="question-form"
    >
      {failure ? (
        <p className="field__error" role="alert" data-testid="question-failure">
          {failure}
        </p>
      ) : null}
      <div className="field">
        <label className="field__label" htmlFor={`${id}-title`}>
          {t("questionModal.title")}
        </label>
        <input
          ref={titleRef}
          id={`${id}-title`}
          className="input"
          value={draft.title}
          maxLength={editingLimits.questionTitle}
          required
          aria-invalid={errors?.title ? true : undefined}
          aria-describedby={described(errors?.title, `${id}-title-error`)}
          onChange={(e) => set("title", e.target.value)}
        />
        {errors?.title ? (
          <span id={`${id}-title-error`} className="field__error">
            {t(errors.title === "required" ? "questionModal.titleRequired" : "questionModal.titleTooLong")}
          </span>
        ) : null}
      </div>

      <fieldset className="choice-list">
        <legend className="field__label">{t("questionModal.options")}</legend>
        {features.testQuestion ? (
          <label className="choice">
            <input
              type="checkbox"
              checked={draft.isTestQuestion}
              aria-describedby={`${id}-test-hint`}
              onChange={(e) => set("isTestQuestion", e.target.checked)}
            />
            {t("questionModal.testQuestion")}
          </label>
        ) : null}
        {features.testQuestion ? (
          <span id={`${id}-test-hint`} className="hint">
            {t("questionModal.testQuestionHint")}
          </span>
        ) : null}
        {features.multipleAnswers ? (
          <label className="choice">
            <input
              type="checkbox"
              checked={features.multipleImplied || draft.allowMultipleAnswers}
              disabled={features.multipleImplied}
              onChange={(e) => set("allowMultipleAnswers", e.target.checked)}
            />
            {t("questionModal.multipleAnswers")}
          </label>
        ) : null}
        <label className="choice">
          <input
            type="checkbox"
            checked={draft.allowFileAttachments}
            onChange={(e) => set("allowFileAttachments", e.target.checked)}
          />
          {t("questionModal.fileAttachments")}
        </label>
      </fieldset>

      {features.unit ? (
        <div className="field">
          <label className="field__label" htmlFor={`${id}-unit`}>
            {t("questionModal.unit")}
          </label>
          <input
            id={`${id}-unit`}
            className="input qmodal__unit"
            value={draft.unit}
            maxLength={editingLimits.unit}
            aria-invalid={errors?.unit ? true : undefined}
            aria-describedby={described(errors?.unit, `${id}-unit-error`, `${id}-unit-hint`)}
            onChange={(e) => set("unit", e.target.value)}
          />
          <span id={`${id}-unit-hint`} className="hint">
            {t("questionModal.unitHint")}
          </span>
          {errors?.unit ? (
            <span id={`${id}-unit-error`} className="field__error">
              {t("questionModal.unitTooLong")}
            </span>
          ) : null}
        </div>
      ) : null}

      {features.image ? (
        <ImageMarkersField
          id={id}
          imageSrc={draft.imageSrc}
          markers={draft.markers}
          errors={
            errors ? { image: !!errors.image, markers: !!errors.markers, blankMarkers: errors.blankMarkers } : null
          }
          onImage={(src) => set("imageSrc", src)}
          onMarkers={updateMarkers}
        />
      ) : null}

      {features.answers && mode.kind !== "edit" ? (
        <EntryList
          id={`${id}-answers`}
          entries={draft.answers}
          onChange={(answers) => set("answers", answers)}
          blank={[]}
          legend={t("questionModal.answers")}
          blankError=""
          exitLabel={t("questionnaire.exitAnswer")}
        />
      ) : null}

      <DependenceField
        id={`${id}-dependence`}
        attributes={survey.PatientForm}
        value={draft.dependence}
        onChange={(dependence) => set("dependence", dependence)}
      />
    </FormModal>
  );
}
