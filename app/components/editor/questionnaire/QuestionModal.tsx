import { Field } from "~/components/ui/Field";
import { answerOptionsApi } from "~/contracts/answer-options";
import { questionsApi } from "~/contracts/questions";
import { getFormProps } from "@conform-to/react";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "~/texts";
import { FormModal } from "~/components/ui/FormModal";
import { editingLimits } from "~/domain/editing";
import { questionFormSchema } from "~/domain/editor-forms";
import type { Coding } from "~/domain/instrument";
import type { Survey } from "~/domain/survey";
import { IN_PLACE, useEditorMutation } from "../editor-api";
import { EntryList } from "../EntryList";
import { firstError, invalidItemKeys, useListForm, type FormErrors } from "../useListForm";
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
  type QuestionDraft,
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

/** An imported instrument's codes of the question, shown as they are: the editor keeps them. */
function CodeList({ codes }: { codes: readonly Coding[] }) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <p className="field__label" id="question-codes">
        {t("questionModal.codes")}
      </p>
      <ul className="qmodal__codes" aria-labelledby="question-codes">
        {codes.map((c) => (
          <li key={`${c.System ?? ""}|${c.Code}`}>
            <code>{c.Code}</code>
            {c.Display ? ` ${c.Display}` : ""}
            {c.System ? <span className="hint"> ({c.System})</span> : null}
          </li>
        ))}
      </ul>
      <span className="hint">{t("questionModal.codesHint")}</span>
    </div>
  );
}

/** The id of the field to focus for the first error, in the form's order. */
function firstInvalid(id: string, errors: FormErrors, markers: readonly MarkerDraft[]): string | null {
  if (firstError(errors, "title")) return `${id}-title`;
  if (firstError(errors, "hint")) return `${id}-hint`;
  if (firstError(errors, "unit")) return `${id}-unit`;
  if (firstError(errors, "imageSrc")) return `${id}-file`;
  if (firstError(errors, "markers")) return `${id}-add-marker`;
  const blank = invalidItemKeys(errors, "markers", markers)[0];
  return blank !== undefined ? `${id}-marker-${blank}` : null;
}

function QuestionForm({ survey, mode, onClose }: QuestionModalProps) {
  const { t } = useTranslation();
  const mutate = useEditorMutation();
  const id = useId();
  const type = questionTypeOf(mode);
  const features = questionFeatures(type);
  const [draft, setDraft] = useState<QuestionDraft>(() => initialQuestionDraft(mode));
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const titleRef = useRef<HTMLInputElement>(null);
  const [schema] = useState(() => questionFormSchema(type));
  const form = useListForm(schema, {
    lists: [draft.markers.length, draft.answers, draft.imageSrc],
    focusOf: (errors) => firstInvalid(id, errors, draft.markers),
    onValid: () => void submit(),
  });
  const errors = form.allErrors;
  const titleError = firstError(errors, "title");
  const hintError = firstError(errors, "hint");
  const unitError = firstError(errors, "unit");

  // The Modal (a child) shows the dialog in its own effect, which runs first: then the first field takes focus.
  useEffect(() => titleRef.current?.focus(), []);

  const set = <K extends keyof QuestionDraft>(key: K, value: QuestionDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const updateMarkers = (update: (list: MarkerDraft[]) => MarkerDraft[]) =>
    setDraft((d) => ({ ...d, markers: update(d.markers) }));

  const submit = async () => {
    setFailure(null);
    let result;
    if (mode.kind === "edit") {
      const body = updateQuestionBody(mode.question, draft, survey.Id);
      if (!body) return onClose();
      setBusy(true);
      result = await mutate(
        questionsApi.update,
        { params: { id: mode.question.Id }, body },
        "questionModal.saved",
        IN_PLACE,
      );
    } else if (mode.kind === "create") {
      setBusy(true);
      const body = { ...createQuestionBody(type, draft, survey.Id), CategoryId: mode.categoryId };
      result = await mutate(questionsApi.create, { body }, "questionModal.created", IN_PLACE);
    } else {
      setBusy(true);
      const body = createQuestionBody(type, draft, survey.Id);
      const params = { id: mode.parentAnswerOptionId };
      result = await mutate(answerOptionsApi.addSubQuestion, { params, body }, "questionModal.created", IN_PLACE);
    }
    setBusy(false);
    if (result.ok) onClose();
    else setFailure(result.words);
  };

  const heading =
    mode.kind === "edit"
      ? "questionModal.editTitle"
      : mode.kind === "create"
        ? "questionModal.createTitle"
        : "questionModal.createSubTitle";

  return (
    <FormModal
      size={features.image ? "xl" : "lg"}
      title={t(heading, { type: t(`questionType.${type}`) })}
      onClose={onClose}
      form={getFormProps(form)}
      busy={busy}
      className="qmodal"
      testId="question-form"
    >
      {failure ? (
        <p className="field__error" role="alert" data-testid="question-failure">
          {failure}
        </p>
      ) : null}
      <Field id={`${id}-title`} label={t("questionModal.title")} error={titleError ? t(titleError) : null}>
        {(control) => (
          <input
            ref={titleRef}
            {...control}
            name="title"
            className="input"
            value={draft.title}
            maxLength={editingLimits.questionTitle}
            required
            onChange={(e) => set("title", e.target.value)}
          />
        )}
      </Field>

      <Field
        id={`${id}-hint`}
        label={t("questionModal.hint")}
        hint={t("questionModal.hintHint")}
        error={hintError ? t(hintError) : null}
      >
        {(control) => (
          <textarea
            {...control}
            name="hint"
            className="input"
            rows={2}
            value={draft.hint}
            maxLength={editingLimits.hint}
            onChange={(e) => set("hint", e.target.value)}
          />
        )}
      </Field>

      {mode.kind === "edit" && mode.question.Codes.length > 0 ? <CodeList codes={mode.question.Codes} /> : null}

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
        <Field
          id={`${id}-unit`}
          label={t("questionModal.unit")}
          hint={t("questionModal.unitHint")}
          error={unitError ? t(unitError) : null}
        >
          {(control) => (
            <input
              {...control}
              name="unit"
              className="input qmodal__unit"
              value={draft.unit}
              maxLength={editingLimits.unit}
              onChange={(e) => set("unit", e.target.value)}
            />
          )}
        </Field>
      ) : null}

      {features.image ? <input type="hidden" name="imageSrc" value={draft.imageSrc ?? ""} /> : null}
      {features.image ? (
        <ImageMarkersField
          id={id}
          imageSrc={draft.imageSrc}
          markers={draft.markers}
          errors={{
            image: !!firstError(errors, "imageSrc"),
            markers: !!firstError(errors, "markers"),
            blankMarkers: invalidItemKeys(errors, "markers", draft.markers),
          }}
          onImage={(src) => set("imageSrc", src)}
          onMarkers={updateMarkers}
        />
      ) : null}

      {features.answers && mode.kind !== "edit" ? (
        <EntryList
          id={`${id}-answers`}
          name="answers"
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
