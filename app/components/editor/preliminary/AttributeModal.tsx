import { Field } from "~/components/ui/Field";
import { patientAttributesApi } from "~/contracts/patient-attributes";
import { getFormProps } from "@conform-to/react";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "~/texts";
import { FormModal } from "~/components/ui/FormModal";
import { editingLimits } from "~/domain/editing";
import { Modal } from "~/components/ui/Modal";
import { PreliminaryQuestionFormSchema } from "~/domain/editor-forms";
import type { Category, PatientFormAttribute } from "~/domain/survey";
import { IN_PLACE, useEditorMutation } from "../editor-api";
import { EntryList } from "../EntryList";
import { firstError, invalidItemKeys, useListForm, type FormErrors } from "../useListForm";
import { draftBody, initialDraft, isUnchanged, type AttributeDraft } from "./attribute-form";
import { rulesAffected, type AffectedRule } from "./rules-affected";
import { RulesLost } from "./RulesLost";

interface AttributeModalProps {
  surveyId: number;
  /** The question to edit; a new one is added without it. */
  attribute?: PatientFormAttribute;
  /** The questionnaire, to name the show/hide rules that removed entries take with them. */
  categories: readonly Category[];
  onClose: () => void;
}

/** Add or edit a preliminary question: its title and its entries, each with an exit-answer flag (section 5). */
export function AttributeModal({ surveyId, attribute, categories, onClose }: AttributeModalProps) {
  const { t } = useTranslation();
  const mutate = useEditorMutation();
  const id = useId();
  const [draft, setDraft] = useState<AttributeDraft>(() => initialDraft(attribute));
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  /** Rules the removed entries would take with them, shown for a yes before saving. */
  const [losing, setLosing] = useState<AffectedRule[] | null>(null);
  const titleRef = useRef<HTMLInputElement>(null);
  const focusOf = (errors: FormErrors) => {
    if (firstError(errors, "title")) return `${id}-title`;
    const blank = invalidItemKeys(errors, "entries", draft.entries)[0];
    return blank !== undefined ? `${id}-entry-${blank}` : null;
  };
  const form = useListForm(PreliminaryQuestionFormSchema, {
    lists: [draft.entries],
    focusOf,
    onValid: () => void submit(),
  });
  const errors = form.allErrors;
  const titleError = firstError(errors, "title");
  const entriesError = firstError(errors, "entries");

  // The dialog is shown by the Modal's own effect, which runs before this one: then the first field gets focus.
  useEffect(() => titleRef.current?.focus(), []);

  const submit = async (rulesConfirmed = false) => {
    setFailure(null);
    if (attribute && isUnchanged(draft, attribute)) return onClose();
    if (attribute && !rulesConfirmed) {
      const kept = new Set(draft.entries.map((e) => e.id));
      const removed = attribute.AnswerOptions.filter((o) => !kept.has(o.Id)).map((o) => o.Id);
      const affected = rulesAffected(categories, removed);
      if (affected.length > 0) return setLosing(affected);
    }
    setLosing(null);
    setBusy(true);
    const body = draftBody(draft, surveyId);
    const result = attribute
      ? await mutate(patientAttributesApi.update, { params: { id: attribute.Id }, body }, "preliminary.saved", IN_PLACE)
      : await mutate(patientAttributesApi.create, { body }, "preliminary.created", IN_PLACE);
    setBusy(false);
    if (result.ok) onClose();
    else setFailure(result.words);
  };

  return (
    <>
      <Modal
        open={losing !== null}
        size="s"
        title={t("preliminary.rulesLostTitle")}
        onClose={() => setLosing(null)}
        footer={
          <>
            <button type="button" className="btn" onClick={() => setLosing(null)}>
              {t("preliminary.rulesLostBack")}
            </button>
            <button type="button" className="btn btn--danger" disabled={busy} onClick={() => void submit(true)}>
              {t("preliminary.rulesLostConfirm")}
            </button>
          </>
        }
      >
        <RulesLost rules={losing ?? []} />
      </Modal>
      <FormModal
        size="lg"
        title={t(attribute ? "preliminary.editTitle" : "preliminary.add")}
        onClose={onClose}
        form={getFormProps(form)}
        busy={busy}
        className="prelim-form"
      >
        {failure ? (
          <p className="field__error" role="alert">
            {failure}
          </p>
        ) : null}
        <Field id={`${id}-title`} label={t("preliminary.title")} error={titleError ? t(titleError) : null}>
          {(control) => (
            <input
              ref={titleRef}
              {...control}
              name="title"
              className="input"
              value={draft.title}
              maxLength={editingLimits.attributeTitle}
              required
              onChange={(e) => setDraft((d) => ({ ...d, title: e.target.value }))}
            />
          )}
        </Field>
        <EntryList
          id={id}
          name="entries"
          entries={draft.entries}
          onChange={(entries) => setDraft((d) => ({ ...d, entries }))}
          blank={invalidItemKeys(errors, "entries", draft.entries)}
          legend={t("preliminary.entriesLabel")}
          emptyError={entriesError ? t(entriesError) : null}
          blankError={t("preliminary.entryRequired")}
          exitLabel={t("preliminary.exitAnswer")}
        />
      </FormModal>
    </>
  );
}
