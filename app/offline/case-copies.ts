import { clear, createStore, del, get, keys, update, type UseStore } from "idb-keyval";
import type { Answers, PreliminaryAnswers } from "~/domain/answers";
import { getEntry } from "./fill-store";
import { getSurvey } from "./survey-store";

/**
 * Open cases of a stored survey as the server held them (docs/decisions/038-typed-work-kept.md): those the
 * start page lists as latest come with the download, and a case filled online is kept as it is saved. A
 * case continued offline starts from its copy; its sync then sends only what changed since `version`.
 * One store per survey (`survey-cases-{id}`), keyed by patient id. These are not fills of this device:
 * nothing here is synced, and a copy may go whenever the server's case is found closed or gone.
 */
export interface CaseBase {
  /** The case's answers version on the server (it moves with every change of its answers). */
  version: number;
  answers: Answers;
  preliminary: PreliminaryAnswers;
}

export interface CaseCopy extends CaseBase {
  surveyId: number;
  patientId: string;
  patientDataId: number;
  keptAt: string;
}

const stores = new Map<number, UseStore>();

function copies(surveyId: number): UseStore {
  let store = stores.get(surveyId);
  if (!store) {
    store = createStore(`survey-cases-${surveyId}`, "cases");
    stores.set(surveyId, store);
  }
  return store;
}

export function getCaseCopy(surveyId: number, patientId: string): Promise<CaseCopy | undefined> {
  return get<CaseCopy>(patientId, copies(surveyId));
}

/**
 * An open case drawn online: the device keeps it as the server held it (with its answers version), to
 * continue it offline. The confirmation page, and a survey the device does not keep, keep nothing.
 */
export async function keepCaseOpened(d: {
  survey: { Id: number };
  patientId: string;
  patientDataId: number;
  version?: number;
  page: string;
  answers: Answers;
  preliminary: PreliminaryAnswers;
}) {
  if (d.version === undefined || !d.patientDataId || d.page === "done" || !(await getSurvey(d.survey.Id))) return;
  await keepCaseCopy({
    surveyId: d.survey.Id,
    patientId: d.patientId,
    patientDataId: d.patientDataId,
    version: d.version,
    answers: d.answers,
    preliminary: d.preliminary,
  });
}

/**
 * What this device knows of a patient id offline: a fill of it kept here (open or submitted), or the
 * server's open case it keeps.
 */
export async function knownOnDevice(surveyId: number, patientId: string) {
  const [entry, copy] = await Promise.all([
    getEntry(surveyId, patientId).catch(() => undefined),
    getCaseCopy(surveyId, patientId).catch(() => undefined),
  ]);
  const closed = entry?.status === "Closed";
  return { patientId, openIds: !closed && (entry || copy) ? [patientId] : [], isClosed: closed };
}

/** Keeps the case as the server held it at `version`; a copy of a later version already kept stays. */
export async function keepCaseCopy(copy: Omit<CaseCopy, "keptAt">): Promise<void> {
  await update<CaseCopy | undefined>(
    copy.patientId,
    (old) =>
      old && old.patientDataId === copy.patientDataId && old.version > copy.version
        ? old
        : { ...copy, keptAt: new Date().toISOString() },
    copies(copy.surveyId),
  );
}

export async function dropCaseCopy(surveyId: number, patientId: string): Promise<void> {
  await del(patientId, copies(surveyId));
}

export async function caseCopyIds(surveyId: number): Promise<string[]> {
  return (await keys(copies(surveyId))).map(String);
}

export async function dropCaseCopies(surveyId: number): Promise<void> {
  await clear(copies(surveyId));
}

export const baseOf = (copy: CaseBase): CaseBase => ({
  version: copy.version,
  answers: copy.answers,
  preliminary: copy.preliminary,
});

/** Test support: fresh store handles after the databases were replaced. */
export function resetCaseCopiesForTests() {
  stores.clear();
}
