import { del, get, set, update, type UseStore } from "idb-keyval";
import type { AnswerValue, Answers, PreliminaryAnswers } from "~/domain/answers";
import type { Question, Survey } from "~/domain/survey";
import type { ContentLanguage } from "~/domain/languages";
import type { CaseBase } from "./case-copies";
import { answerKind } from "~/domain/question-types";
import { newFillId, type FillEntry, type LocalFile } from "./fill-entry";
import { deviceHandover } from "./handover-record";
import { parsePersonDb, personStore, sealedGet, sealedUpdate } from "./sealed";
import { currentHolder, nameOf, requireHolder, type Holder } from "./vault";

/**
 * Fills made on this device by the person who holds it now (vault.ts, decision 048): one sealed store per
 * survey, each fill under a name made of its patient id with that person's keys. An index lists the
 * surveys that have such a store, so the sync modal finds every entry, also of surveys no longer stored.
 * Another person's fills are in stores of their own, which nothing here opens. What the page needs to keep
 * a fill is here; what the sync and its modal do with the kept fills is in fill-sync-store.ts, which loads
 * with them (not with every page).
 */
/** Dispatched on window when a fill was changed on this device. */
export const ENTRIES_EVENT = "offline:entries";

export const fillsName = (surveyId: number) => `fills-${surveyId}`;
export const entryStore = (holder: Holder, surveyId: number): UseStore => personStore(holder, fillsName(surveyId));
const index = (holder: Holder) => personStore(holder, "fill-index");

/** The name a fill is kept under: its patient id, with the holder's keys. */
export const entryName = (holder: Holder, surveyId: number, patientId: string) =>
  nameOf(holder, "fill", surveyId, patientId);

/**
 * The entries the automatic sync should look at (changed since their last sync, or released by the user),
 * so it need not read thousands of entries that wait for a decision. Keyed by survey id and entry name.
 */
export const pending = (holder: Holder) => personStore(holder, "pending");
const pendingKey = (surveyId: number, name: string) => JSON.stringify([surveyId, name]);
export async function markPending(holder: Holder, surveyId: number, patientId: string) {
  await set(pendingKey(surveyId, await entryName(holder, surveyId, patientId)), 1, pending(holder));
}
export async function unmarkPending(surveyId: number, patientId: string) {
  const holder = await currentHolder();
  if (holder) await del(pendingKey(surveyId, await entryName(holder, surveyId, patientId)), pending(holder));
}

/**
 * The surveys with a store of the holder's fills: the index, and every such database of this origin, so
 * that an entry whose index update was cut off (the page closed between the two writes) is still listed.
 */
export async function keptSurveyIds(holder: Holder): Promise<number[]> {
  const ids = new Set((await get<number[]>("surveys", index(holder))) ?? []);
  for (const { tag, surveyId } of await fillDatabases()) if (tag === holder.tag) ids.add(surveyId);
  return [...ids];
}

/** Every database of fills on this device, of every person: their tags and survey ids, nothing more. */
export async function fillDatabases(): Promise<{ name: string; tag: string; surveyId: number }[]> {
  if (typeof indexedDB === "undefined" || typeof indexedDB.databases !== "function") return [];
  const databases = await indexedDB.databases().catch(() => []);
  return databases.flatMap(({ name }) => {
    const db = parsePersonDb(name ?? "");
    const match = db && /^fills-(\d+)$/.exec(db.name);
    return db && match ? [{ name: name!, tag: db.tag, surveyId: Number(match[1]) }] : [];
  });
}

async function remember(holder: Holder, surveyId: number) {
  await update<number[]>("surveys", (ids = []) => (ids.includes(surveyId) ? ids : [...ids, surveyId]), index(holder));
}

export interface EntryContext {
  survey: Pick<Survey, "Id" | "Title" | "Hash">;
  patientId: string;
  surveyUserDataId: number;
  userId: string;
  /** What the page already held when it went offline (a case opened online): the entry starts from it. */
  seed?: { answers: Answers; preliminary: PreliminaryAnswers; questionTypes: FillEntry["questionTypes"] };
  /** The server's state the seed is (its answers version): the sync sends only the changes to it. */
  base?: CaseBase;
  /** The language the case is filled in, for a fill made now. */
  language?: ContentLanguage;
}

