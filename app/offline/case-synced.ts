import type { Answers, PreliminaryAnswers } from "~/domain/answers";

/**
 * Dispatched on window by the sync (sync-client.ts) when the answers of a fill kept on this device are on
 * the server, and again when nothing of that fill is left on the device. An open fill page of the case
 * listens: its fields say "saved" for the answers the server now holds, and once the fill is gone from the
 * device the page saves to the server again. Here, not in the sync client, so that pages need not load it.
 */
export const CASE_SYNCED_EVENT = "offline:case-synced";

export interface CaseSynced {
  surveyId: number;
  patientId: string;
  patientDataId: number;
  /** The case's answers version on the server after the sync, when the server named it. */
  version?: number;
  /** What the server holds of the case now (as this device sent it). */
  answers: Answers;
  preliminary: PreliminaryAnswers;
  /** Nothing of the fill is left on the device: its answers, files and close are all on the server. */
  done: boolean;
  /** The fill was submitted, and the server has closed the case (with `done`). */
  closed?: boolean;
}

export function announceCaseSynced(detail: CaseSynced) {
  if (typeof window !== "undefined") window.dispatchEvent(new CustomEvent(CASE_SYNCED_EVENT, { detail }));
}

/** Calls `listener` with each sync of this case; returns the function that stops listening. */
export function onCaseSynced(surveyId: number, patientId: string, listener: (synced: CaseSynced) => void) {
  const handle = (event: Event) => {
    const synced = (event as CustomEvent<CaseSynced>).detail;
    if (synced.surveyId === surveyId && synced.patientId === patientId) listener(synced);
  };
  window.addEventListener(CASE_SYNCED_EVENT, handle);
  return () => window.removeEventListener(CASE_SYNCED_EVENT, handle);
}
