import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { FormModal } from "~/components/ui/FormModal";
import { Modal } from "~/components/ui/Modal";
import type { Category, PatientFormAttribute } from "~/domain/survey";
import { refusalKey, useEditorMutation } from "../editor-api";
import {
  addEntry,
  draftBody,
  enterAction,
  initialDraft,
  isUnchanged,
  validateDraft,
  type AttributeDraft,
  type DraftEntry,
} from "./attribute-form";
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
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  /** Rules the removed entries would take with them, shown for a yes before saving. */
  const [losing, setLosing] = useState<AffectedRule[] | null>(null);
  const titleRef = useRef<HTMLInputElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const inputs = useRef(new Map<number, HTMLInputElement>());
  const focusNext = useRef<number | "add" | null>(null);
  const errors = checked ? validateDraft(draft) : null;

  // The dialog is shown by the Modal's own effect, which runs before this one: then the first field gets focus.
  useEffect(() => titleRef.current?.focus(), []);
  useEffect(() => {
    const target = focusNext.current;
    focusNext.current = null;
    if (target === "add") addRef.current?.focus();
    else if (target !== null) inputs.current.get(target)?.focus();
  }, [draft.entries]);

  const setEntries = (entries: DraftEntry[], focus: number | "add" | null = null) => {
    focusNext.current = focus;
    setDraft((d) => ({ ...d, entries }));
  };
  const patch = (key: number, change: Partial<DraftEntry>) =>
    setEntries(draft.entries.map((e) => (e.key === key ? { ...e, ...change } : e)));
  const add = () => {
    const next = addEntry(draft.entries);
    setEntries(next.entries, next.key);
  };
  const remove = (index: number) => {
    const entries = draft.entries.filter((_, i) => i !== index);
    const neighbour = entries[Math.min(index, entries.length - 1)];
    setEntries(entries, neighbour ? neighbour.key : "add");
  };
  const onEntryKey = (event: KeyboardEvent<HTMLInputElement>, key: number) => {
    if (event.key !== "Enter" || event.nativeEvent.isComposing) return;
    event.preventDefault();
    const action = enterAction(draft.entries, key);
    if (action.kind === "add") add();
    else inputs.current.get(action.key)?.focus();
  };

  const submit = async (rulesConfirmed = false) => {
    setChecked(true);
    setFailure(null);
    const invalid = validateDraft(draft);
    if (invalid) {
      const first = invalid.title
        ? titleRef.current
        : invalid.noEntries
          ? addRef.current
          : inputs.current.get(invalid.blank[0]);
      first?.focus();
      return;
    }
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
      ? await mutate("PUT", `/patient-attributes/${attribute.Id}`, body, "preliminary.saved")
      : await mutate("POST", "/patient-attributes/", body, "preliminary.created");
    setBusy(false);
    if (result.ok) onClose();
    else setFailure(t(refusalKey(result)));
  };

  const describedBy = (error: boolean, errorId: string) => (error ? errorId : undefined);
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
        onSubmit={() => void submit()}
        busy={busy}
        className="prelim-form"
      >
        {failure ? (
          <p className="field__error" role="alert">
            {failure}
          </p>
        ) : null}
        <div className="field">
          <label className="field__label" htmlFor={`${id}-title`}>
            {t("preliminary.title")}
          </label>
          <input
            ref={titleRef}
            id={`${id}-title`}
            className="input"
            value={draft.title}
            maxLength={500}
            required
            aria-invalid={errors?.title ? true : undefined}
            aria-describedby={describedBy(!!errors?.title, `${id}-title-error`)}
            onChange={(e) => setDraft((d) => ({ ...d, title: e.target.value }))}
          />
          {errors?.title ? (
            <span id={`${id}-title-error`} className="field__error">
              {t("preliminary.titleRequired")}
            </span>
          ) : null}
        </div>
        <fieldset className="prelim-form__entries" aria-describedby={`${id}-hint`}>
          <legend className="field__label">{t("preliminary.entriesLabel")}</legend>
          <p id={`${id}-hint`} className="prelim-form__hint">
            {t("preliminary.enterHint")}
          </p>
          {errors?.noEntries ? (
            <p className="field__error" data-testid="entries-error">
              {t("preliminary.entriesRequired")}
            </p>
          ) : null}
          <ol className="prelim-form__list">
            {draft.entries.map((entry, index) => {
              const blank = !!errors?.blank.includes(entry.key);
              const field = `${id}-entry-${entry.key}`;
              return (
                <li key={entry.key} className="prelim-form__entry">
                  <div className="prelim-form__row">
                    <label className="visually-hidden" htmlFor={field}>
                      {t("preliminary.entry", { n: index + 1 })}
                    </label>
                    <input
                      ref={(el) => {
                        if (el) inputs.current.set(entry.key, el);
                        else inputs.current.delete(entry.key);
                      }}
                      id={field}
                      className="input prelim-form__text"
                      value={entry.text}
                      maxLength={500}
                      placeholder={t("preliminary.entry", { n: index + 1 })}
                      aria-invalid={blank ? true : undefined}
                      aria-describedby={describedBy(blank, `${field}-error`)}
                      onChange={(e) => patch(entry.key, { text: e.target.value })}
                      onKeyDown={(e) => onEntryKey(e, entry.key)}
                    />
                    <label className="prelim-form__exit">
                      <input
                        type="checkbox"
                        checked={entry.exit}
                        aria-label={t("preliminary.exitFor", { n: index + 1 })}
                        onChange={(e) => patch(entry.key, { exit: e.target.checked })}
                      />
                      <span aria-hidden="true">{t("preliminary.exitAnswer")}</span>
                    </label>
                    <button
                      type="button"
                      className="btn prelim-form__remove"
                      aria-label={t("preliminary.removeEntry", { n: index + 1 })}
                      title={t("preliminary.removeEntry", { n: index + 1 })}
                      onClick={() => remove(index)}
                    >
                      <span aria-hidden="true">×</span>
                    </button>
                  </div>
                  {blank ? (
                    <span id={`${field}-error`} className="field__error">
                      {t("preliminary.entryRequired")}
                    </span>
                  ) : null}
                </li>
              );
            })}
          </ol>
          <button ref={addRef} type="button" className="btn" onClick={add}>
            + {t("preliminary.addEntry")}
          </button>
        </fieldset>
      </FormModal>
    </>
  );
}
