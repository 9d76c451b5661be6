/**
 * Idempotency keys (docs/decisions/018): a client-made id sent with a write as the Idempotency-Key header,
 * the same on every repeat of that write, so that the server applies it once. Free of zod, so the browser's
 * code can use it without loading it.
 */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";

/** 8 to 100 letters, digits, '-' and '_'. */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,100}$/;

/** A fresh key: 32 hex digits from the platform's secure random source (also on pages served over http). */
export function newIdempotencyKey(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The key of one write made from a form that carries `formKey` (made when the page was drawn): the same
 * form sent twice gives the same key, two different writes from one page (cloning two surveys) do not.
 * Undefined when the form carried no usable key.
 */
export function keyForWrite(formKey: unknown, ...what: (string | number)[]): string | undefined {
  if (typeof formKey !== "string") return undefined;
  const key = [formKey, ...what].join("-");
  return IDEMPOTENCY_KEY.test(key) ? key : undefined;
}
