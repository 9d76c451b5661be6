import { createStore, del, get, set, type UseStore } from "idb-keyval";
import type { HandoverCase } from "../domain/handover";
import { DEVICE_DB, DEVICE_STORE, HANDOVER_MARK } from "./sw-constants";

/**
 * The hand-over's mark for the service worker (docs/decisions/058-hand-over.md): next to the device's holder
 * (`offline-device`, decision 048), that a hand-over runs, for whom (the holder's tag) and, sealed under the
 * holder's AES-GCM key as every kept value, for which case. The worker reads the holder's key from the same
 * store and opens it: offline, every page but that case's fill page and the way back then leads there.
 * Written when the hand-over starts, gone when it ends (also offline by the PIN). The worker bundles it: its
 * imports are relative and name no page code.
 */

export interface HandoverMark {
  tag: string;
  iv: Uint8Array;
  case: ArrayBuffer;
}

/** The part of the holder's keys (vault.ts) the mark needs. */
export interface MarkKeys {
  tag: string;
  data: CryptoKey;
}

let deviceStore: UseStore | null = null;
const device = () => (deviceStore ??= createStore(DEVICE_DB, DEVICE_STORE));

export async function writeHandoverMark(holder: MarkKeys, c: HandoverCase): Promise<void> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = new TextEncoder().encode(JSON.stringify({ surveyId: c.surveyId, patientId: c.patientId }));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, holder.data, plain);
  const mark: HandoverMark = { tag: holder.tag, iv, case: sealed };
  await set(HANDOVER_MARK, mark, device());
}

export async function clearHandoverMark(): Promise<void> {
  await del(HANDOVER_MARK, device());
}

/**
 * The case the device is handed over for, when the mark is the holder's and opens with their key; else
 * null (no hand-over, another person's mark, or one that does not open).
 */
export async function readHandoverMark(holder: MarkKeys): Promise<HandoverCase | null> {
  const mark = await get<HandoverMark>(HANDOVER_MARK, device()).catch(() => undefined);
  if (!mark || mark.tag !== holder.tag) return null;
  try {
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: mark.iv as BufferSource }, holder.data, mark.case);
    const c = JSON.parse(new TextDecoder().decode(plain)) as unknown;
    return isHandoverCase(c) ? { surveyId: c.surveyId, patientId: c.patientId } : null;
  } catch {
    return null;
  }
}

const isHandoverCase = (c: unknown): c is HandoverCase =>
  Boolean(c && typeof c === "object") &&
  Number.isInteger((c as HandoverCase).surveyId) &&
  typeof (c as HandoverCase).patientId === "string";

/** Test support: fresh store handles for a fresh IndexedDB. */
export function resetHandoverMarkForTests() {
  deviceStore = null;
}
