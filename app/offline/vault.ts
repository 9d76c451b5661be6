import { createStore, del, get, set, update, type UseStore } from "idb-keyval";
import { DEVICE_DB, DEVICE_STORE, PAGE_CACHE_PREFIX } from "./sw-constants";

/**
 * Whose offline work this device holds now (docs/decisions/048-shared-device.md). Everything the offline
 * layer keeps is sealed (AES-GCM) with keys derived from one secret the server hands to the signed-in
 * person's session only (`usersApi.offlineKey`). The device keeps that person's keys, as non-extractable
 * CryptoKeys, while that person works, also offline, and forgets them at sign-out, when the session is
 * found ended and when another person signs in. What the others kept stays on the device, unreadable,
 * until they sign in here again.
 */

/** The keys of the person whose work the device holds. `tag` names that person's stores, and nothing more. */
export interface Holder {
  tag: string;
  /** AES-GCM: every value kept in IndexedDB. */
  data: CryptoKey;
  /** AES-CTR: the typed-values journal, written synchronously as a page goes (journal-seal.ts). */
  stream: CryptoKey;
  /** HMAC-SHA-256: the names values are kept under (a patient id is never a key in clear). */
  names: CryptoKey;
}

interface HolderRecord extends Holder {
  since: string;
}

/** When each person's work on this device was last open, and since when it is locked. No names. */
export interface PersonMark {
  tag: string;
  lastOpen: string;
  lockedAt?: string;
}

/** Dispatched on window when the holder changed (another person, or nobody). */
export const HOLDER_EVENT = "offline:holder";
/** After this many days the locked-work notice says so; nothing is ever deleted without a person's choice. */
export const LOCKED_NOTICE_DAYS = 30;

let deviceStore: UseStore | null = null;
let marksStore: UseStore | null = null;
const device = () => (deviceStore ??= createStore(DEVICE_DB, DEVICE_STORE));
const marks = () => (marksStore ??= createStore("offline-device-people", "people"));
const CURRENT = "current";

const encoder = new TextEncoder();
const toBase64Url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const fromBase64Url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

/** The holder's keys from the server's secret: three non-extractable keys, one for each use. */
export async function deriveHolder(tag: string, secret: Uint8Array): Promise<Holder> {
  const base = await crypto.subtle.importKey("raw", secret as BufferSource, "HKDF", false, ["deriveKey"]);
  const hkdf = (info: string) => ({
    name: "HKDF",
    hash: "SHA-256",
    salt: new Uint8Array(0),
    info: encoder.encode(`offline-${info}`),
  });
  const [data, stream, names] = await Promise.all([
    crypto.subtle.deriveKey(hkdf("data"), base, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]),
    crypto.subtle.deriveKey(hkdf("stream"), base, { name: "AES-CTR", length: 256 }, false, ["encrypt", "decrypt"]),
    crypto.subtle.deriveKey(hkdf("names"), base, { name: "HMAC", hash: "SHA-256", length: 256 }, false, ["sign"]),
  ]);
  return { tag, data, stream, names };
}

/** A name for `parts` under the holder's keys: the same parts give the same name, and tell nothing. */
export async function nameOf(holder: Holder, ...parts: (string | number)[]): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", holder.names, encoder.encode(JSON.stringify(parts)));
  return toBase64Url(mac.slice(0, 18));
}

let active: Promise<Holder | null> | null = null;
let shown: string | null | undefined;

function announce(holder: Holder | null) {
  const tag = holder?.tag ?? null;
  if (shown !== undefined && shown !== tag && typeof window !== "undefined") {
    window.dispatchEvent(new Event(HOLDER_EVENT));
  }
  shown = tag;
  return holder;
}

async function readRecord(): Promise<HolderRecord | undefined> {
  try {
    return await get<HolderRecord>(CURRENT, device());
  } catch {
    return undefined;
  }
}

const holderOf = (r: HolderRecord): Holder => ({ tag: r.tag, data: r.data, stream: r.stream, names: r.names });

async function markOpen(tag: string) {
  const now = new Date().toISOString();
  await update<PersonMark>(tag, () => ({ tag, lastOpen: now }), marks()).catch(() => undefined);
}

/** Every person whose work was kept on this device, with when it was last open or locked. */
export async function personMarks(): Promise<PersonMark[]> {
  const { values } = await import("idb-keyval");
  return values<PersonMark>(marks()).catch(() => []);
}

