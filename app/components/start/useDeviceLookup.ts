import { useEffect, useState } from "react";
import { normalizePatientId, shouldLookUp, type PatientLookup } from "~/domain/start-state";

/**
 * Offline, what this device knows about the typed id: a fill of it kept here (open or submitted), or the
 * server's open case brought with the survey's download (docs/decisions/038-typed-work-kept.md). Nothing
 * about ids it does not keep: the page says it cannot tell. Its code loads when first needed.
 */
export function useDeviceLookup(surveyId: number, typed: string, enabled: boolean): PatientLookup | null {
  const [found, setFound] = useState<PatientLookup | null>(null);
  const patientId = normalizePatientId(typed);
  useEffect(() => {
    if (!enabled || !shouldLookUp(patientId)) return;
    let live = true;
    void import("~/offline/case-copies")
      .then((m) => m.knownOnDevice(surveyId, patientId))
      .then((known) => live && setFound(known));
    return () => {
      live = false;
    };
  }, [enabled, patientId, surveyId]);
  return enabled ? found : null;
}
