/**
 * The hand-over's PIN on the device (docs/decisions/058-hand-over.md). Never kept plain and never sent:
 * PBKDF2-SHA-256 over the PIN with a random salt gives 64 bytes; the first half is kept as the PIN's hash
 * (checked in constant time), the second is an AES-GCM key that seals the return token, the secret whose
 * SHA-256 the server's session holds. The right PIN opens the token, and only the token ends the patient mode
 * on the server; the server never learns the PIN.
 */

export const PIN_ITERATIONS = 600_000;

export interface PinRecord {
  salt: string;
  iterations: number;
  /** The PIN's hash: the first 32 bytes of PBKDF2's output, base64. */
  hash: string;
  /** The return token sealed with the second 32 bytes. */
  iv: string;
  sealedToken: string;
}

const encoder = new TextEncoder();
const toB64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromB64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const random = (n: number) => crypto.getRandomValues(new Uint8Array(n));

/** A fresh return token: 32 random bytes, base64url. */
export function newReturnToken(): string {
  return toB64(random(32)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The SHA-256 of a return token, hex: what the server's session keeps of it. */
export async function returnTokenHash(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(token)));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function derive(pin: string, salt: Uint8Array, iterations: number) {
  const base = await crypto.subtle.importKey("raw", encoder.encode(pin), "PBKDF2", false, ["deriveBits"]);
  const bits = new Uint8Array(
    await crypto.subtle.deriveBits(
      { name: "PBKDF2", hash: "SHA-256", salt: salt as BufferSource, iterations },
      base,
      512,
    ),
  );
  const key = await crypto.subtle.importKey("raw", bits.slice(32), "AES-GCM", false, ["encrypt", "decrypt"]);
  return { hash: bits.slice(0, 32), key };
}

/** The record kept for a PIN: its salted hash and the return token sealed under it. */
export async function makePinRecord(pin: string, token: string, iterations = PIN_ITERATIONS): Promise<PinRecord> {
  const salt = random(16);
  const iv = random(12);
  const { hash, key } = await derive(pin, salt, iterations);
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv: iv as BufferSource }, key, encoder.encode(token)),
  );
  return { salt: toB64(salt), iterations, hash: toB64(hash), iv: toB64(iv), sealedToken: toB64(sealed) };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** The return token when the PIN is right, else null. */
export async function openWithPin(record: PinRecord, pin: string): Promise<string | null> {
  const { hash, key } = await derive(pin, fromB64(record.salt), record.iterations);
  if (!sameBytes(hash, fromB64(record.hash))) return null;
  try {
    const token = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromB64(record.iv) as BufferSource },
      key,
      fromB64(record.sealedToken) as BufferSource,
    );
    return new TextDecoder().decode(token);
  } catch {
    return null;
  }
}
