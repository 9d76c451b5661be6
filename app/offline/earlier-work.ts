import { clear, createStore, del, entries, values, type UseStore } from "idb-keyval";
import type { FillEntry } from "./fill-entry";
import type { CaseCopy } from "./case-copies";
import { entryName, entryStore, fillsName, markPending } from "./fill-store";
import { personStore, sealedSet, sealedUpdate } from "./sealed";
import { TYPED_KEY } from "./typed-key";
import { nameOf, type Holder } from "./vault";

/**
 * What earlier versions kept in clear, taken into the holder's sealed stores when a person first opens
 * them here (decision 048). A fill goes to the person who made it (its userId) and to nobody else: the
 * fills of others stay where they are until they sign in here. The copies of surveys and cases, and notes
 * of typed values, which name nobody, go to the first person who opens the device after the update, as
 * earlier versions gave them to whoever was signed in; a survey that person may not fill is dropped by the
 * list's next look at the server (downloads.ts, refreshCopies). What nobody needs any more goes.
 */

const OLD_FILLS = /^survey-offline-(\d+)$/;
const OLD_CASES = /^survey-cases-(\d+)$/;
const OLD_SURVEYS = "survey-offline";
const OLD_ROOT = "offline:root";

async function databaseNames(): Promise<string[]> {
  if (typeof indexedDB === "undefined" || typeof indexedDB.databases !== "function") return [];
  return (await indexedDB.databases().catch(() => [])).flatMap((d) => (d.name ? [d.name] : []));
}

function dropDatabase(name: string): Promise<void> {
  return new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
}

async function adoptFills(holder: Holder, userId: string, dbName: string, surveyId: number) {
  const old: UseStore = createStore(dbName, "patients");
  let left = 0;
  for (const [patientId, entry] of await entries<IDBValidKey, FillEntry>(old)) {
    if (entry?.upload?.userId !== userId) {
      left += 1;
      continue;
    }
    const name = await entryName(holder, surveyId, entry.patientId);
    // A fill of the same case made since the update is newer: it stays.
    await sealedUpdate<FillEntry>(holder, entryStore(holder, surveyId), fillsName(surveyId), name, (now) =>
      now ? undefined : entry,
    );
    await markPending(holder, surveyId, entry.patientId);
    await del(patientId, old);
  }
  if (left === 0) await dropDatabase(dbName);
}

/** The downloaded surveys (under their ids, and the list under "all"): the same keys, sealed. */
async function adoptSurveys(holder: Holder) {
  const old = createStore(OLD_SURVEYS, "surveys");
  const target = personStore(holder, "surveys");
  for (const [key, value] of await entries(old)) await sealedSet(holder, target, key, value);
  await clear(old).catch(() => undefined);
  await dropDatabase(OLD_SURVEYS);
}

async function adoptCaseCopies(holder: Holder, dbName: string, surveyId: number) {
  const copies = await values<CaseCopy>(createStore(dbName, "cases")).catch(() => []);
  for (const copy of copies) {
    const key = await nameOf(holder, "case", surveyId, copy.patientId);
    await sealedSet(holder, personStore(holder, `cases-${surveyId}`), key, copy);
  }
  await dropDatabase(dbName);
}

export async function adoptEarlierWork(holder: Holder, userId: string): Promise<void> {
  const names = await databaseNames();
  for (const name of names) {
    const fills = OLD_FILLS.exec(name);
    if (fills) await adoptFills(holder, userId, name, Number(fills[1]));
  }
  if (names.includes(OLD_SURVEYS)) await adoptSurveys(holder);
  for (const name of names) {
    const cases = OLD_CASES.exec(name);
    if (cases) await adoptCaseCopies(holder, name, Number(cases[1]));
  }
  for (const name of ["survey-offline-fills", "survey-offline-pending", "fill-places"]) {
    if (names.includes(name)) await dropDatabase(name);
  }
  adoptJournal(holder);
  try {
    window.localStorage.removeItem(OLD_ROOT);
  } catch {
    // No local storage here: nothing kept in it.
  }
}

/** The clear notes of typed values of earlier versions, noted again sealed for the holder. */
function adoptJournal(holder: Holder) {
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(TYPED_KEY);
  } catch {
    return;
  }
  if (!raw) return;
  void import("./typed-journal").then(async (journal) => {
    if ((await journal.journalReady())?.tag !== holder.tag) return;
    try {
      const notes = Object.values(JSON.parse(raw) as Record<string, Parameters<typeof journal.noteTyped>[0][number]>);
      journal.noteTyped(notes);
    } catch {
      // Unreadable notes: nothing to take.
    }
    window.localStorage.removeItem(TYPED_KEY);
  });
}
