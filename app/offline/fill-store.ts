import { createStore, del, get, set, update, type UseStore } from "idb-keyval";
import type { AnswerValue, Answers, PreliminaryAnswers } from "~/domain/answers";
import type { Question, Survey } from "~/domain/survey";
import type { CaseBase } from "./case-copies";
import { answerKind } from "~/domain/question-types";
import { newFillId, type FillEntry, type LocalFile } from "./fill-entry";

/**
 * Fills made on this device: one store per survey, keyed by patient id (section 3). An index lists the
 * surveys that have such a store, so the sync modal finds every entry, also of surveys no longer stored.
 * What the page needs to keep a fill is here; what the sync and its modal do with the kept fills is in
 * fill-sync-store.ts, which loads with them (not with every page).
 */
/** Dispatched on window when a fill was changed on this device. */
export const ENTRIES_EVENT = "offline:entries";

const stores = new Map<number, UseStore>();
let indexStore: UseStore | null = null;

export function entryStore(surveyId: number): UseStore {
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
export function pending(): UseStore {
  pendingStore ??= createStore("survey-offline-pending", "keys");
  return pendingStore;
}
const pendingKey = (surveyId: number, patientId: string) => JSON.stringify([surveyId, patientId]);
export const markPending = (surveyId: number, patientId: string) => set(pendingKey(surveyId, patientId), 1, pending());
export const unmarkPending = (surveyId: number, patientId: string) => del(pendingKey(surveyId, patientId), pending());

const STORE_NAME = /^survey-offline-(\d+)$/;

/**
 * The surveys with a store of fills: the index, and every such database of this origin, so that an entry
 * whose index update was cut off (the page closed between the two writes) is still listed and synced.
 */
export async function keptSurveyIds(): Promise<number[]> {
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
  surveyUserDataId: number;
  userId: string;
  /** What the page already held when it went offline (a case opened online): the entry starts from it. */
  seed?: { answers: Answers; preliminary: PreliminaryAnswers; questionTypes: FillEntry["questionTypes"] };
  /** The server's state the seed is (its answers version): the sync sends only the changes to it. */
  base?: CaseBase;
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

/** Test support: fresh store handles after the databases were replaced. */
export function resetFillStoreForTests() {
  stores.clear();
  indexStore = null;
  pendingStore = null;
}
