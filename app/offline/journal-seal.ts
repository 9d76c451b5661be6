import type { Holder } from "./vault";

/**
 * Sealing that can happen synchronously, for what a page writes to local storage as it goes (the typed-values
 * journal, decision 038): WebCrypto answers only later, and a page that is leaving has no later. So a key
 * stream is made ahead (AES-CTR with the holder's key over zeros, under a random counter), and a write XORs
 * its bytes with the next unused part of it; each part is used once. A reader makes the same part of the
 * stream again from the counter the record carries (decision 048).
 */

const PAD_BYTES = 256 * 1024;
const BLOCK = 16;

interface Pad {
  tag: string;
  counter: Uint8Array;
  bytes: Uint8Array;
  used: number;
}

let pad: Pad | null = null;
let making: Promise<void> | null = null;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
function toBase64(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return btoa(text);
}
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** The counter block `blocks` blocks on: the low 64 bits count (AES-CTR with `length: 64`). */
function counterAt(start: Uint8Array, blocks: number): Uint8Array {
  const next = start.slice();
  const view = new DataView(next.buffer);
  view.setBigUint64(8, view.getBigUint64(8) + BigInt(blocks));
  return next;
}

async function makePad(holder: Holder): Promise<Pad> {
  const counter = crypto.getRandomValues(new Uint8Array(BLOCK));
  // The low half starts at zero: the stream never wraps within one pad.
  counter.fill(0, 8);
  const stream = await crypto.subtle.encrypt(
    { name: "AES-CTR", counter, length: 64 },
    holder.stream,
    new Uint8Array(PAD_BYTES),
  );
  return { tag: holder.tag, counter, bytes: new Uint8Array(stream), used: 0 };
}

/** Makes the key stream for this holder ready (again when half of it is used). */
export function preparePad(holder: Holder): Promise<void> {
  if (pad && pad.tag === holder.tag && pad.used < PAD_BYTES / 2) return Promise.resolve();
  making ??= makePad(holder)
    .then((made) => void (pad = made))
    .finally(() => (making = null));
  return making;
}

/** Whether a synchronous seal for this holder can happen now. */
export const padReady = (tag: string) => Boolean(pad && pad.tag === tag);

/** The text sealed now, or null when no key stream of this holder is ready (or it is used up). */
export function sealNow(holder: Holder, text: string): string | null {
  if (!pad || pad.tag !== holder.tag) return null;
  const plain = encoder.encode(text);
  const blocks = Math.ceil(plain.length / BLOCK);
  if (pad.used + blocks * BLOCK > pad.bytes.length) return null;
  const start = pad.used;
  pad.used += blocks * BLOCK;
  const sealed = plain.map((b, i) => b ^ pad!.bytes[start + i]);
  const counter = counterAt(pad.counter, start / BLOCK);
  if (pad.used >= PAD_BYTES / 2) void preparePad(holder).catch(() => undefined);
  return JSON.stringify({ c: toBase64(counter), d: toBase64(sealed) });
}

/** The text of a record sealNow wrote with this holder's keys, or null. */
export async function openSealedText(holder: Holder, record: string): Promise<string | null> {
  try {
    const { c, d } = JSON.parse(record) as { c: string; d: string };
    const plain = await crypto.subtle.decrypt(
      { name: "AES-CTR", counter: fromBase64(c) as BufferSource, length: 64 },
      holder.stream,
      fromBase64(d) as BufferSource,
    );
    return decoder.decode(plain);
  } catch {
    return null;
  }
}

/** Forgets the key stream (the holder changed). */
export function dropPad() {
  pad = null;
}