function fresh(ctx: EntryContext): FillEntry {
  return {
    surveyId: ctx.survey.Id,
    surveyTitle: ctx.survey.Title,
    surveyHash: ctx.survey.Hash,
    patientId: ctx.patientId,
    fillId: newFillId(),
    status: "Open",
    answers: { ...ctx.seed?.answers },
    preliminaryAnswers: { ...ctx.seed?.preliminary },
    questionTypes: { ...ctx.seed?.questionTypes },
    notSynced: true,
    close: false,
    // A case continued from the server's state sends its changes to that state; one whose state is not
    // known (a page of an earlier version) replaces the server's answers with its complete set.
    overwrite: Boolean(ctx.seed) && !ctx.base,
    ...(ctx.base ? { base: ctx.base } : {}),
    upload: { files: {}, ssiUserDataId: ctx.surveyUserDataId, userId: ctx.userId },
    ...(ctx.language ? { language: ctx.language } : {}),
    rev: 0,
    modified: new Date().toISOString(),
  };
}

/** Whether the device is handed over to the patient for this case now (docs/decisions/058-hand-over.md). */
async function handedOverFor(holder: Holder, ctx: EntryContext): Promise<boolean> {
  const mode = await deviceHandover(holder).catch(() => null);
  if (!mode || mode.returned) return false;
  return mode.case.surveyId === ctx.survey.Id && mode.case.patientId === ctx.patientId;
}

/** One local change, atomic: the entry is created when missing and marked not synced. */
async function change(ctx: EntryContext, apply: (entry: FillEntry) => void): Promise<FillEntry> {
  const holder = await requireHolder();
  const surveyId = ctx.survey.Id;
  const byPatient = await handedOverFor(holder, ctx);
  // The answer first: a page closed right after it loses as little as possible, and an entry missing
  // from the index is still found (keptSurveyIds).
  const result = (await sealedUpdate<FillEntry>(
    holder,
    entryStore(holder, surveyId),
    fillsName(surveyId),
    await entryName(holder, surveyId, ctx.patientId),
    (old) => {
      const entry: FillEntry = old ?? fresh(ctx);
      apply(entry);
      // Once the patient answered it on this device, the case stays theirs (as the online saves mark it).
      if (byPatient) entry.respondent = "handover";
      entry.notSynced = true;
      entry.syncError = undefined;
      entry.rev += 1;
      entry.modified = new Date().toISOString();
      return entry;
    },
  ))!;
  await Promise.all([remember(holder, surveyId), markPending(holder, surveyId, ctx.patientId)]);
  if (typeof window !== "undefined") window.dispatchEvent(new Event(ENTRIES_EVENT));
  return result;
}

/** The holder's fill of this patient id, if any (none while nobody holds the device). */
export async function getEntry(surveyId: number, patientId: string): Promise<FillEntry | undefined> {
  const holder = await currentHolder();
  if (!holder) return undefined;
  return sealedGet<FillEntry>(holder, entryStore(holder, surveyId), await entryName(holder, surveyId, patientId));
}

export function recordAnswer(ctx: EntryContext, question: Question, value: AnswerValue | undefined) {
  return change(ctx, (e) => {
    if (value) {
      e.answers[question.Id] = value;
      e.questionTypes[question.Id] = answerKind(question);
    } else delete e.answers[question.Id];
  });
}

export function recordPreliminary(ctx: EntryContext, attributeId: number, optionId: number) {
  return change(ctx, (e) => void (e.preliminaryAnswers[attributeId] = optionId));
}

export function recordClose(ctx: EntryContext) {
  return change(ctx, (e) => {
    e.close = true;
    e.status = "Closed";
  });
}

/** The language the case is filled in from now on (a fill with nothing else yet is made for it). */
export function recordLanguage(ctx: EntryContext, language: ContentLanguage) {
  return change(ctx, (e) => void (e.language = language));
}

export function addFile(ctx: EntryContext, questionId: number, file: LocalFile) {
  return change(ctx, (e) => {
    const list = (e.upload.files[questionId] ?? []).filter((f) => f.name !== file.name);
    e.upload.files[questionId] = [...list, file];
  });
}

export function removeFile(ctx: EntryContext, questionId: number, name: string) {
  return change(ctx, (e) => {
    const list = (e.upload.files[questionId] ?? []).filter((f) => f.name !== name);
    if (list.length) e.upload.files[questionId] = list;
    else delete e.upload.files[questionId];
  });
}

/** How many fills the holder keeps on this device (without reading them). */
export async function countEntries(): Promise<number> {
  const holder = await currentHolder();
  if (!holder) return 0;
  const counts = await Promise.all((await keptSurveyIds(holder)).map((id) => countIn(entryStore(holder, id))));
  return counts.reduce((a, b) => a + b, 0);
}

export function countIn(store: UseStore): Promise<number> {
  return store(
    "readonly",
    (s) =>
      new Promise<number>((resolve, reject) => {
        const request = s.count();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      }),
  );
}
