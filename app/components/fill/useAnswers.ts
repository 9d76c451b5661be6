import { useCallback, useRef, useState } from "react";
import type { AnswerValue, Answers } from "~/domain/answers";
import type { Question } from "~/domain/survey";
import type { AnswerSink, ApiResult } from "~/api-client";

/**
 * The answers of the page: each change shows at once and is saved; a failed save reverts the answer and
 * marks the question with a failure icon (section 4). `onRefused` decides what a refusal means for the
 * whole page (a vanished case returns to the start page).
 */
export function useAnswers(
  initial: Answers,
  sink: AnswerSink,
  onRefused: (result: Extract<ApiResult<unknown>, { ok: false }>) => void,
) {
  const [answers, setAnswers] = useState<Answers>(initial);
  const [failed, setFailed] = useState<ReadonlySet<number>>(new Set());
  const latest = useRef(answers);
  latest.current = answers;

  const answer = useCallback(
    async (question: Question, value: AnswerValue | undefined) => {
      const previous = latest.current[question.Id];
      setAnswers((a) => {
        const next = { ...a };
        if (value) next[question.Id] = value;
        else delete next[question.Id];
        return next;
      });
      const result = await sink.save(question, value);
      setFailed((f) => {
        const next = new Set(f);
        if (result.ok) next.delete(question.Id);
        else next.add(question.Id);
        return next;
      });
      if (!result.ok) {
        setAnswers((a) => {
          const next = { ...a };
          if (previous) next[question.Id] = previous;
          else delete next[question.Id];
          return next;
        });
        onRefused(result);
      }
      return result.ok;
    },
    [sink, onRefused],
  );

  return { answers, failed, answer, setAnswers };
}
