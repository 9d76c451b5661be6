import crypto from "node:crypto";
import { CODE_ALPHABET, CODE_LENGTH, normalizeCode } from "~/domain/patient-links";

/**
 * The secrets of a patient's link (docs/decisions/057-patient-links.md): the token in the link's address
 * (256 bits), the short code typed by hand (about 70 bits), and the cookie its caller carries (256 bits).
 * Each is stored only as its SHA-256: they are random and long, so a slow hash would add nothing.
 */

const TOKEN_BYTES = 32;

/** A new token: 32 random bytes, base64url (43 characters). */
export const newLinkToken = () => crypto.randomBytes(TOKEN_BYTES).toString("base64url");

/** A new session for the link's cookie. */
export const newLinkSession = () => crypto.randomBytes(TOKEN_BYTES).toString("base64url");

/** Whether a text has the shape of a token (so that nothing else is hashed and looked up as one). */
export const isTokenShaped = (text: string) => /^[A-Za-z0-9_-]{43}$/.test(text);

/** A new short code of CODE_LENGTH symbols, each drawn uniformly from the alphabet (rejection sampling). */
export function newLinkCode(): string {
  const n = CODE_ALPHABET.length;
  const limit = 256 - (256 % n);
  let out = "";
  while (out.length < CODE_LENGTH) {
    for (const byte of crypto.randomBytes(CODE_LENGTH * 2)) {
      if (byte < limit && out.length < CODE_LENGTH) out += CODE_ALPHABET[byte % n];
    }
  }
  return out;
}

const sha256 = (text: string) => crypto.createHash("sha256").update(text, "utf8").digest("hex");

/** The stored hash of a token (or of any text given in its place: the same work for every try). */
export const tokenHash = (token: string) => sha256(`token:${token}`);

/** The stored hash of a code as typed; a text that is no code is hashed all the same (same work). */
export const codeHash = (typed: string) => sha256(`code:${normalizeCode(typed) ?? typed}`);

/** The stored hash of a link caller's cookie. */
export const sessionHash = (session: string) => sha256(`session:${session}`);
