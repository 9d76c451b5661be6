import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/texts";
import { storedToWireDateTime, typedToWireDateTime, wireToStoredDateTime } from "~/domain/response-values";
import type { ValueProblem } from "~/domain/page-problems";
import { describedBy, hintIdOf, useTypedBeforeStart, useTypedValue, type InputProps } from "./QuestionInputs";

const INVALID = "fill.dateTimeInvalid";

/** Gecko (Firefox) names itself "Gecko/" and a version; other engines say "like Gecko". */
const pickerOffersDateOnly = () => /\bGecko\/\d/.test(navigator.userAgent);
/** The day of the picker's stand-in value: never a day a person takes, so that taking any day is a change. */
const SEED_DAY = "1000-01-01";
const timeOfDay = (d: Date) => `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;

/**
 * A date and time, shown and typed as DD.MM.YYYY HH:mm in every language, with the device's own picker
 * beside it (a native date-time input opened by a button: the calendar on a computer, the wheels on a
 * phone, both usable by keyboard; Firefox's offers a date only, and the time of day comes with it). Saved
 * as it is typed, once typing pauses on a complete date and time, and at once when the field is left, on
 * Enter, or when the picker sets a value. A typed value that is not a date and time is kept in the field with
 * its own message when the field is left, and not sent. Without JavaScript the field alone posts with the
 * page's form.
 */
export function DateTimeInput({
  question,
  value,
  onChange,
  disabled,
  named,
  problem,
  onRefused,
}: InputProps & { problem?: ValueProblem }) {
  const { t } = useTranslation();
  const initial = value?.DateTimeResponse ?? "";
  const [draft, setDraft] = useState(problem?.typed ?? initial);
  const [refused, setRefused] = useState<string | null>(problem?.reason ?? null);
  useEffect(() => onRefused?.(refused !== null), [refused, onRefused]);
  // A new answer from outside (put back after a refusal, taken back from an earlier page) replaces what is
  // shown; the field's own value coming back as the answer does not.
  const typed = useTypedValue(value, () => {
    setDraft(initial);
    setRefused(null);
  });
  const picker = useRef<HTMLInputElement>(null);
  const typedField = useRef<HTMLInputElement>(null);
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

  useTypedBeforeStart(typedField, draft, (el) => change(el.value));

  const openPicker = () => {
    const native = picker.current;
    if (!native) return;
    // The popup opens on the field's own value (not on a stand-in left there by an earlier opening).
    native.value = wireToStoredDateTime(draft) ?? "";
    try {
      native.showPicker();
    } catch {
      native.focus();
      return;
    }
    // Firefox's popup has read that value by now. It offers no time, and a day taken there while the input
    // has none sets nothing: the input gets a stand-in now, the time of day on a day nobody takes, so that
    // any day taken comes with that time (shown in the field, saved, and corrected like any other value).
    if (!native.value && pickerOffersDateOnly()) native.value = `${SEED_DAY}T${timeOfDay(new Date())}`;
  };

  return (
    <div className="datetime">
      <div className="datetime__row">
        <input
          ref={typedField}
          id={`${id}-input`}
          name={named ? `q${question.Id}` : undefined}
          className="input datetime__text"
          type="text"
          autoComplete="off"
          // A date and time reads day first in every language ("30.11.2026 08:15", not "08:15 30.11.2026").
          dir="ltr"
          value={draft}
          disabled={disabled}
          placeholder={t("fill.dateTimePlaceholder")}
          aria-labelledby={`${id}-title`}
          aria-describedby={describedBy(
            hintIdOf(question),
            `${id}-format`,
            refused && `${id}-error`,
            !named && `${id}-saved`,
          )}
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
