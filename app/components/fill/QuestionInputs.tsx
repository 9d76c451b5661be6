import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/texts";
import type { AnswerValue } from "~/domain/answers";
import { DEFAULT_MARKER_POSITION } from "~/domain/markers";
import { answerText } from "~/domain/answer-text";
import { TEXT_RESPONSE_MAX_LENGTH, typedToNumber } from "~/domain/response-values";
import type { Question } from "~/domain/survey";
import { useChoiceGroup } from "./useChoiceGroup";

export interface InputProps {
  question: Question;
  value: AnswerValue | undefined;
  /** A new value (undefined: no answer); `typing` while it is being typed, not when it is final. */
  onChange: (value: AnswerValue | undefined, typing?: boolean) => void;
  disabled?: boolean;
  /** Set when the page runs without JavaScript: the inputs then carry names for the page's form. */
  named: boolean;
  /** Whether the field now holds typed text it refused (no number, no date and time), with its message. */
  onRefused?: (refused: boolean) => void;
}

const fieldName = (q: Question) => `q${q.Id}`;

/** The id of the question's hint under its title, which its input is described by; none without a hint. */
export const hintIdOf = (q: Question) => (q.Hint ? `q-${q.Id}-hint` : undefined);

/** The ids an input is described by: its question's hint first, then its own lines. */
export const describedBy = (...ids: (string | false | null | undefined)[]) =>
  ids.filter(Boolean).join(" ") || undefined;

/**
 * Single or multiple choice among the answer options; choosing the chosen single answer again removes it. An
 * answer that ends the survey is chosen only deliberately (a click, Space or Enter): the arrow keys that move
 * through a single choice's answers pass over it without choosing it, so moving on never opens the question
 * whether to end the survey (WCAG 3.2.2). Each such answer says that it ends the survey. What each click and
 * key does: useChoiceGroup.
 */
export function ChoiceInput({ question, value, onChange, disabled, named }: InputProps) {
  const { t } = useTranslation();
  const { multiple, group, option } = useChoiceGroup(question, value, onChange);
  const exitHint = `q-${question.Id}-exit-hint`;
  return (
    <div
      className="choices"
      role={multiple ? "group" : "radiogroup"}
      aria-labelledby={`q-${question.Id}-title`}
      aria-describedby={hintIdOf(question)}
      {...group}
    >
      {question.AnswerOptions.map((o) => {
        const { checked, ...handlers } = option(o);
        return (
          <label key={o.Id} className={`choice${checked ? " choice--checked" : ""}`}>
            <input
              type={multiple ? "checkbox" : "radio"}
              name={named ? fieldName(question) : `choice-${question.Id}`}
              value={o.Id}
              checked={checked}
              disabled={disabled}
              aria-describedby={o.IsExitAnswer ? exitHint : undefined}
              {...handlers}
            />
            <span>{answerText(o)}</span>
            {o.IsExitAnswer ? <span className="choice__exit">{t("fill.endsSurvey")}</span> : null}
          </label>
        );
      })}
      {question.AnswerOptions.some((o) => o.IsExitAnswer) ? (
        <span id={exitHint} className="visually-hidden">
          {t("fill.endsSurveyHint")}
        </span>
      ) : null}
    </div>
  );
}

/** The languages that write a decimal comma ("72,5"); the others a point. */
const DECIMAL_COMMA = /^(de|tr|ru|uk|pl)\b/;

/** A number as its field shows it, with the decimal mark of the field's language. */
export const shownNumber = (n: number | null | undefined, language: string) =>
  n === null || n === undefined ? "" : DECIMAL_COMMA.test(language) ? String(n).replace(".", ",") : String(n);

/**
 * A typed value, saved as it is typed (once typing pauses), and at once when the field is left or on Enter:
 * free text or a number (date and time: DateTimeInput).
 */
export function TextualInput({ question, value, onChange, disabled, named, onRefused }: InputProps) {
  const { t, i18n } = useTranslation();
  const numeric = question.Type === "Numerical";
  const shown = numeric ? shownNumber(value?.NumericalResponse, i18n.language) : (value?.TextResponse ?? "");
  const [draft, setDraft] = useState(shown);
  // Typed text that is no number, once the field is left: kept in the field with why it was not saved.
  const [refused, setRefused] = useState(false);
  const typed = useTypedValue(value, () => {
    setDraft(shown);
    setRefused(false);
  });
  useEffect(() => onRefused?.(refused), [refused, onRefused]);
  const id = `q-${question.Id}-input`;
  const errorId = `q-${question.Id}-error`;

  /** The answer the text stands for; null while it is no number yet. */
  const valueOf = (text: string): AnswerValue | undefined | null => {
    if (text.trim() === "") return undefined;
    if (!numeric) return { TextResponse: text };
    const n = typedToNumber(text);
    return n === null ? null : { NumericalResponse: n };
  };
  const change = (text: string) => {
    setDraft(text);
    const next = valueOf(text);
    if (next === null) return;
    setRefused(false);
    typed.give(next, onChange, true);
  };
  const commit = () => {
    const next = valueOf(draft);
    if (next === null) return setRefused(true);
    if (!typed.dirty()) return;
    if (next?.NumericalResponse !== undefined) setDraft(shownNumber(next.NumericalResponse, i18n.language));
    typed.give(next, onChange, false);
  };
  const field = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  useTypedBeforeStart(field, draft, (el) => change(el.value));
  const common = {
    ref: field,
    id,
    name: named ? fieldName(question) : undefined,
    className: "input",
    value: draft,
    disabled,
    "aria-labelledby": `q-${question.Id}-title`,
    "aria-describedby": describedBy(hintIdOf(question), refused && errorId, !named && `q-${question.Id}-saved`),
    onChange: (e: { target: { value: string } }) => change(e.target.value),
    onBlur: commit,
  };
  if (question.Type === "FreeText") return <textarea {...common} rows={3} maxLength={TEXT_RESPONSE_MAX_LENGTH} />;
  if (numeric) {
    // A text field with the decimal keypad, read by typedToNumber: a browser's number field reads "7,5" by its
    // own language (as 75 where a comma groups thousands) or not at all, and takes no Arabic digits ("٧٫٥").
    return (
      <span className="numeric">
        <input
          {...common}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          aria-invalid={refused ? true : undefined}
          onKeyDown={(e) => e.key === "Enter" && (e.preventDefault(), commit())}
        />
        {question.Unit ? <span className="numeric__unit">{question.Unit}</span> : null}
        {refused ? (
          <span className="field__error" id={errorId} role="alert">
            {t("fill.numberInvalid")}
          </span>
        ) : null}
      </span>
    );
  }
  return <input {...common} type="text" onKeyDown={(e) => e.key === "Enter" && (e.preventDefault(), commit())} />;
}

