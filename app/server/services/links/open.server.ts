import { asContentLanguage, type ContentLanguage } from "~/domain/languages";
import { linkState, surveyTakesLinks } from "~/domain/patient-links";
import type { DB } from "~/server/db/types.server";
import { statusOf } from "../survey-access.server";
import { addressTries, linkOpenings } from "./rate-limit.server";
import type { LinkScope } from "./scope.server";
import { codeHash, newLinkSession, sessionHash, tokenHash } from "./secrets.server";

/**
 * Opening a patient's link, by its address or its short code, and the caller its cookie stands for
 * (docs/decisions/057-patient-links.md). An invalid try says only how it is invalid where the link exists
 * (expired, used, revoked); a wrong token or code says "not valid", after the same hash and lookup.
 */

export type Opened =
  | { kind: "open"; scope: LinkScope; session: string }
  | {
      kind: "invalid" | "expired" | "used" | "revoked" | "unavailable" | "limited";
      linkId: number | null;
      /** The case's language, where the link exists: its problem's page says it in that language. */
      language?: ContentLanguage | null;
    };

type Problem = Exclude<Opened["kind"], "open" | "limited" | "invalid">;

/** Longer texts are cut before hashing: every try costs the same, whatever was sent. */
const MAX_TRY = 128;

async function byHash(db: DB, column: "token_hash" | "code_hash" | "session_hash", hash: string) {
  return db
    .selectFrom("patient_links as l")
    .innerJoin("patient_data as p", "p.id", "l.patient_data_id")
    .innerJoin("surveys as s", "s.id", "l.survey_id")
    .selectAll("l")
    .select(ROW_FIELDS)
    .where(`l.${column}`, "=", hash)
    .executeTakeFirst();
}

const ROW_FIELDS = [
  "p.patient_id",
  "p.state as case_state",
  "p.language as case_language",
  "s.status",
  "s.start_date",
  "s.end_date",
  "s.source_language",
] as const;

type LinkRow = NonNullable<Awaited<ReturnType<typeof byHash>>>;

/** Why an existing link does not open now, or null while it does. */
function problemOf(row: LinkRow, now: Date): Problem | null {
  const state = linkState(row, now);
  if (state === "revoked") return "revoked";
  if (state === "submitted") return "used";
  if (state === "expired") return "expired";
  // Closed by staff meanwhile: used up as well; a survey that no longer runs takes no answers.
  if (row.case_state !== "Open") return "used";
  if (!surveyTakesLinks(statusOf(row))) return "unavailable";
  return null;
}

/** The language the link's case speaks: the case's, else the link's, else the survey's source language. */
const languageOf = (row: LinkRow) =>
  asContentLanguage(row.case_language) ?? asContentLanguage(row.language) ?? asContentLanguage(row.source_language);

/** Opens a link by its token (from /l/<token>) or its code (typed on /l), from an address. */
export async function openLink(
  db: DB,
  how: { token: string } | { code: string },
  address: string,
  now = new Date(),
): Promise<Opened> {
  const hash = "token" in how ? tokenHash(how.token.slice(0, MAX_TRY)) : codeHash(how.code.slice(0, MAX_TRY));
  const row = await byHash(db, "token" in how ? "token_hash" : "code_hash", hash);
  if (addressTries.blocked(address, now.getTime())) return { kind: "limited", linkId: row?.id ?? null };
  if (!row) {
    addressTries.hit(address, now.getTime());
    return { kind: "invalid", linkId: null };
  }
  if (linkOpenings.blocked(String(row.id), now.getTime()))
    return { kind: "limited", linkId: row.id, language: languageOf(row) };
  linkOpenings.hit(String(row.id), now.getTime());
  const problem = problemOf(row, now);
  if (problem) return { kind: problem, linkId: row.id, language: languageOf(row) };
  const session = newLinkSession();
  const at = now.toISOString();
  await db
    .updateTable("patient_links")
    .set({ session_hash: sessionHash(session), opened_at: row.opened_at ?? at, last_seen_at: at })
    .where("id", "=", row.id)
    .execute();
  return { kind: "open", scope: scopeOf(row), session };
}

function scopeOf(row: {
  id: number;
  survey_id: number;
  patient_data_id: number;
  patient_id: string;
  language: string | null;
  expires_at: string;
}): LinkScope {
  return {
    linkId: row.id,
    surveyId: row.survey_id,
    patientDataId: row.patient_data_id,
    patientId: row.patient_id,
    language: row.language,
    expiresAt: row.expires_at,
  };
}

/**
 * The case a link's cookie stands for, while its link is live, its case Open and its survey running; null
 * otherwise (the cookie then stands for nothing).
 */
export async function linkCallerOf(db: DB, session: string, now = new Date()): Promise<LinkScope | null> {
  const found = await linkSession(db, session, now);
  return "scope" in found ? found.scope : null;
}

/**
 * What a link's cookie stands for, in one lookup: its case while the link opens, or else why not (Back after
 * sending, the link withdrawn meanwhile) in the case's language; "invalid" when it stands for no link.
 */
export async function linkSession(
  db: DB,
  session: string,
  now = new Date(),
): Promise<{ scope: LinkScope } | { problem: Exclude<Opened["kind"], "open">; language: ContentLanguage | null }> {
  const row = await bySession(db, session);
  if (!row) return { problem: "invalid", language: null };
  const problem = problemOf(row, now);
  return problem ? { problem, language: languageOf(row) } : { scope: scopeOf(row) };
}

async function bySession(db: DB, session: string) {
  if (!session || session.length > MAX_TRY) return undefined;
  return byHash(db, "session_hash", sessionHash(session));
}
