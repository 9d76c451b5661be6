import { useCallback, useRef, useState } from "react";

/**
 * The fill page's saves in flight: the page is busy until each answer is kept (on the server or on the
 * device), and `settled` resolves once every save started so far (and the typed values `flush` sends) has
 * ended. The page moves on only then: the next page's loader reads what they wrote (the questionnaire is
 * refused while a preliminary answer is not yet stored), and a case is not closed while one of its answers is
 * still on its way.
 */
export function useTrackedSaves(flush: () => Promise<unknown>) {
  const [saving, setSaving] = useState(0);
  const inFlight = useRef(new Set<Promise<unknown>>());
  const track = useCallback(async <T>(work: Promise<T>): Promise<T> => {
    setSaving((n) => n + 1);
    inFlight.current.add(work);
    try {
      return await work;
    } finally {
      inFlight.current.delete(work);
      setSaving((n) => n - 1);
    }
  }, []);
  const settled = useCallback(async () => {
    await flush();
    while (inFlight.current.size > 0) await Promise.allSettled([...inFlight.current]);
  }, [flush]);
  return { saving: saving > 0, track, settled };
}
