import { createStore, del, get, keys, set, update, values, type UseStore } from "idb-keyval";
import type { AnswerValue, Answers, PreliminaryAnswers } from "~/domain/answers";
import type { Question, Survey } from "~/domain/survey";
import { answerKind, newFillId, type FillEntry, type LocalFile } from "./fill-entry";

/**
 * Fills made on this device: one store per survey, keyed by patient id (section 3). An index lists the
 * surveys that have such a store, so the sync modal finds every entry, also of surveys no longer stored.
 */
/** Dispatched on window when a fill was changed on this device. */
export const ENTRIES_EVENT = "offline:entries";

const stores = new Map<number, UseStore>();
let indexStore: UseStore | null = null;

function entryStore(surveyId: number): UseStore {
  let store = stores.get(surveyId);
  if (!store) {
    store = createStore(`survey-offline-${surveyId}`, "patients");
    stores.set(surveyId, store);
  }
  return store;
}

function index(): UseStore {
  indexStore ??= createStore("survey-offline-fills", "index");
  return indexStore;
}

/**
 * The entries the automatic sync should look at (changed since their last sync, or released by the user),
 * so it need not read thousands of entries that wait for a decision.
 */
let pendingStore: UseStore | null = null;
function pending(): UseStore {
  pendingStore ??= createStore("survey-offline-pending", "keys");
  return pendingStore;
}
const pendingKey = (surveyId: number, patientId: string) => JSON.stringify([surveyId, patientId]);
const markPending = (surveyId: number, patientId: string) => set(pendingKey(surveyId, patientId), 1, pending());
export const unmarkPending = (surveyId: number, patientId: string) => del(pendingKey(surveyId, patientId), pending());

/** The entries marked for the automatic sync. */
export async function pendingEntries(): Promise<FillEntry[]> {
  const list = (await keys(pending())).map((k) => JSON.parse(String(k)) as [number, string]);
  const found = await Promise.all(list.map(([surveyId, patientId]) => getEntry(surveyId, patientId)));
  return found.filter((e): e is FillEntry => e !== undefined);
}

const STORE_NAME = /^survey-offline-(\d+)$/;

/**
 * The surveys with a store of fills: the index, and every such database of this origin, so that an entry
 * whose index update was cut off (the page closed between the two writes) is still listed and synced.
 */
async function keptSurveyIds(): Promise<number[]> {
  const ids = new Set((await get<number[]>("surveys", index())) ?? []);
  if (typeof indexedDB !== "undefined" && typeof indexedDB.databases === "function") {
    const databases = await indexedDB.databases().catch(() => []);
    for (const { name } of databases) {
      const match = STORE_NAME.exec(name ?? "");
      if (match) ids.add(Number(match[1]));
    }
  }
  return [...ids];
}

async function remember(surveyId: number) {
  await update<number[]>("surveys", (ids = []) => (ids.includes(surveyId) ? ids : [...ids, surveyId]), index());
}

export interface EntryContext {
  survey: Pick<Survey, "Id" | "Title" | "Hash">;
  patientId: string;
  ssiUserDataId: number;
  userId: string;
  /** What the page already held when it went offline (a case opened online): the entry starts from it. */
  seed?: { answers: Answers; preliminary: PreliminaryAnswers; questionTypes: FillEntry["questionTypes"] };
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
    // A case opened online is this device's own: its complete answers replace the server's on sync.
    overwrite: Boolean(ctx.seed),
    upload: { files: {}, ssiUserDataId: ctx.ssiUserDataId, userId: ctx.userId },
    rev: 0,
    modified: new Date().toISOString(),
  };
}

/** One local change, atomic: the entry is created when missing and marked not synced. */
async function change(ctx: EntryContext, apply: (entry: FillEntry) => void): Promise<FillEntry> {
  let result: FillEntry | undefined;
  // The answer first, in one transaction: a page closed right after it loses as little as possible,
  // and an entry missing from the index is still found (keptSurveyIds).
  await update<FillEntry>(
    ctx.patientId,
    (old) => {
      const entry: FillEntry = old ? structuredClone(old) : fresh(ctx);
      apply(entry);
      entry.notSynced = true;
      entry.syncError = undefined;
      entry.rev += 1;
      entry.modified = new Date().toISOString();
      result = entry;
      return entry;
    },
    entryStore(ctx.survey.Id),
  );
  await Promise.all([remember(ctx.survey.Id), markPending(ctx.survey.Id, ctx.patientId)]);
  if (typeof window !== "undefined") window.dispatchEvent(new Event(ENTRIES_EVENT));
  return result!;
}