/**
 * Text typed into a field before the page's script ran (a slow device): the field holds it, the page has not
 * seen it. When the page starts it is given as if typed then, so it is saved like any typing (React keeps
 * what a field holds while the page starts).
 */
export function useTypedBeforeStart<E extends HTMLInputElement | HTMLTextAreaElement>(
  field: { current: E | null },
  drawn: string,
  typed: (el: E) => void,
) {
  useEffect(() => {
    const el = field.current;
    if (el && el.value !== drawn) typed(el);
    // Once, when the page starts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

/**
 * What a typed field gave last. When that value comes back as the question's answer the field keeps
 * what is typed (the caret stays, "12." stays); any other new answer (put back after a refusal, taken
 * back from an earlier page) replaces it through `reset`.
 */
export function useTypedValue(value: AnswerValue | undefined, reset: () => void) {
  const key = JSON.stringify(value ?? null);
  // The answer the field was drawn with counts as given: nothing to replace when the page starts.
  const given = useRef<string | null>(key);
  const edited = useRef(false);
  const resetRef = useRef(reset);
  resetRef.current = reset;
  useEffect(() => {
    if (given.current === key) return;
    given.current = null;
    edited.current = false;
    resetRef.current();
  }, [key]);
  return {
    give(next: AnswerValue | undefined, onChange: InputProps["onChange"], typing: boolean) {
      given.current = JSON.stringify(next ?? null);
      edited.current = typing;
      onChange(next, typing);
    },
    /** Typed since the value was last given as final. */
    dirty: () => edited.current,
  };
}

/** From this X on, a marker's title is drawn to the left of its dot. */
const LABEL_LEFT_FROM = 0.6;

/**
 * An image with its answer markers: each marker is a radio (or, with several answers, a checkbox) at its
 * position, chosen by click and key as the choices are (useChoiceGroup).
 */
export function ImageInput({ question, value, onChange, disabled, named }: InputProps) {
  const { t } = useTranslation();
  const { multiple, group, option } = useChoiceGroup(question, value, onChange);
  const exitHint = `q-${question.Id}-exit-hint`;
  // The markers are one group named by the question, so a screen reader says "Kopf" of which question.
  return (
    <div
      className="image-answer"
      role={multiple ? "group" : "radiogroup"}
      aria-labelledby={`q-${question.Id}-title`}
      aria-describedby={hintIdOf(question)}
      {...group}
    >
      {question.ImageSrc ? <img src={question.ImageSrc} alt="" className="image-answer__img" /> : null}
      {question.AnswerOptions.map((o) => {
        const { checked, ...handlers } = option(o);
        const x = o.X ?? DEFAULT_MARKER_POSITION;
        // Near the right edge the title goes to the left of the dot, so that it stays on the picture.
        const side = x > LABEL_LEFT_FROM ? " marker--left" : "";
        return (
          <label
            key={o.Id}
            className={`marker${checked ? " marker--on" : ""}${side}`}
            style={{ left: `${x * 100}%`, top: `${(o.Y ?? DEFAULT_MARKER_POSITION) * 100}%` }}
            data-testid="image-marker"
          >
            <input
              type={multiple ? "checkbox" : "radio"}
              className="visually-hidden"
              name={named ? fieldName(question) : `marker-${question.Id}`}
              value={o.Id}
              checked={checked}
              disabled={disabled}
              aria-describedby={o.IsExitAnswer ? exitHint : undefined}
              {...handlers}
            />
            <span className="marker__dot" aria-hidden="true" />
            <span className="marker__label">{answerText(o)}</span>
          </label>
        );
      })}
      {question.AnswerOptions.some((o) => o.IsExitAnswer) ? (
        <span id={exitHint} className="visually-hidden">
          {t("fill.endsSurveyHint")}
        </span>
      ) : null}
    </div>
  );
}
