import { del, get, keys } from "idb-keyval";
import type { CaseBase } from "./case-copies";
import { newFillId, type FillEntry } from "./fill-entry";
import { entryName, entryStore, fillsName, keptSurveyIds, markPending, pending, unmarkPending } from "./fill-store";
import { exclusive, sealedGet, sealedSet, sealedUpdate, sealedValues, unseal } from "./sealed";
import { currentHolder, requireHolder } from "./vault";

/**
 * What the sync and the sync modal do with the holder's fills kept on this device (fill-store.ts keeps
 * them): read them in bulk, record what reached the server, and the user's decisions. Loaded with the sync, not with
 * every page.
 */

/** The holder's entries marked for the automatic sync. */
export async function pendingEntries(): Promise<FillEntry[]> {
  const holder = await currentHolder();
  if (!holder) return [];
  const list = (await keys(pending(holder))).map((k) => JSON.parse(String(k)) as [number, string]);
  const found = await Promise.all(
    list.map(([surveyId, name]) => sealedGet<FillEntry>(holder, entryStore(holder, surveyId), name)),
  );
  return found.filter((e): e is FillEntry => e !== undefined);
}

/** The holder's first `limit` fills kept on this device (by survey), without reading the rest. */
export async function firstEntries(limit: number): Promise<FillEntry[]> {
  const holder = await currentHolder();
  if (!holder) return [];
  const found: FillEntry[] = [];
  for (const id of await keptSurveyIds(holder)) {
    if (found.length >= limit) break;
    const page = await entryStore(holder, id)(
      "readonly",
      (store) =>
        new Promise<unknown[]>((resolve, reject) => {
          const request = store.getAll(null, limit - found.length);
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        }),
    );
    const opened = await Promise.all(page.map((v) => unseal<FillEntry>(holder, v)));
    found.push(...opened.filter((e): e is FillEntry => e !== undefined));
  }
  return found;
}

/** Every fill the holder keeps on this device, of every survey. */
export async function listEntries(): Promise<FillEntry[]> {
  const holder = await currentHolder();
  if (!holder) return [];
  const lists = await Promise.all(
    (await keptSurveyIds(holder)).map((id) => sealedValues<FillEntry>(holder, entryStore(holder, id))),
  );
  return lists.flat();
}

/** Changes a stored entry of the holder's; `apply` answers undefined to leave it as it is. */
async function changeIf(
  surveyId: number,
  patientId: string,
  apply: (entry: FillEntry) => FillEntry | undefined,
): Promise<FillEntry | undefined> {
  const holder = await currentHolder();
  if (!holder) return undefined;
  let result: FillEntry | undefined;
  await sealedUpdate<FillEntry>(
    holder,
    entryStore(holder, surveyId),
    fillsName(surveyId),
    await entryName(holder, surveyId, patientId),
    (old) => (result = old ? apply(old) : undefined),
  );
  return result;
}

/**
 * The answers of version `rev` are on the server (case `patientDataId`). What changes later sends what
 * changed since the answers sent now (`sent`, of the case's answers version the server named), or,
 * without a version, replaces the server's answers. An entry changed meanwhile stays not synced under a
 * new fill id.
 */
export function markAnswersSynced(
  surveyId: number,
  patientId: string,
  rev: number,
  patientDataId: number,
  closed = false,
  sent?: Partial<CaseBase> & Pick<CaseBase, "answers" | "preliminary">,
) {
  return changeIf(surveyId, patientId, (e) => {
    e.patientDataId = patientDataId;
    e.closeSent = closed;
    e.syncError = undefined;
    // Whatever changes next (now, or while its files are still on their way) continues what was sent.
    if (sent?.version !== undefined) {
      e.base = { version: sent.version, answers: sent.answers, preliminary: sent.preliminary };
      e.overwrite = false;
    } else if (e.rev !== rev) e.overwrite = true;
    if (e.rev === rev) e.notSynced = false;
    else e.fillId = newFillId();
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
  const holder = await currentHolder();
  if (!holder) return false;
  const name = await entryName(holder, surveyId, patientId);
  return exclusive(`${fillsName(surveyId)}:${name}`, async () => {
    const entry = await sealedGet<FillEntry>(holder, entryStore(holder, surveyId), name);
    if (!entry || entry.notSynced || (entry.close && !entry.closeSent)) return false;
    if (Object.keys(entry.upload.files).length > 0) return false;
    await del(name, entryStore(holder, surveyId));
    await unmarkPending(surveyId, patientId);
    return true;
  });
}

/** Deletes an entry. Only ever called on the user's confirmed request. */
export async function deleteEntry(surveyId: number, patientId: string): Promise<void> {
  const holder = await requireHolder();
  await del(await entryName(holder, surveyId, patientId), entryStore(holder, surveyId));
  await unmarkPending(surveyId, patientId);
}

/** The user chose to replace the server's open case of this patient id. */
export async function chooseOverwrite(surveyId: number, patientId: string) {
  const holder = await requireHolder();
  await markPending(holder, surveyId, patientId);
  return changeIf(surveyId, patientId, (e) => ({ ...e, overwrite: true, syncError: undefined }));
}

/** Moves an entry to another patient id (a new fill for the server). Refuses an id already kept here. */
export async function changePatientId(surveyId: number, from: string, to: string): Promise<boolean> {
  const holder = await requireHolder();
  const store = entryStore(holder, surveyId);
  const [fromName, toName] = await Promise.all([entryName(holder, surveyId, from), entryName(holder, surveyId, to)]);
  const [entry, taken] = await Promise.all([sealedGet<FillEntry>(holder, store, fromName), get(toName, store)]);
  if (!entry || taken) return false;
  const moved: FillEntry = {
    ...entry,
    patientId: to,
    fillId: newFillId(),
    overwrite: false,
    // Another id is another case: its whole fill goes, continuing nothing.
    base: undefined,
    syncError: undefined,
    notSynced: true,
    patientDataId: undefined,
    closeSent: false,
  };
  await markPending(holder, surveyId, to);
  await sealedSet(holder, store, toName, moved);
  await del(fromName, store);
  await unmarkPending(surveyId, from);
  return true;
}
