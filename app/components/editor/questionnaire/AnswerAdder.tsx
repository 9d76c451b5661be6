import { answerOptionsApi } from "~/contracts/answer-options";
import { Field } from "~/components/ui/Field";
import { useId, useRef, useState, type ClipboardEvent } from "react";
import { useTranslation } from "~/texts";
import type { Question } from "~/domain/survey";
import { useEditorMutation } from "../editor-api";
import { pastedLines } from "../entries";
import { useQuestionnaire } from "./context";

/**
 * Adds answers to a choice question on its card, without a modal: type and press Enter for each, or paste a
 * list, one answer per line. Weights, exit flags and sub-questions are set on the answer afterwards.
 */
export function AnswerAdder({ question }: { question: Question }) {
  const { t } = useTranslation();
  const { survey } = useQuestionnaire();
  const mutate = useEditorMutation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);

  const add = async (texts: string[]) => {
    if (texts.length === 0 || busy) return;
    setBusy(true);
    let added = 0;
    for (const Text of texts) {
      const result = await mutate(answerOptionsApi.create, {
        body: { SurveyId: survey.Id, QuestionId: question.Id, Text },
      });
      if (!result.ok) break;
      added++;
    }
    setBusy(false);
    if (added === texts.length) setText("");
    input.current?.focus();
  };
  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const lines = pastedLines(event.clipboardData.getData("text"));
    if (lines.length < 2) return;
    event.preventDefault();
    void add(text.trim() ? [text.trim(), ...lines] : lines);
  };

  return (
    <div className="answer-adder">
      <Field id={id} label={t("questionnaire.newAnswerFor", { question: question.Title })} layout="inline">
        <input
          ref={input}
          id={id}
          className="input answer-adder__input"
          value={text}
          maxLength={500}
          placeholder={t("questionnaire.newAnswer")}
          aria-describedby={`${id}-hint`}
          aria-busy={busy || undefined}
          onChange={(e) => setText(e.target.value)}
          onPaste={onPaste}
          onKeyDown={(e) => {
            if (e.key !== "Enter" || e.nativeEvent.isComposing) return;
            e.preventDefault();
            if (text.trim()) void add([text.trim()]);
          }}
        />
      </Field>
      <button
        type="button"
        className="btn btn--small"
        disabled={busy || !text.trim()}
        onClick={() => void add([text.trim()])}
      >
        + {t("questionnaire.addAnswer")}
      </button>
      <span id={`${id}-hint`} className="hint">
        {t("questionnaire.newAnswerHint")}
      </span>
    </div>
  );
}
