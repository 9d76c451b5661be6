import { attachmentsApi } from "~/contracts/attachments";
import { apiUrl } from "~/contracts/contract";
import { patientsApi } from "~/contracts/patients";
import { syncApi } from "~/contracts/sync";
import { IDEMPOTENCY_HEADER, isSyncErrorType } from "~/domain/sync-errors";
import { uploadErrorKeys } from "~/domain/uploads";
import { pendingFiles, type FillEntry, type LocalFile } from "./fill-entry";
import { dropCaseCopy, keepCaseCopy } from "./case-copies";
import { announceCaseSynced, type CaseSynced } from "./case-synced";
import { syncPayload } from "./sync-payload";
import { countEntries, ENTRIES_EVENT, getEntry, unmarkPending } from "./fill-store";
import {
  clearIfDone,
  markAnswersSynced,
  markClosed,
  pendingEntries,
  setSyncError,
  settleFile,
} from "./fill-sync-store";

/**
 * Replays fills made offline: the answers in one request (POST /api/survey-offline-sync/{surveyId}, with
 * the fill's id as Idempotency-Key), then each file to the case the server named. Local data is cleared
 * only when everything of an entry is on the server; a refusal is stored on the entry for the user to
 * decide. Nothing unsynced is ever deleted here.
 */
export type EntryOutcome = "synced" | "conflict" | "filesLeft" | "failed" | "offline" | "unauthorized";

type Fetch = typeof fetch;

/** Dispatched on window when a sync starts: views of local files (the file modal) close, as they go stale. */
export const SYNC_START_EVENT = "offline:sync-start";

function announceStart() {
  if (typeof window !== "undefined") window.dispatchEvent(new Event(SYNC_START_EVENT));
}

const DUPLICATE = "SURVEY_ATTACHMENTS_DUPLICATED_FILENAME";

async function errorBody(res: Response): Promise<{ Type?: string; Error?: string }> {
  return ((await res.json().catch(() => null)) as { Type?: string; Error?: string } | null) ?? {};
}

const closesAtOnce = (entry: FillEntry) => entry.close && pendingFiles(entry).length === 0;

/** What the server answered for an applied fill: its case, and the case's answers version after it. */
interface Applied {
  patientDataId: number;
  version?: number;
}

async function postAnswers(entry: FillEntry, fetchFn: Fetch): Promise<EntryOutcome | Applied> {
  let res: Response;
  try {
    res = await fetchFn(apiUrl(syncApi.sync, { params: { surveyId: entry.surveyId } }), {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", accept: "application/json", [IDEMPOTENCY_HEADER]: entry.fillId },
      // A case with files to come is closed after them: a closed case takes no more files.
      body: JSON.stringify(syncPayload(entry, closesAtOnce(entry))),
    });
  } catch {
    return "offline";
  }
  if (res.status === 401) return "unauthorized";
  // Another person's fill (it should never be here): left as it is, for its author to sync.
  if (res.status === 403) return (await errorBody(res)).Type === "SYNC_FILL_OTHER_AUTHOR" ? "failed" : "unauthorized";
  if (res.ok) {
    const body = (await res.json().catch(() => null)) as { Data?: unknown; Version?: unknown } | null;
    if (typeof body?.Data === "number") {
      return { patientDataId: body.Data, version: typeof body.Version === "number" ? body.Version : undefined };
    }
    await setSyncError(entry.surveyId, entry.patientId, "UNKNOWN");
    return "failed";
  }
  const { Type } = await errorBody(res);
  await setSyncError(entry.surveyId, entry.patientId, isSyncErrorType(Type) ? Type : "UNKNOWN");
  return isSyncErrorType(Type) ? "conflict" : "failed";
}

