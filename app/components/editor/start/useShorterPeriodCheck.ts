import { useCallback, useEffect, useRef, useState } from "react";
import { callApi } from "~/api-client";
import { erasuresApi } from "~/contracts/erasures";
import { isoToWireDate } from "~/domain/dates";

/** How long after the last keystroke a shorter period is looked at. */
const CHECK_DELAY_MS = 500;

export interface Asked {
  months: number;
  /** Closed cases the next daily round would erase; null when the server could not be asked. */
  cases: number | null;
  /** The day before which those cases were closed (DD.MM.YYYY). */
  before: string;
}

/**
 * Before a shorter retention period is saved (docs/decisions/042-retention-and-erasure.md): asks the server how
 * many of the survey's closed cases the next daily round would erase with it. None: the period is saved at once
 * (`save`); some, or no answer: `asked` holds what the page says, and the period is saved on `confirm()` only.
 * `drop()` forgets the question (the person typed on, or kept the period).
 */
export function useShorterPeriodCheck(surveyId: number, save: (months: number) => void) {
  const [pending, setPending] = useState(false);
  const [asked, setAsked] = useState<Asked | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const round = useRef(0);
  const saveRef = useRef(save);
  saveRef.current = save;
  useEffect(() => () => clearTimeout(timer.current), []);

  const drop = useCallback(() => {
    clearTimeout(timer.current);
    round.current += 1;
    setPending(false);
    setAsked(null);
  }, []);

  const ask = useCallback(
    (months: number) => {
      drop();
      setPending(true);
      const mine = round.current;
      timer.current = setTimeout(() => {
        void callApi(erasuresApi.retentionPreview, { query: { surveyId, months } }).then((result) => {
          if (mine !== round.current) return;
          setPending(false);
          if (result.ok && result.data.Cases === 0) return saveRef.current(months);
          const before = result.ok ? result.data.Before : null;
          setAsked({
            months,
            cases: result.ok ? result.data.Cases : null,
            before: before ? isoToWireDate(before.slice(0, 10)) : "",
          });
        });
      }, CHECK_DELAY_MS);
    },
    [drop, surveyId],
  );

  const confirm = useCallback(() => {
    if (!asked) return;
    const { months } = asked;
    drop();
    saveRef.current(months);
  }, [asked, drop]);

  return { pending, asked, ask, drop, confirm };
}
