import { useEffect, useRef, type ClipboardEvent, type KeyboardEvent } from "react";
import { Field } from "~/components/ui/Field";
import { useTranslation } from "~/texts";
import { editingLimits } from "~/domain/editing";
import { addEntry, enterAction, moveEntry, pasteEntries, type DraftEntry } from "./entries";

interface EntryListProps {
  /** Prefix of the fields' ids. */
  id: string;
  /** The list's name in the form: its texts are the fields `${name}[0].text`, `${name}[1].text`, … */
  name: string;
  entries: DraftEntry[];
  onChange: (entries: DraftEntry[]) => void;
  /** Keys of entries shown as blank (after a save was tried). */
  blank: readonly number[];
  legend: string;
  /** Shown when the list must not be empty and is. */
  emptyError?: string | null;
  blankError: string;
  /** The exit flag's column label; no exit flags without it. */
  exitLabel?: string;
}

/**
 * Answer entries typed one after the other (section 5): Enter goes on to the next empty entry or adds one,
 * a list of lines pasted into an entry becomes one entry per line, and each entry moves up, down or away
 * in place. The preliminary question's modal and a new choice question's modal both use it.
 */
export function EntryList({
  id,
  name,
  entries,
  onChange,
  blank,
  legend,
  emptyError,
  blankError,
  exitLabel,
}: EntryListProps) {
  const { t } = useTranslation();
  const inputs = useRef(new Map<number, HTMLInputElement>());
  const addRef = useRef<HTMLButtonElement>(null);
  const focusNext = useRef<number | "add" | null>(null);

  useEffect(() => {
    const target = focusNext.current;
    focusNext.current = null;
    if (target === "add") addRef.current?.focus();
    else if (target !== null) inputs.current.get(target)?.focus();
  }, [entries]);

  const change = (next: DraftEntry[], focus: number | "add" | null = null) => {
    focusNext.current = focus;
    onChange(next);
  };
  const patch = (key: number, part: Partial<DraftEntry>) =>
    change(entries.map((e) => (e.key === key ? { ...e, ...part } : e)));
  const add = () => {
    const next = addEntry(entries);
    change(next.entries, next.key);
  };
  const remove = (index: number) => {
    const rest = entries.filter((_, i) => i !== index);
    const neighbour = rest[Math.min(index, rest.length - 1)];
    change(rest, neighbour ? neighbour.key : "add");
  };
  const onKey = (event: KeyboardEvent<HTMLInputElement>, key: number) => {
    if (event.key !== "Enter" || event.nativeEvent.isComposing) return;
    event.preventDefault();
    const action = enterAction(entries, key);
    if (action.kind === "add") add();
    else inputs.current.get(action.key)?.focus();
  };
  const onPaste = (event: ClipboardEvent<HTMLInputElement>, key: number) => {
    const pasted = pasteEntries(entries, key, event.clipboardData.getData("text"));
    if (!pasted) return;
    event.preventDefault();
    change(pasted.entries, pasted.key);
  };

  return (
    <fieldset className="prelim-form__entries" aria-describedby={`${id}-hint`}>
      <legend className="field__label">{legend}</legend>
      <p id={`${id}-hint`} className="prelim-form__hint">
        {t("entries.hint")}
      </p>
      {emptyError ? (
        <p className="field__error" data-testid="entries-error">
          {emptyError}
        </p>
      ) : null}
      <ol className="prelim-form__list">
        {entries.map((entry, index) => {
          const isBlank = blank.includes(entry.key);
          const field = `${id}-entry-${entry.key}`;
          const n = index + 1;
          return (
            <li key={entry.key} className="prelim-form__entry">
              <div className="prelim-form__row">
                <Field id={field} label={t("entries.entry", { n })} layout="inline">
                  <input
                    ref={(el) => {
                      if (el) inputs.current.set(entry.key, el);
                      else inputs.current.delete(entry.key);
                    }}
                    id={field}
                    name={`${name}[${index}].text`}
                    className="input prelim-form__text"
                    value={entry.text}
                    maxLength={editingLimits.answerText}
                    placeholder={t("entries.entry", { n })}
                    aria-invalid={isBlank ? true : undefined}
                    aria-describedby={isBlank ? `${field}-error` : undefined}
                    onChange={(e) => patch(entry.key, { text: e.target.value })}
                    onKeyDown={(e) => onKey(e, entry.key)}
                    onPaste={(e) => onPaste(e, entry.key)}
                  />
                </Field>
                {exitLabel ? (
                  <label className="prelim-form__exit">
                    <input
                      type="checkbox"
                      checked={entry.exit}
                      aria-label={t("entries.exitFor", { n })}
                      onChange={(e) => patch(entry.key, { exit: e.target.checked })}
                    />
                    <span aria-hidden="true">{exitLabel}</span>
                  </label>
                ) : null}
                <span className="prelim-form__moves">
                  <button
                    type="button"
                    className="btn btn--small"
                    title={t("entries.moveUp", { n })}
                    disabled={index === 0}
                    onClick={() => change(moveEntry(entries, index, index - 1), entry.key)}
                  >
                    <span aria-hidden="true">↑</span>
                  </button>
                  <button
                    type="button"
                    className="btn btn--small"
                    title={t("entries.moveDown", { n })}
                    disabled={index === entries.length - 1}
                    onClick={() => change(moveEntry(entries, index, index + 1), entry.key)}
                  >
                    <span aria-hidden="true">↓</span>
                  </button>
                </span>
                <button
                  type="button"
                  className="btn prelim-form__remove"
                  title={t("entries.remove", { n })}
                  onClick={() => remove(index)}
                >
                  <span aria-hidden="true">×</span>
                </button>
              </div>
              {isBlank ? (
                <span id={`${field}-error`} className="field__error">
                  {blankError}
                </span>
              ) : null}
            </li>
          );
        })}
      </ol>
      <button ref={addRef} type="button" className="btn" onClick={add}>
        + {t("entries.add")}
      </button>
    </fieldset>
  );
}