async function uploadFile(
  entry: FillEntry,
  patientDataId: number,
  questionId: number,
  file: LocalFile,
  fetchFn: Fetch,
): Promise<"done" | "refused" | "offline" | "unauthorized"> {
  const query = {
    questionId,
    patientDataId,
    surveyId: entry.surveyId,
    ssiUserDataId: entry.upload.ssiUserDataId,
    userId: entry.upload.userId,
  };
  const body = new FormData();
  body.append("files", new Blob([file.bytes], { type: file.type }), file.name);
  let res: Response;
  try {
    res = await fetchFn(apiUrl(attachmentsApi.upload, { query }), { method: "POST", body, credentials: "same-origin" });
  } catch {
    return "offline";
  }
  if (res.status === 401 || res.status === 403) return "unauthorized";
  if (res.ok) {
    await settleFile(entry.surveyId, entry.patientId, questionId, file.name);
    return "done";
  }
  const { Type, Error } = await errorBody(res);
  const key = [Type, Error].find((k): k is string => Boolean(k && (uploadErrorKeys as readonly string[]).includes(k)));
  // A retried upload whose first try arrived: the file is already there.
  if (key === DUPLICATE) {
    await settleFile(entry.surveyId, entry.patientId, questionId, file.name);
    return "done";
  }
  await settleFile(entry.surveyId, entry.patientId, questionId, file.name, key ?? Error ?? `HTTP ${res.status}`);
  return "refused";
}

/** Closes the case once its files are settled; a case closed already counts as done. */
async function closeCase(entry: FillEntry, fetchFn: Fetch): Promise<"done" | "failed" | "offline" | "unauthorized"> {
  const query = { patientId: entry.patientId, surveyId: entry.surveyId };
  let res: Response;
  try {
    res = await fetchFn(apiUrl(patientsApi.close, { query }), {
      method: "POST",
      credentials: "same-origin",
      headers: { accept: "application/json" },
    });
  } catch {
    return "offline";
  }
  if (res.status === 401 || res.status === 403) return "unauthorized";
  const { Type } = res.ok ? {} : await errorBody(res);
  // A survey that requires a signature: the answers and files are on the server and the case stays open
  // there, to be signed online (decision 029); this device has nothing more to send.
  if (!res.ok && Type !== "SURVEY_ALREADY_CLOSED" && Type !== "SIGNATURE_REQUIRED") return "failed";
  await markClosed(entry.surveyId, entry.patientId);
  return "done";
}

/**
 * The device keeps the case as the fill left it on the server (its answers version), so that it can be
 * continued offline again without a clash with itself; a closed case is no longer kept.
 */
async function keepSynced(sent: FillEntry, applied: Applied, closed: boolean) {
  try {
    if (closed || applied.version === undefined) return await dropCaseCopy(sent.surveyId, sent.patientId);
    await keepCaseCopy({
      surveyId: sent.surveyId,
      patientId: sent.patientId,
      patientDataId: applied.patientDataId,
      version: applied.version,
      answers: sent.answers,
      preliminary: sent.preliminaryAnswers,
    });
  } catch {
    // The copy only spares a later clash; the sync itself is done.
  }
}

/**
 * Syncs one entry as far as it goes. `retryRefused` also re-sends files refused before (the user asked).
 */
export async function syncEntry(
  surveyId: number,
  patientId: string,
  options: { fetch?: Fetch; retryRefused?: boolean } = {},
): Promise<EntryOutcome> {
  const fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
  announceStart();
  let entry = await getEntry(surveyId, patientId);
  if (!entry) return "synced";
  /** What the server holds of the case after this sync's answers, or after an earlier one's. */
  let server: Omit<CaseSynced, "done"> | undefined;
  if (entry.notSynced) {
    const sent = entry;
    const posted = await postAnswers(sent, fetchFn);
    if (typeof posted === "string") return posted;
    const closed = closesAtOnce(sent);
    entry = await markAnswersSynced(surveyId, patientId, sent.rev, posted.patientDataId, closed, {
      version: posted.version,
      answers: sent.answers,
      preliminary: sent.preliminaryAnswers,
    });
    await keepSynced(sent, posted, closed);
    server = {
      surveyId,
      patientId,
      patientDataId: posted.patientDataId,
      version: posted.version,
      answers: sent.answers,
      preliminary: sent.preliminaryAnswers,
    };
    // An open fill page of the case says which of its answers are on the server now.
    announceCaseSynced({ ...server, done: false });
    if (!entry) return "synced";
    if (entry.notSynced) return "failed";
  }
  const patientDataId = entry.patientDataId;
  if (patientDataId === undefined) return "failed";
  let refused = false;
  for (const { questionId, file } of pendingFiles(entry)) {
    if (file.error && !options.retryRefused) {
      refused = true;
      continue;
    }
    const result = await uploadFile(entry, patientDataId, questionId, file, fetchFn);
    if (result === "offline" || result === "unauthorized") return result;
    if (result === "refused") refused = true;
  }
  const latest = await getEntry(surveyId, patientId);
  if (latest?.close && !latest.closeSent && !latest.notSynced) {
    const closed = await closeCase(latest, fetchFn);
    if (closed !== "done") return closed;
    await dropCaseCopy(surveyId, patientId).catch(() => undefined);
  }
  if (await clearIfDone(surveyId, patientId)) {
    // Answers synced by an earlier run: the entry kept the case's state they left (markAnswersSynced).
    const kept = latest ?? entry;
    server ??= {
      surveyId,
      patientId,
      patientDataId,
      version: kept.base?.version,
      answers: kept.base?.answers ?? kept.answers,
      preliminary: kept.base?.preliminary ?? kept.preliminaryAnswers,
    };
    announceCaseSynced({ ...server, done: true, closed: kept.close });
    return "synced";
  }
  return refused ? "filesLeft" : "failed";
}

