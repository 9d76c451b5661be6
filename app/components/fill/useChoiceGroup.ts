import { useEffect, useRef, type KeyboardEvent } from "react";
import type { AnswerValue } from "~/domain/answers";
import { takesSeveralOptions, type QuestionType } from "~/domain/question-types";

const ARROWS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"]);

/**
 * What a group of answers (choices, or an image's markers) does with each click and key, so that only the
 * person's choice changes the answer (docs/decisions/039-keyboard-and-focus.md):
 *
 * - A click, Space or Enter on an answer chooses it; a checkbox toggles.
 * - The arrow keys of a single choice choose the answer they move to, as the browser does, except one that
 *   ends the survey: they pass over it. Moving onto the answer already chosen changes nothing. The browser
 *   checks the answer it moves to and clicks it; that click is no choice of the chosen answer again.
 * - An answer chosen before the page's script ran is taken as chosen when it starts.
 * - A click or Space on a single choice's chosen answer takes it back ("choosing the same single-selection
 *   answer again removes it"). Browsers differ on Space there (Chromium does nothing, Firefox clicks): the
 *   group does it itself, the same in both.
 */
export function useChoiceGroup(
  /** A question, or a preliminary question taken as a single choice. */
  question: { Type: QuestionType; AllowMultipleAnswers: boolean },
  value: AnswerValue | undefined,
  onChange: (value: AnswerValue | undefined) => void,
) {
  const multiple = takesSeveralOptions(question);
  const chosen = value?.AnswerOptionIds ?? [];
  /** An arrow key is down: the click the browser makes on the answer it moves to is no choice. */
  const byArrow = useRef(false);
  /** Space went down on the chosen single answer: its release takes the answer back. */
  const spaceOnChosen = useRef<number | null>(null);

  const ref = useRef<HTMLDivElement>(null);
  // An answer tapped before the page's script ran (a slow tablet): the browser shows it chosen, the page has
  // not seen it. When the page starts it is taken as chosen then, and saved like any choice, instead of
  // being drawn away at the next render.
  useEffect(() => {
    const inputs = ref.current?.querySelectorAll<HTMLInputElement>("input[type=radio], input[type=checkbox]");
    if (!inputs) return;
    const ticked = Array.from(inputs, (input) => (input.checked ? Number(input.value) : NaN)).filter(Number.isInteger);
    if (ticked.length === chosen.length && ticked.every((id) => chosen.includes(id))) return;
    // A single choice cannot be emptied by a tap: none ticked is a page drawn without the answer, not a choice.
    if (ticked.length > 0) onChange({ AnswerOptionIds: multiple ? ticked : ticked.slice(0, 1) });
    else if (multiple) onChange(undefined);
    // Once, when the page starts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const group = {
    ref,
    onKeyDown: (e: KeyboardEvent) => {
      byArrow.current = ARROWS.has(e.key);
    },
    onKeyUp: () => {
      byArrow.current = false;
    },
    onPointerDown: () => {
      byArrow.current = false;
    },
  };

  const option = (o: { Id: number; IsExitAnswer: boolean }) => {
    const checked = chosen.includes(o.Id);
    const choose = () => onChange({ AnswerOptionIds: [o.Id] });
    return {
      checked,
      onChange: () => {
        if (multiple) {
          const next = checked ? chosen.filter((id) => id !== o.Id) : [...chosen, o.Id];
          onChange(next.length ? { AnswerOptionIds: next } : undefined);
        } else if (!checked && !(byArrow.current && o.IsExitAnswer)) {
          choose();
        }
      },
      onClick: () => {
        if (!multiple && checked && !byArrow.current) onChange(undefined);
      },
      onKeyDown: (e: KeyboardEvent) => {
        if (multiple) return;
        // Enter chooses an answer (Space does so natively).
        if (e.key === "Enter" && !checked) {
          e.preventDefault();
          choose();
        }
        if (e.key === " ") spaceOnChosen.current = checked ? o.Id : null;
      },
      onKeyUp: (e: KeyboardEvent) => {
        if (multiple || e.key !== " " || spaceOnChosen.current !== o.Id) return;
        spaceOnChosen.current = null;
        // No click of the browser's follows: the answer is taken back here, once.
        e.preventDefault();
        if (checked) onChange(undefined);
      },
    };
  };

  return { multiple, group, option };
}