export function getEntry(surveyId: number, patientId: string): Promise<FillEntry | undefined> {
  return get<FillEntry>(patientId, entryStore(surveyId));
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

/** How many fills are kept on this device (without reading them). */
export async function countEntries(): Promise<number> {
  const ids = await keptSurveyIds();
  const counts = await Promise.all(
    ids.map((id) =>
      entryStore(id)(
        "readonly",
        (store) =>
          new Promise<number>((resolve, reject) => {
            const request = store.count();
            request.onsuccess = () => resolve(request.result);
            request.onerror = () => reject(request.error);
          }),
      ),
    ),
  );
  return counts.reduce((a, b) => a + b, 0);
}

/** The first `limit` fills kept on this device (by survey, then patient id), without reading the rest. */
export async function firstEntries(limit: number): Promise<FillEntry[]> {
  const ids = await keptSurveyIds();
  const found: FillEntry[] = [];
  for (const id of ids) {
    if (found.length >= limit) break;
    const page = await entryStore(id)(
      "readonly",
      (store) =>
        new Promise<FillEntry[]>((resolve, reject) => {
          const request = store.getAll(null, limit - found.length);
          request.onsuccess = () => resolve(request.result as FillEntry[]);
          request.onerror = () => reject(request.error);
        }),
    );
    found.push(...page);
  }
  return found;
}

/** Every fill kept on this device, of every survey. */
export async function listEntries(): Promise<FillEntry[]> {
  const ids = await keptSurveyIds();
  const lists = await Promise.all(ids.map((id) => values<FillEntry>(entryStore(id))));
  return lists.flat();
}

/** Changes a stored entry only if it is still the version `rev` (nothing was answered meanwhile). */
async function changeIf(
  surveyId: number,
  patientId: string,
  apply: (entry: FillEntry) => FillEntry | undefined,
): Promise<FillEntry | undefined> {
  let result: FillEntry | undefined;
  await update<FillEntry | undefined>(
    patientId,
    (old) => (result = old ? apply(structuredClone(old)) : undefined) ?? old,
    entryStore(surveyId),
  );
  return result;
}

/**
 * The answers of version `rev` are on the server (case `patientDataId`). If the entry changed meanwhile,
 * it stays not synced under a new fill id and replaces the server's answers next time.
 */
export function markAnswersSynced(
  surveyId: number,
  patientId: string,
  rev: number,
  patientDataId: number,
  closed = false,
) {
  return changeIf(surveyId, patientId, (e) => {
    e.patientDataId = patientDataId;
    e.closeSent = closed;
    e.syncError = undefined;
    if (e.rev === rev) e.notSynced = false;
    else Object.assign(e, { fillId: newFillId(), overwrite: true });
    return e;
  });
}

export async function setSyncError(surveyId: number, patientId: string, error: FillEntry["syncError"]) {
  await unmarkPending(surveyId, patientId);
  return changeIf(surveyId, patientId, (e) => ({ ...e, syncError: error }));
}

/** One file is on the server (or refused: then it stays with its error). */
export function settleFile(surveyId: number, patientId: string, questionId: number, name: string, error?: string) {
  return changeIf(surveyId, patientId, (e) => {
    const list = e.upload.files[questionId] ?? [];
    const next = error ? list.map((f) => (f.name === name ? { ...f, error } : f)) : list.filter((f) => f.name !== name);
    if (next.length) e.upload.files[questionId] = next;
    else delete e.upload.files[questionId];
    return e;
  });
}

/** The server closed the case after its files arrived. */
export function markClosed(surveyId: number, patientId: string) {
  return changeIf(surveyId, patientId, (e) => ({ ...e, closeSent: true }));
}

/** Removes an entry whose answers and files are all on the server; anything still pending keeps it. */
export async function clearIfDone(surveyId: number, patientId: string): Promise<boolean> {
  const entry = await getEntry(surveyId, patientId);
  if (!entry || entry.notSynced || (entry.close && !entry.closeSent)) return false;
  if (Object.keys(entry.upload.files).length > 0) return false;
  await del(patientId, entryStore(surveyId));
  await unmarkPending(surveyId, patientId);
  return true;
}

/** Deletes an entry. Only ever called on the user's confirmed request. */
export async function deleteEntry(surveyId: number, patientId: string): Promise<void> {
  await del(patientId, entryStore(surveyId));
  await unmarkPending(surveyId, patientId);
}

/** The user chose to replace the server's open case of this patient id. */
export async function chooseOverwrite(surveyId: number, patientId: string) {
  await markPending(surveyId, patientId);
  return changeIf(surveyId, patientId, (e) => ({ ...e, overwrite: true, syncError: undefined }));
}

/** Moves an entry to another patient id (a new fill for the server). Refuses an id already kept here. */
export async function changePatientId(surveyId: number, from: string, to: string): Promise<boolean> {
  const store = entryStore(surveyId);
  const [entry, taken] = await Promise.all([get<FillEntry>(from, store), get<FillEntry>(to, store)]);
  if (!entry || taken) return false;
  const moved: FillEntry = {
    ...entry,
    patientId: to,
    fillId: newFillId(),
    overwrite: false,
    syncError: undefined,
    notSynced: true,
    patientDataId: undefined,
    closeSent: false,
  };
  await markPending(surveyId, to);
  await set(to, moved, store);
  await del(from, store);
  await unmarkPending(surveyId, from);
  return true;
}

/** Test support: fresh store handles after the databases were replaced. */
export function resetFillStoreForTests() {
  stores.clear();
  indexStore = null;
  pendingStore = null;
}