/** Whether the automatic sync should try an entry: it waits for nobody's decision. */
export function isAutoSyncable(entry: FillEntry): boolean {
  if (entry.syncError) return false;
  return entry.notSynced || (entry.close && !entry.closeSent) || pendingFiles(entry).some((p) => !p.file.error);
}

/** The entries the automatic sync tries; those that wait for a decision leave the pending set. */
async function autoSyncable(): Promise<FillEntry[]> {
  const candidates = await pendingEntries();
  const waiting = candidates.filter((e) => !isAutoSyncable(e));
  await Promise.all(waiting.map((e) => unmarkPending(e.surveyId, e.patientId)));
  return candidates.filter(isAutoSyncable);
}

export interface SyncSummary {
  /** Entries sent in this run. */
  attempted: number;
  synced: number;
  /** Refused with a sync error the user decides on (clash, already closed, outdated, not active). */
  conflicts: number;
  /** Answers on the server, some files refused. */
  filesLeft: number;
  /** Not done for another reason (the server failed): tried again later. */
  failed: number;
  left: number;
  offline: boolean;
  unauthorized: boolean;
}

/** Syncs every entry that needs no decision, a few at a time; stops when the network or sign-in is gone. */
export async function syncAll(options: { fetch?: Fetch; concurrency?: number; only?: FillEntry[] } = {}) {
  const all = options.only ?? (await autoSyncable());
  const summary: SyncSummary = {
    attempted: 0,
    synced: 0,
    conflicts: 0,
    filesLeft: 0,
    failed: 0,
    left: 0,
    offline: false,
    unauthorized: false,
  };
  let next = 0;
  const worker = async () => {
    while (next < all.length && !summary.offline && !summary.unauthorized) {
      const entry = all[next++];
      summary.attempted += 1;
      const outcome = await syncEntry(entry.surveyId, entry.patientId, { fetch: options.fetch });
      if (outcome === "synced") summary.synced += 1;
      else if (outcome === "conflict") summary.conflicts += 1;
      else if (outcome === "filesLeft") summary.filesLeft += 1;
      else if (outcome === "failed") summary.failed += 1;
      else if (outcome === "offline") summary.offline = true;
      else if (outcome === "unauthorized") summary.unauthorized = true;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  summary.left = await countEntries();
  // Whatever shows the kept fills (the sync modal, the unsynced count) reads them again.
  if (typeof window !== "undefined" && summary.attempted > 0) window.dispatchEvent(new Event(ENTRIES_EVENT));
  return summary;
}

/** What a sync run did, as message keys (with their counts) in the order they are read out. */
export function syncReport(summary: SyncSummary): { key: string; count?: number }[] {
  const parts: { key: string; count?: number }[] = [];
  if (summary.synced > 0) parts.push({ key: "offline.syncedCount", count: summary.synced });
  else if (summary.attempted > 0) parts.push({ key: "offline.syncedNone" });
  if (summary.conflicts > 0) parts.push({ key: "offline.syncDecide", count: summary.conflicts });
  if (summary.filesLeft > 0) parts.push({ key: "offline.syncFilesRefused", count: summary.filesLeft });
  if (summary.failed > 0) parts.push({ key: "offline.syncFailedCount", count: summary.failed });
  if (summary.offline) parts.push({ key: "errors.network" });
  if (summary.unauthorized) parts.push({ key: "offline.signInAgain" });
  return parts;
}
