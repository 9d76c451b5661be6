import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { storedToWireDateTime, typedToWireDateTime, wireToStoredDateTime } from "~/domain/response-values";
import type { ValueProblem } from "~/domain/page-problems";
import { useTypedValue, type InputProps } from "./QuestionInputs";

const INVALID = "fill.dateTimeInvalid";

/**
 * A date and time, shown and typed as DD.MM.YYYY HH:mm in every language, with the device's own picker
 * beside it (a native date-time input opened by a button: the calendar on a computer, the wheels on a
 * phone, both usable by keyboard). Saved as it is typed, once typing pauses on a complete date and time,
 * and at once when the field is left, on Enter, or when the picker sets a value. A typed value that is
 * not a date and time is kept in the field with its own message when the field is left, and not sent.
 * Without JavaScript the field alone posts with the page's form.
 */
export function DateTimeInput({
  question,
  value,
  onChange,
  disabled,
  named,
  problem,
}: InputProps & { problem?: ValueProblem }) {
  const { t } = useTranslation();
  const initial = value?.DateTimeResponse ?? "";
  const [draft, setDraft] = useState(problem?.typed ?? initial);
  const [refused, setRefused] = useState<string | null>(problem?.reason ?? null);
  // A new answer from outside (put back after a refusal, taken back from an earlier page) replaces what is
  // shown; the field's own value coming back as the answer does not.
  const typed = useTypedValue(value, () => {
    setDraft(initial);
    setRefused(null);
  });
  const picker = useRef<HTMLInputElement>(null);
  const id = `q-${question.Id}`;

  const change = (text: string) => {
    setDraft(text);
    const typedText = text.trim();
    if (typedText === "") return typed.give(undefined, onChange, true);
    // Saved while typing only once it is a whole date and time; the message waits for the field to be left.
    const wire = typedToWireDateTime(typedText);
    if (wire) {
      setRefused(null);
      typed.give({ DateTimeResponse: wire }, onChange, true);
    }
  };
  const commit = (text: string, picked = false) => {
    const typedText = text.trim();
    if (typedText === "") {
      setRefused(null);
      if (typed.dirty() || (picked && initial)) typed.give(undefined, onChange, false);
      return;
    }
    const wire = typedToWireDateTime(typedText);
    if (!wire) return setRefused(INVALID);
    setRefused(null);
    setDraft(wire);
    if (typed.dirty() || picked || wire !== initial) typed.give({ DateTimeResponse: wire }, onChange, false);
  };

  const openPicker = () => {
    const native = picker.current;
    if (!native) return;
    try {
      native.showPicker();
    } catch {
      native.focus();
    }
  };

  return (
    <div className="datetime">
      <div className="datetime__row">
        <input
          id={`${id}-input`}
          name={named ? `q${question.Id}` : undefined}
          className="input datetime__text"
          type="text"
          autoComplete="off"
          value={draft}
          disabled={disabled}
          placeholder={t("fill.dateTimePlaceholder")}
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-format${refused ? ` ${id}-error` : ""}${named ? "" : ` ${id}-saved`}`}
          aria-invalid={refused ? true : undefined}
          onChange={(e) => change(e.target.value)}
          onBlur={() => commit(draft)}
          onKeyDown={(e) => {
            if (e.key !== "Enter") return;
            e.preventDefault();
            commit(draft);
          }}
        />
        {named ? null : (
          <span className="datetime__pick">
            <button
              type="button"
              className="btn datetime__button"
              disabled={disabled}
              onClick={openPicker}
              aria-label={t("fill.dateTimePick", { title: question.Title })}
            />
            {/* The device's picker: reached through the button, its value shown in the field. */}
            <input
              ref={picker}
              type="datetime-local"
              className="datetime__native"
              tabIndex={-1}
              aria-hidden="true"
              value={wireToStoredDateTime(draft) ?? ""}
              onChange={(e) => {
                const wire = storedToWireDateTime(e.target.value);
                if (!wire) return;
                setDraft(wire);
                commit(wire, true);
              }}
            />
          </span>
        )}
      </div>
      <span className="hint" id={`${id}-format`}>
        {t("fill.dateTimeFormat")}
      </span>
      {refused ? (
        <span className="field__error" id={`${id}-error`} role="alert">
          {t(refused)}
        </span>
      ) : null}
    </div>
  );
}