/** The secret the server hands to the signed-in person's session; null offline or signed out. */
async function fetchSecret(): Promise<{ KeyId: string; Key: string } | null> {
  try {
    // Loaded only when the holder changes: not part of every page's start.
    const [{ apiUrl }, { usersApi }] = await Promise.all([import("~/contracts/contract"), import("~/contracts/users")]);
    const res = await fetch(apiUrl(usersApi.offlineKey), { credentials: "same-origin", cache: "no-store" });
    if (!res.ok) return null;
    return (await res.json()) as { KeyId: string; Key: string };
  } catch {
    return null;
  }
}

/**
 * Forgets the holder's keys: their work stays, sealed, for them alone. The pages the service worker kept
 * for them go too (they are copies of the server's pages, fetched again when they sign in), and so do
 * this tab's typed searches.
 */
async function forget(record: HolderRecord | undefined) {
  await del(CURRENT, device()).catch(() => undefined);
  if (!record) return;
  const now = new Date().toISOString();
  await update<PersonMark>(
    record.tag,
    (old) => ({ tag: record.tag, lastOpen: old?.lastOpen ?? record.since, lockedAt: now }),
    marks(),
  ).catch(() => undefined);
  await dropKeptPages(record.tag);
  try {
    window.sessionStorage.clear();
  } catch {
    // No session storage here (a worker, a test): nothing to clear.
  }
}

/** Deletes kept pages: those of `tag`, or of everyone but `keep`. */
export async function dropKeptPages(tag: string | null, keep?: string) {
  if (typeof caches === "undefined") return;
  const names = await caches.keys().catch(() => [] as string[]);
  const doomed = names.filter(
    (n) => n.startsWith(PAGE_CACHE_PREFIX) && (tag ? n.endsWith(`-${tag}`) : !keep || !n.endsWith(`-${keep}`)),
  );
  await Promise.all(doomed.map((n) => caches.delete(n)));
}

async function open(tag: string, userId: string): Promise<Holder | null> {
  const record = await readRecord();
  if (record && record.tag === tag) {
    await markOpen(record.tag);
    // Pages kept for anybody else (also by earlier versions) are not this person's: they go.
    await dropKeptPages(null, record.tag);
    return holderOf(record);
  }
  // Another person's keys, or none: theirs are forgotten before anything of this person is read.
  if (record) await forget(record);
  const secret = await fetchSecret();
  if (!secret) return null;
  const holder = await deriveHolder(secret.KeyId, fromBase64Url(secret.Key));
  const next: HolderRecord = { ...holder, since: new Date().toISOString() };
  await set(CURRENT, next, device());
  await markOpen(holder.tag);
  // Pages kept for anyone else (also by earlier versions of the app) are not this person's.
  await dropKeptPages(null, holder.tag);
  const { adoptEarlierWork } = await import("./earlier-work");
  await adoptEarlierWork(holder, userId).catch(() => undefined);
  return holder;
}

/**
 * Who is signed in, as the server last said: their holder tag and user id, null when nobody is (signed
 * out, session ended), or undefined when it cannot be told (offline): then the device's holder stays.
 */
export function beginPerson(person: { holder: string; userId: string } | null | undefined): Promise<Holder | null> {
  const previous = active;
  const next = (async () => {
    await previous?.catch(() => undefined);
    if (person === undefined) return readRecord().then((r) => (r ? holderOf(r) : null));
    if (person === null) {
      await forget(await readRecord());
      return null;
    }
    return open(person.holder, person.userId);
  })().then(announce, () => announce(null));
  active = next;
  return next;
}

/** The holder of this device now: the person the page was opened for, once their keys are at hand. */
export function currentHolder(): Promise<Holder | null> {
  active ??= readRecord().then((r) => announce(r ? holderOf(r) : null));
  return active;
}

/** The holder, or an error for a write that would keep something nobody could read. */
export async function requireHolder(): Promise<Holder> {
  const holder = await currentHolder();
  if (!holder) throw new LockedError();
  return holder;
}

export class LockedError extends Error {
  constructor() {
    super("No person's keys on this device: sign in to keep work offline");
    this.name = "LockedError";
  }
}

/** Sign-out: the holder's keys go now, before the page leaves. */
export function lockDevice(): Promise<Holder | null> {
  return beginPerson(null);
}

/** Test support: forget what this page knew of the holder; with a holder, that one holds the device. */
export function resetVaultForTests(holder?: Holder | null | Promise<Holder | null>) {
  active = holder === undefined ? null : Promise.resolve(holder);
  shown = undefined;
  deviceStore = null;
  marksStore = null;
}
