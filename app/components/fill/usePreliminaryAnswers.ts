import { useRef, useState } from "react";
import type { ApiResult } from "~/api-client";
import type { PreliminaryAnswers } from "~/domain/answers";

/**
 * The preliminary answers of a case as the page shows them: an answer shows at once, is saved, and is taken
 * back (and marked failed) when the save is refused. `latest` holds them as last set, so that "Next" after
 * the saves ended sees a refused answer already taken back.
 */
export function usePreliminaryAnswers(
  initial: PreliminaryAnswers,
  save: (attributeId: number, optionId: number) => Promise<ApiResult<unknown>>,
  onRefused: (result: Extract<ApiResult<unknown>, { ok: false }>) => void,
) {
  const [answers, setAnswers] = useState<PreliminaryAnswers>(initial);
  const latest = useRef(answers);
  latest.current = answers;
  const [failed, setFailed] = useState<ReadonlySet<number>>(new Set());
  const setNow = (next: PreliminaryAnswers) => {
    latest.current = next;
    setAnswers(next);
  };
  /** Resolves to whether the server (or the device) took the answer. */
  const answer = async (attributeId: number, optionId: number): Promise<boolean> => {
    const previous = latest.current[attributeId];
    setNow({ ...latest.current, [attributeId]: optionId });
    const result = await save(attributeId, optionId);
    setFailed((f) => {
      const next = new Set(f);
      if (result.ok) next.delete(attributeId);
      else next.add(attributeId);
      return next;
    });
    if (!result.ok) {
      const next = { ...latest.current };
      if (previous === undefined) delete next[attributeId];
      else next[attributeId] = previous;
      setNow(next);
      onRefused(result);
    }
    return result.ok;
  };
  return { answers, latest, failed, answer };
}
