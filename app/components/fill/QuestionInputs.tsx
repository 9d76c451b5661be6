import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AnswerValue } from "~/domain/answers";
import { DEFAULT_MARKER_POSITION } from "~/domain/markers";
import { answerText } from "~/domain/answer-text";
import { TEXT_RESPONSE_MAX_LENGTH, typedToNumber } from "~/domain/response-values";
import type { Question } from "~/domain/survey";

export interface InputProps {
  question: Question;
  value: AnswerValue | undefined;
  /** A new value (undefined: no answer). `commit` is false while typing, true when the value is final. */
  onChange: (value: AnswerValue | undefined) => void;
  disabled?: boolean;
  /** Set when the page runs without JavaScript: the inputs then carry names for the page's form. */
  named: boolean;
}

const fieldName = (q: Question) => `q${q.Id}`;

const ARROWS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"]);

/**
 * Single or multiple choice among the answer options; choosing the chosen single answer again removes it. An
 * answer that ends the survey is chosen only deliberately (a click, Space or Enter): the arrow keys that move
 * through a single choice's answers pass over it without choosing it, so moving on never opens the question
 * whether to end the survey (WCAG 3.2.2). Each such answer says that it ends the survey.
 */
export function ChoiceInput({ question, value, onChange, disabled, named }: InputProps) {
  const { t } = useTranslation();
  const multiple = question.Type === "MultipleSelection" || question.Type === "MultipleChoice";
  const chosen = value?.AnswerOptionIds ?? [];
  /** The arrow key that moved to the answer whose change comes next (the browser checks it as it moves). */
  const byArrow = useRef(false);
  const exitHint = `q-${question.Id}-exit-hint`;
  return (
    <div
      className="choices"
      role={multiple ? "group" : "radiogroup"}
      aria-labelledby={`q-${question.Id}-title`}
      onKeyDown={(e) => {
        byArrow.current = ARROWS.has(e.key);
      }}
    >
      {question.AnswerOptions.map((o) => {
        const checked = chosen.includes(o.Id);
        const choose = () => onChange({ AnswerOptionIds: [o.Id] });
        return (
          <label key={o.Id} className={`choice${checked ? " choice--checked" : ""}`}>
            <input
              type={multiple ? "checkbox" : "radio"}
              name={named ? fieldName(question) : `choice-${question.Id}`}
              value={o.Id}
              checked={checked}
              disabled={disabled}
              aria-describedby={o.IsExitAnswer ? exitHint : undefined}
              onChange={() => {
                const arrow = byArrow.current;
                byArrow.current = false;
                if (multiple) {
                  const next = checked ? chosen.filter((id) => id !== o.Id) : [...chosen, o.Id];
                  onChange(next.length ? { AnswerOptionIds: next } : undefined);
                } else if (!checked && !(arrow && o.IsExitAnswer)) {
                  choose();
                }
              }}
              onKeyDown={(e) => {
                // Enter on a single choice's answer chooses it (Space does so natively).
                if (e.key === "Enter" && !multiple && !checked) {
                  e.preventDefault();
                  choose();
                }
              }}
              onClick={() => {
                if (!multiple && checked) onChange(undefined);
              }}
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

/** A typed value saved when the field is left (or on Enter): free text or a number (date and time: DateTimeInput). */
export function TextualInput({ question, value, onChange, disabled, named }: InputProps) {
  const initial =
    question.Type === "Numerical" ? (value?.NumericalResponse?.toString() ?? "") : (value?.TextResponse ?? "");
  const [draft, setDraft] = useState(initial);
  useEffect(() => setDraft(initial), [initial]);
  const id = `q-${question.Id}-input`;

  const commit = () => {
    const text = draft.trim();
    if (text === initial.trim()) return;
    if (text === "") return onChange(undefined);
    if (question.Type === "Numerical") {
      const n = typedToNumber(text);
      return n === null ? setDraft(initial) : onChange({ NumericalResponse: n });
    }
    onChange({ TextResponse: draft });
  };
  const common = {
    id,
    name: named ? fieldName(question) : undefined,
    className: "input",
    value: draft,
    disabled,
    "aria-labelledby": `q-${question.Id}-title`,
    onChange: (e: { target: { value: string } }) => setDraft(e.target.value),
    onBlur: commit,
  };
  if (question.Type === "FreeText") return <textarea {...common} rows={3} maxLength={TEXT_RESPONSE_MAX_LENGTH} />;
  if (question.Type === "Numerical") {
    return (
      <span className="numeric">
        <input
          {...common}
          type="number"
          step="0.01"
          inputMode="decimal"
          onKeyDown={(e) => e.key === "Enter" && (e.preventDefault(), commit())}
        />
        {question.Unit ? <span className="numeric__unit">{question.Unit}</span> : null}
      </span>
    );
  }
  return <input {...common} type="text" onKeyDown={(e) => e.key === "Enter" && (e.preventDefault(), commit())} />;
}

/** From this X on, a marker's title is drawn to the left of its dot. */
const LABEL_LEFT_FROM = 0.6;

/** An image with its answer markers: each marker is a toggle button at its position. */
export function ImageInput({ question, value, onChange, disabled, named }: InputProps) {
  const chosen = value?.AnswerOptionIds ?? [];
  const multiple = question.AllowMultipleAnswers;
  // The markers are one group named by the question, so a screen reader says "Kopf" of which question.
  return (
    <div className="image-answer" role={multiple ? "group" : "radiogroup"} aria-labelledby={`q-${question.Id}-title`}>
      {question.ImageSrc ? <img src={question.ImageSrc} alt="" className="image-answer__img" /> : null}
      {question.AnswerOptions.map((o) => {
        const checked = chosen.includes(o.Id);
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
              onChange={() => {
                const next = checked ? chosen.filter((id) => id !== o.Id) : multiple ? [...chosen, o.Id] : [o.Id];
                onChange(next.length ? { AnswerOptionIds: next } : undefined);
              }}
              onClick={() => {
                if (!multiple && checked) onChange(undefined);
              }}
            />
            <span className="marker__dot" aria-hidden="true" />
            <span className="marker__label">{answerText(o)}</span>
          </label>
        );
      })}
    </div>
  );
}
