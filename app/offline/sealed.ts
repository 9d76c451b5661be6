import { createStore, del, get, keys, set, values, type UseStore } from "idb-keyval";
import type { Holder } from "./vault";

/**
 * Values kept sealed in a person's own IndexedDB stores (decision 048): each value is encrypted with the
 * holder's AES-GCM key under a fresh IV. Binary parts (the bytes of a file picked offline) travel in the
 * same sealed record. A change is read, applied and written under a lock (Web Locks, across the tabs of
 * this device), since sealing is asynchronous and cannot happen inside one IndexedDB transaction.
 */

/** A sealed value as IndexedDB holds it: version, IV and ciphertext. Nothing else of it is in clear. */
export interface Sealed {
  sealed: 1;
  iv: Uint8Array;
  data: ArrayBuffer;
}

const BINARY = "\u0000bin";
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The value as bytes: its JSON (binary parts stand as their index) and then each binary part. */
function pack(value: unknown): Uint8Array {
  const parts: Uint8Array[] = [];
  const json = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof ArrayBuffer) return { [BINARY]: parts.push(new Uint8Array(v)) - 1 };
    if (ArrayBuffer.isView(v))
      return { [BINARY]: parts.push(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)) - 1 };
    return v;
  });
  const text = encoder.encode(json ?? "null");
  const size = 4 + text.length + parts.reduce((n, p) => n + 4 + p.length, 0);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, text.length);
  out.set(text, 4);
  let at = 4 + text.length;
  for (const part of parts) {
    view.setUint32(at, part.length);
    out.set(part, at + 4);
    at += 4 + part.length;
  }
  return out;
}

function unpack<T>(bytes: Uint8Array): T {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(0);
  const json = decoder.decode(bytes.subarray(4, 4 + length));
  const parts: ArrayBuffer[] = [];
  for (let at = 4 + length; at < bytes.length;) {
    const size = view.getUint32(at);
    parts.push(bytes.slice(at + 4, at + 4 + size).buffer);
    at += 4 + size;
  }
  return JSON.parse(json, (_key, v: unknown) =>
    v && typeof v === "object" && BINARY in v ? parts[(v as Record<string, number>)[BINARY]] : v,
  ) as T;
}

export async function seal(holder: Holder, value: unknown): Promise<Sealed> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, holder.data, pack(value) as BufferSource);
  return { sealed: 1, iv, data };
}

export const isSealed = (value: unknown): value is Sealed =>
  Boolean(value && typeof value === "object" && (value as Sealed).sealed === 1);

/** The value, or undefined when it is not sealed with these keys (another person's, or damaged). */
export async function unseal<T>(holder: Holder, value: unknown): Promise<T | undefined> {
  if (!isSealed(value)) return undefined;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: value.iv as BufferSource },
      holder.data,
      value.data,
    );
    return unpack<T>(new Uint8Array(plain));
  } catch {
    return undefined;
  }
}

/** The name of a person's store: `offline-{tag}-{name}`. Only the tag tells one person's from another's. */
export const PERSON_DB_PREFIX = "offline-p";
export const personDbName = (tag: string, name: string) => `${PERSON_DB_PREFIX}${tag}-${name}`;
/** The tag and store name of a person's database name, or null. */
export function parsePersonDb(dbName: string): { tag: string; name: string } | null {
  const match = /^offline-p([0-9a-f]+)-(.+)$/.exec(dbName);
  return match ? { tag: match[1], name: match[2] } : null;
}

const handles = new Map<string, UseStore>();
/** The holder's store `name` (one IndexedDB database each, as idb-keyval makes them). */
export function personStore(holder: Pick<Holder, "tag">, name: string): UseStore {
  const db = personDbName(holder.tag, name);
  let store = handles.get(db);
  if (!store) {
    store = createStore(db, "kept");
    handles.set(db, store);
  }
  return store;
}

export async function sealedGet<T>(holder: Holder, store: UseStore, key: IDBValidKey): Promise<T | undefined> {
  return unseal<T>(holder, await get(key, store));
}

export async function sealedSet(holder: Holder, store: UseStore, key: IDBValidKey, value: unknown): Promise<void> {
  await set(key, await seal(holder, value), store);
}

export async function sealedValues<T>(holder: Holder, store: UseStore): Promise<T[]> {
  const all = await Promise.all((await values(store)).map((v) => unseal<T>(holder, v)));
  return all.filter((v): v is Awaited<T> => v !== undefined) as T[];
}

export { del as sealedDelete, keys as sealedKeys };

const chains = new Map<string, Promise<unknown>>();
/** Runs `job` alone for `name`: across tabs with Web Locks, within this page otherwise. */
export function exclusive<T>(name: string, job: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  if (locks) return locks.request(`offline:${name}`, job) as Promise<T>;
  const run = (chains.get(name) ?? Promise.resolve()).then(job, job);
  chains.set(
    name,
    run.catch(() => undefined),
  );
  return run;
}

/**
 * Reads, changes and writes one sealed value alone (no other change of it in between, in any tab).
 * `apply` answers the new value, or undefined to leave it as it is; the answer is what is kept then.
 */
export function sealedUpdate<T>(
  holder: Holder,
  store: UseStore,
  lockName: string,
  key: IDBValidKey,
  apply: (old: T | undefined) => T | undefined,
): Promise<T | undefined> {
  return exclusive(`${lockName}:${String(key)}`, async () => {
    const old = await sealedGet<T>(holder, store, key);
    const next = apply(old);
    if (next === undefined) return old;
    await sealedSet(holder, store, key, next);
    return next;
  });
}

/** Test support: fresh store handles after the databases were replaced. */
export function resetSealedForTests() {
  handles.clear();
  chains.clear();
}
