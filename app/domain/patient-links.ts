import type { SurveyStatus } from "./survey-status";

/**
 * One-time links through which a patient answers a case on their own device (docs/decisions/057-patient-links.md):
 * their states, expiry and the short code typed by hand. Pure and client-safe; the token and the code are
 * made and hashed on the server (app/server/services/links/secrets.server.ts).
 */

export const LINK_EXPIRY_DEFAULT_DAYS = 7;
export const LINK_EXPIRY_MAX_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export const linkStates = ["made", "opened", "inProgress", "submitted", "expired", "revoked"] as const;
export type LinkState = (typeof linkStates)[number];

export interface LinkTimes {
  expires_at: string;
  opened_at: string | null;
  answered_at: string | null;
  submitted_at: string | null;
  revoked_at: string | null;
}

/**
 * A link's state at `now`: revoked and submitted are final; past its expiry an unsubmitted link has
 * expired; otherwise made, opened, or in progress once an answer was saved through it.
 */
export function linkState(link: LinkTimes, now: Date): LinkState {
  if (link.revoked_at) return "revoked";
  if (link.submitted_at) return "submitted";
  if (Date.parse(link.expires_at) <= now.getTime()) return "expired";
  if (link.answered_at) return "inProgress";
  if (link.opened_at) return "opened";
  return "made";
}

/** Whether a link in this state still lets its patient answer. */
export const isLive = (state: LinkState) => state === "made" || state === "opened" || state === "inProgress";

/** Links work only on a published survey that is running: not on Draft, Pending, Ended, Closed or Archived. */
export const surveyTakesLinks = (status: SurveyStatus) => status === "Active";

/** When a link made at `now` for `days` days expires (1 to 30 days, 7 when not said). */
export function linkExpiry(now: Date, days: number = LINK_EXPIRY_DEFAULT_DAYS): string {
  if (!Number.isInteger(days) || days < 1 || days > LINK_EXPIRY_MAX_DAYS) {
    throw new RangeError(`A link lasts 1 to ${LINK_EXPIRY_MAX_DAYS} days`);
  }
  return new Date(now.getTime() + days * DAY_MS).toISOString();
}

/**
 * The short code's alphabet: digits and capitals without those that read alike on paper or a phone's
 * screen (0/O/Q, 1/I/L, 2/Z, 5/S, 8/B, G, U/V). 21 symbols, about 4.39 bits each.
 */
export const CODE_ALPHABET = "34679ACDEFHJKMNPRTWXY";
/** 16 symbols in 4 groups of 4: about 70 bits. */
export const CODE_LENGTH = 16;
export const CODE_GROUP = 4;

/** The code as it is shown and printed: "K7QX-M4RT-…". */
export function formatCode(code: string): string {
  const plain = normalizeCode(code) ?? code;
  return plain.match(new RegExp(`.{1,${CODE_GROUP}}`, "g"))!.join("-");
}

/**
 * The code as typed, without case, separators or spaces, or null when it cannot be a code (wrong length or
 * a symbol outside the alphabet).
 */
export function normalizeCode(typed: string): string | null {
  const plain = typed.toUpperCase().replace(/[\s\-_.–—]/g, "");
  if (plain.length !== CODE_LENGTH) return null;
  for (const ch of plain) if (!CODE_ALPHABET.includes(ch)) return null;
  return plain;
}

/** The bits of a code of this alphabet and length. */
export const codeBits = () => CODE_LENGTH * Math.log2(CODE_ALPHABET.length);
