import { clear, del } from "idb-keyval";
import type { Answers, PreliminaryAnswers } from "~/domain/answers";
import type { ContentLanguage } from "~/domain/languages";
import { getEntry } from "./fill-store";
import { getSurvey } from "./survey-store";
import { exclusive, personStore, sealedGet, sealedSet, sealedValues } from "./sealed";
import { currentHolder, nameOf, requireHolder, type Holder } from "./vault";

/**
 * Open cases of a stored survey as the server held them (docs/decisions/038-typed-work-kept.md): those the
 * start page lists as latest come with the download, and a case filled online is kept as it is saved. A
 * case continued offline starts from its copy; its sync then sends only what changed since `version`.
 * One sealed store per survey and holder (decision 048), each copy under a name made of its patient id
 * with the holder's keys. These are not fills of this device:
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
  /** The language the server's case is filled in (docs/decisions/055-fill-languages.md). */
  language?: ContentLanguage;
  keptAt: string;
}

const copiesName = (surveyId: number) => `cases-${surveyId}`;
const copies = (holder: Holder, surveyId: number) => personStore(holder, copiesName(surveyId));
const copyName = (holder: Holder, surveyId: number, patientId: string) => nameOf(holder, "case", surveyId, patientId);

export async function getCaseCopy(surveyId: number, patientId: string): Promise<CaseCopy | undefined> {
  const holder = await currentHolder();
  if (!holder) return undefined;
  return sealedGet<CaseCopy>(holder, copies(holder, surveyId), await copyName(holder, surveyId, patientId));
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
  language?: ContentLanguage;
}) {
  if (d.version === undefined || !d.patientDataId || d.page === "done" || !(await getSurvey(d.survey.Id))) return;
  await keepCaseCopy({
    surveyId: d.survey.Id,
    patientId: d.patientId,
    patientDataId: d.patientDataId,
    version: d.version,
    answers: d.answers,
    preliminary: d.preliminary,
    ...(d.language ? { language: d.language } : {}),
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
  const holder = await requireHolder();
  const store = copies(holder, copy.surveyId);
  const name = await copyName(holder, copy.surveyId, copy.patientId);
  await exclusive(`${copiesName(copy.surveyId)}:${name}`, async () => {
    const old = await sealedGet<CaseCopy>(holder, store, name);
    if (old && old.patientDataId === copy.patientDataId && old.version > copy.version) return;
    await sealedSet(holder, store, name, { ...copy, keptAt: new Date().toISOString() });
  });
}

export async function dropCaseCopy(surveyId: number, patientId: string): Promise<void> {
  const holder = await currentHolder();
  if (holder) await del(await copyName(holder, surveyId, patientId), copies(holder, surveyId));
}

/** The patient ids of the copies the holder keeps of this survey. */
export async function caseCopyIds(surveyId: number): Promise<string[]> {
  const holder = await currentHolder();
  if (!holder) return [];
  return (await sealedValues<CaseCopy>(holder, copies(holder, surveyId))).map((c) => c.patientId);
}

export async function dropCaseCopies(surveyId: number): Promise<void> {
  const holder = await currentHolder();
  if (holder) await clear(copies(holder, surveyId));
}

export const baseOf = (copy: CaseBase): CaseBase => ({
  version: copy.version,
  answers: copy.answers,
  preliminary: copy.preliminary,
});
