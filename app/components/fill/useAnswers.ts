import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { AnswerValue, Answers } from "~/domain/answers";
import type { Question } from "~/domain/survey";
import type { AnswerSink, ApiResult } from "~/api-client";
import { forgetTyped, noteTyped, typedValues } from "~/offline/typed-journal";
import { saveQueue, type SaveState } from "./save-queue";

/** The case whose typed values are noted when the page goes, and taken back when it opens (not in preview). */
export interface TypedCase {
  surveyId: number;
  patientId: string;
  questionOf: (id: number) => Question | undefined;
}

/**
 * The answers of the page: each change shows at once and is saved, a typed value once typing pauses; a
 * failed save reverts the answer and marks the question with a failure icon (section 4). `onRefused`
 * decides what a refusal means for the whole page (a vanished case returns to the start page). When the
 * page is hidden or left, whatever is not kept yet is noted on the device and sent at once
 * (docs/decisions/038-typed-work-kept.md).
 */
export function useAnswers(
  initial: Answers,
  sink: AnswerSink,
  onRefused: (result: Extract<ApiResult<unknown>, { ok: false }>) => void,
  typedCase?: TypedCase | null,
) {
  const [answers, setAnswers] = useState<Answers>(initial);
  const [states, setStates] = useState<ReadonlyMap<number, SaveState>>(new Map());
  const [busy, setBusy] = useState(0);
  const latest = useRef({ answers, sink, onRefused, typedCase });
  latest.current = { answers, sink, onRefused, typedCase };

  const [queue] = useState(() =>
    saveQueue(initial, {
      save: (question, value) => latest.current.sink.save(question, value),
      isLocal: () => latest.current.sink.isLocal?.() ?? false,
      show: (id, value) =>
        setAnswers((a) => {
          const next = { ...a };
          if (value) next[id] = value;
          else delete next[id];
          return next;
        }),
      state: (id, state) => setStates((s) => new Map(s).set(id, state)),
      refused: (result) => latest.current.onRefused(result),
      kept: (question, value) => {
        const at = latest.current.typedCase;
        if (at) forgetTyped({ surveyId: at.surveyId, patientId: at.patientId, questionId: question.Id }, value);
      },
      busy: (delta) => setBusy((n) => n + delta),
    }),
  );

  const surveyId = typedCase?.surveyId;
  const patientId = typedCase?.patientId;
  useEffect(() => {
    if (surveyId === undefined || patientId === undefined) return;
    // Values typed on an earlier page of this case and not kept then: shown and saved now.
    const own = latest.current.typedCase!;
    for (const noted of typedValues({ surveyId, patientId })) {
      const question = own.questionOf(noted.question.Id);
      const value = noted.value ?? undefined;
      if (!question) continue;
      if (JSON.stringify(latest.current.answers[question.Id]) === JSON.stringify(value)) {
        forgetTyped({ surveyId, patientId, questionId: question.Id }, value);
      } else void queue.give(question, value);
    }
    const leave = () => {
      const local = latest.current.sink.isLocal?.() ?? false;
      noteTyped(
        queue.unkept().map(({ question, value }) => ({
          surveyId,
          patientId,
          question: { Id: question.Id, Type: question.Type, AllowMultipleAnswers: question.AllowMultipleAnswers },
          value: value ?? null,
          local,
        })),
      );
      void queue.flush();
    };
    const onVisibility = () => {
      if (document.visibilityState === "hidden") leave();
    };
    window.addEventListener("pagehide", leave);
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      window.removeEventListener("pagehide", leave);
      document.removeEventListener("visibilitychange", onVisibility);
      // Left within the app: what is typed goes now.
      void queue.flush();
    };
  }, [queue, surveyId, patientId]);

  const answer = useCallback(
    (question: Question, value: AnswerValue | undefined, typing = false) => queue.give(question, value, typing),
    [queue],
  );
  const failed = useMemo(
    () => new Set([...states].filter(([, state]) => state === "failed").map(([id]) => id)),
    [states],
  );
  const flush = useCallback(() => queue.flush(), [queue]);

  return { answers, failed, states, busy: busy > 0, answer, flush, setAnswers };
}
