import { useFetcher } from "@remix-run/react";
import { useEffect } from "react";
import { normalizePatientId, shouldLookUp, type PatientLookup } from "~/domain/start-state";

/** Typing pauses this long before the API is asked about the id. */
export const LOOKUP_DEBOUNCE_MS = 300;

/**
 * Asks the start page's resource route about the typed id once typing pauses, while online.
 * Returns the latest answer (for whichever id it was; the pure state decides whether it still applies).
 */
export function usePatientLookup(surveyId: number, typed: string, enabled: boolean): PatientLookup | null {
  const { load, data } = useFetcher<PatientLookup>();
  const patientId = normalizePatientId(typed);
  useEffect(() => {
    if (!enabled || !shouldLookUp(patientId)) return;
    const timer = setTimeout(() => {
      void load(`/survey/${surveyId}/patients?${new URLSearchParams({ patientId })}`);
    }, LOOKUP_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [enabled, load, patientId, surveyId]);
  return enabled && data ? data : null;
}
