import { createHash } from "node:crypto";
import type { TextValues, TFunction } from "~/i18n";

/** More than all the texts a page shows: texts made with data's values cannot make the table grow without end. */
const MAX_KEPT_TEXTS = 20_000;

/**
 * Keeps each text once worked out, by its key and the values it was asked for with (a name, a count): the
 * server's texts never change while it runs, and working a text out (its plural form, its values) for
 * every call was about a tenth of the survey list's render. A call with anything but plain values (objects,
 * a default text) is worked out as before, and so is a missing text, so that each page lacking it reports it.
 */
export function keepTexts(t: TFunction): TFunction {
  let kept = new Map<string, string>();
  return (key, values) => {
    const id = textId(key, values);
    if (id === undefined) return t(key, values);
    const known = kept.get(id);
    if (known !== undefined) return known;
    const text = t(key, values);
    if (text !== key) {
      // Full of texts of data seen once: the texts asked for again are worked out and kept anew.
      if (kept.size >= MAX_KEPT_TEXTS) kept = new Map();
      kept.set(id, text);
    }
    return text;
  };
}

/**
 * What a text is made of, as one string: its key and each value's name and value (a string value as JSON,
 * which holds no raw NUL: no two calls run together). Undefined for a call that is not kept.
 */
function textId(key: string, values: TextValues | undefined): string | undefined {
  if (values === undefined) return key;
  let id = key;
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    if (name === "defaultValue") return undefined;
    const plain =
      value === null ||
      typeof value === "string" ||
      // NaN and the infinities would read as null in JSON.
      (typeof value === "number" && Number.isFinite(value)) ||
      typeof value === "boolean";
    if (!plain) return undefined;
    id += `\u0000${name}\u0001${JSON.stringify(value)}`;
  }
  return id;
}

/** Whether the browser takes gzip (and has not ruled it out with q=0). */
export function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  return header.split(",").some((part) => {
    const [name, ...params] = part.trim().split(";");
    if (name?.trim().toLowerCase() !== "gzip" && name?.trim() !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * Pages rendered before, by everything their HTML is made of: the address, the language, the status and
 * the data the loaders sent (the exact bytes the browser receives for hydration). A page's components read
 * nothing else (no clock, no chance, no request of their own), so the same inputs give the same HTML; the
 * loaders still run for every request, so a change of data is seen at once, in every copy of the server.
 * A few values are new for every request: the script nonce and the form key a loader draws for the page's
 * forms (their writes' idempotency key). They are left out of the key, and a page is kept split at them
 * and filled with the next request's own.
 */
export class RenderedPages {
  readonly #pages = new Map<string, { parts: (Buffer | number)[]; size: number }>();
  #size = 0;

  constructor(private readonly maxBytes: number) {}

  /** The page kept for this key with these per-request values in their places, or undefined. */
  get(key: string, values: string[]): Buffer | undefined {
    const page = this.#pages.get(key);
    if (!page) return undefined;
    // The page found is the last to go.
    this.#pages.delete(key);
    this.#pages.set(key, page);
    return Buffer.concat(page.parts.map((part) => (typeof part === "number" ? Buffer.from(values[part]!) : part)));
  }

  /** Keeps a page rendered with these per-request values; the least recently used go when over the limit. */
  set(key: string, html: Buffer, values: string[]): void {
    const previous = this.#pages.get(key);
    if (previous) {
      this.#pages.delete(key);
      this.#size -= previous.size;
    }
    if (html.length > this.maxBytes / 4 || values.some((value) => value.length < MIN_VALUE_CHARS)) return;
    const parts = splitAt(html, values);
    this.#pages.set(key, { parts, size: html.length });
    this.#size += html.length;
    for (const [oldest, page] of this.#pages) {
      if (this.#size <= this.maxBytes) break;
      this.#pages.delete(oldest);
      this.#size -= page.size;
    }
  }

  get count(): number {
    return this.#pages.size;
  }
}

/** Shorter per-request values could stand in a page by chance; the nonce and form keys have 22 and 32. */
const MIN_VALUE_CHARS = 16;

/**
 * The page in pieces: its bytes between the values, and in each value's place the value's index. The bytes
 * are views of the page's own (nothing copied), the values found where they stand, the earliest first.
 */
function splitAt(html: Buffer, values: string[]): (Buffer | number)[] {
  const needles = values.map((value) => Buffer.from(value));
  const next = needles.map((needle) => html.indexOf(needle));
  const parts: (Buffer | number)[] = [];
  let from = 0;
  for (;;) {
    let first = -1;
    for (let i = 0; i < next.length; i++) {
      if (next[i]! >= 0 && (first < 0 || next[i]! < next[first]!)) first = i;
    }
    if (first < 0) break;
    const at = next[first]!;
    parts.push(html.subarray(from, at), first);
    from = at + needles[first]!.length;
    // A value found inside the one just taken is looked for again after it.
    for (let i = 0; i < next.length; i++)
      if (next[i]! >= 0 && next[i]! < from) next[i] = html.indexOf(needles[i]!, from);
  }
  parts.push(html.subarray(from));
  return parts;
}

/** The form keys a page's loaders drew for it (the `formKey` of a route's data). */
export function formKeysOf(loaderData: Record<string, unknown>): string[] {
  return Object.values(loaderData).flatMap((data) => {
    const formKey = (data as { formKey?: unknown } | null)?.formKey;
    return typeof formKey === "string" ? [formKey] : [];
  });
}

/** Reads a stream to its end; its chunks, in order. */
export async function readChunks(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(value);
  }
}

/** A stream that gives these chunks again, in the same pieces. */
export function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[next++];
      if (chunk) controller.enqueue(chunk);
      else controller.close();
    },
  });
}

const decoder = new TextDecoder();

/**
 * The key of a page made of these inputs and this data, with the per-request values in the data left out:
 * a digest of each piece, its length first (no two pieces run together). The data is JSON text, which holds
 * no raw NUL: the values' stand-in cannot be met in it.
 */
export function pageKey(inputs: string[], chunks: Uint8Array[], values: string[]): string {
  const hash = createHash("sha256");
  const add = (piece: string) => hash.update(`${piece.length}:`).update(piece);
  inputs.forEach(add);
  for (const chunk of chunks) {
    let text = decoder.decode(chunk);
    for (const value of values) text = text.replaceAll(value, "\u0000");
    add(text);
  }
  return hash.digest("base64");
}

/** The size of the pieces React's server renderer writes a page in. */
const REACT_VIEW_SIZE = 2048;

/**
 * A piece of a page as React's server renderer wrote it, without the unused bytes it may end in: when a
 * character of several bytes does not fit at the end of a 2,048-byte piece, React 18 sends the whole piece,
 * its last one to three bytes never written (NUL), and the character at the start of the next. A browser
 * drops a NUL between tags but reads it as U+FFFD inside an attribute (an aria-label) and inside the
 * page's data script (JSON holds no raw NUL, and text has no use for one).
 */
export function withoutUnusedBytes(piece: Uint8Array): Uint8Array {
  if (piece.length !== REACT_VIEW_SIZE || piece[piece.length - 1] !== 0) return piece;
  let end = piece.length - 1;
  while (end > 0 && piece[end - 1] === 0) end--;
  return piece.subarray(0, end);
}
