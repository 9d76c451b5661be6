import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { AnswerValue, Answers } from "~/domain/answers";
import type { Question } from "~/domain/survey";
import type { ApiResult } from "~/api-client";
import type { AnswerSink } from "~/answer-sink";
import type * as TypedJournal from "~/offline/typed-journal";
import { onCaseSynced } from "~/offline/case-synced";

type Journal = typeof TypedJournal;
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
 * (docs/decisions/038-typed-work-kept.md). An answer kept on the device says it is saved once the sync has
 * put it on the server.
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
  // The notes of typed values (typed-journal.ts), loaded as the page starts: not part of every page's code.
  const journal = useRef<Journal | null>(null);

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
        if (at)
          journal.current?.forgetTyped(
            { surveyId: at.surveyId, patientId: at.patientId, questionId: question.Id },
            value,
          );
      },
      busy: (delta) => setBusy((n) => n + delta),
    }),
  );

  const surveyId = typedCase?.surveyId;
  const patientId = typedCase?.patientId;
  useEffect(() => {
    if (surveyId === undefined || patientId === undefined) return;
    let live = true;
    const at = { surveyId, patientId };
    void import("~/offline/typed-journal").then((m) => {
      journal.current = m;
      // Values typed on an earlier page of this case and not kept then: shown and saved now.
      if (live)
        void m.takeBack(
          at,
          () => latest.current.answers,
          (id) => latest.current.typedCase?.questionOf(id),
          (question, value) => live && queue.give(question, value),
        );
    });
    const leave = () => {
      journal.current?.noteUnkept(at, queue.unkept(), latest.current.sink.isLocal?.() ?? false);
      void queue.flush();
    };
    const onVisibility = () => {
      if (document.visibilityState === "hidden") leave();
    };
    window.addEventListener("pagehide", leave);
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      live = false;
      window.removeEventListener("pagehide", leave);
      document.removeEventListener("visibilitychange", onVisibility);
      // Left within the app: what is typed goes now.
      void queue.flush();
    };
  }, [queue, surveyId, patientId]);

  // Answers kept on this device that the sync has put on the server: their fields say so.
  useEffect(() => {
    if (surveyId === undefined || patientId === undefined) return;
    return onCaseSynced(surveyId, patientId, (synced) => queue.onServer(synced.answers));
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

  return { answers, failed, states, busy: busy > 0, answer, flush };
}
