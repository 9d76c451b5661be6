/**
 * A staff device handed to the patient (docs/decisions/058-hand-over.md): the rules of the patient mode, pure
 * and browser-safe. The server's session, the pages, the offline layer and the service worker all ask these.
 */
import { hasPreliminaryPage, pagesOf, previousPage, type FillPage } from "./fill-pages";

/** The case a hand-over is for. */
export interface HandoverCase {
  surveyId: number;
  patientId: string;
}

/** The hand-over as the server's session keeps it (the return token only as its SHA-256, hex). */
export interface HandoverScope extends HandoverCase {
  patientDataId: number;
  /** The staff member's record (survey_user_data.id), named as who handed the device over. */
  staffUserId: number;
  /** The staff member's subject at the provider: only the same person's fresh sign-in ends the mode. */
  staffSub: string;
  returnHash: string;
  startedAt: string;
}

/**
 * How a hand-over ended, as its trail row says: the PIN, a fresh sign-in of the staff member, or the PIN typed
 * without a network, the end sent with the next call online.
 */
export const HANDOVER_ENDED_BY = ["pin", "signIn", "offline"] as const;
export type HandoverEndedBy = (typeof HANDOVER_ENDED_BY)[number];
export const isHandoverEndedBy = (value: unknown): value is HandoverEndedBy =>
  (HANDOVER_ENDED_BY as readonly unknown[]).includes(value);

/** A PIN: 4 to 8 digits. */
export const PIN_PATTERN = /^[0-9]{4,8}$/;
export const isValidPin = (pin: string) => PIN_PATTERN.test(pin);

export type PinProblem = "format" | "mismatch";

/** What is wrong with a PIN typed twice at hand-over, or null. */
export function pinProblem(pin: string, repeated: string): PinProblem | null {
  if (!isValidPin(pin)) return "format";
  if (pin !== repeated) return "mismatch";
  return null;
}

/**
 * Whether the fill page offers the hand-over on this page: never on the confirmation; before and on the
 * preliminary questions only where the patient answers them (`PreliminaryByPatient`), else after them.
 */
export function handOverOffered(
  survey: {
    PreliminaryByPatient: boolean;
    IntroText: string;
    IsPatientFormEnabled: boolean;
    PatientForm: readonly { Enabled: boolean }[];
  },
  page: FillPage,
): boolean {
  if (page === "done") return false;
  if (survey.PreliminaryByPatient || !hasPreliminaryPage(survey)) return true;
  return page !== "intro" && page !== "preliminary";
}

/**
 * Where the questionnaire's "Back" goes, or null when it has nowhere to go: the questionnaire is the case's
 * first page, or (a patient answering alone, by a link or on a device handed over) the page before it is
 * staff's (the preliminary questions staff answer, and any page before them).
 */
export function backFromQuestionnaire(
  survey: Parameters<typeof handOverOffered>[0] & Parameters<typeof pagesOf>[0],
  patientAlone: boolean,
): FillPage | null {
  const pages = pagesOf(survey);
  const back = previousPage("questionnaire", pages);
  if (back === "questionnaire" || !pages.includes("questionnaire")) return null;
  return !patientAlone || handOverOffered(survey, back) ? back : null;
}

/** The patient's page of the hand-over: the case's fill page. */
export function handoverPath(c: HandoverCase): string {
  return `/survey/${c.surveyId}/fill/${encodeURIComponent(c.patientId)}`;
}

/** The page that ends the hand-over by a fresh sign-in of the same staff member. */
export const HANDOVER_RETURN_PATH = "/handover/return";

/**
 * Whether a page may be shown while the device is handed over: the case's fill page (any of its pages), the
 * survey's files it shows, and the way back to staff. Every other page answers with the patient's page.
 */
export function pageAllowedInHandover(pathname: string, c: HandoverCase): boolean {
  const fill = handoverPath(c);
  if (pathname === fill || pathname === `${fill}/`) return true;
  if (pathname.startsWith(`/survey/${c.surveyId}/files/`)) return true;
  return pathname === HANDOVER_RETURN_PATH || pathname.startsWith(`${HANDOVER_RETURN_PATH}/`);
}

/** Wrong PINs allowed before the first wait. */
export const PIN_FREE_TRIES = 5;
const FIRST_WAIT_MS = 30_000;
const LONGEST_WAIT_MS = 15 * 60_000;

/** The device's count of wrong PINs, kept (sealed) so that a reload does not reset it. */
export interface PinTries {
  failures: number;
  /** Epoch milliseconds before which no PIN is tried; 0 for none. */
  waitUntil: number;
}

export const noTries = (): PinTries => ({ failures: 0, waitUntil: 0 });

/** The wait after this many wrong PINs: none for the first five, then 30 s doubling up to 15 minutes. */
export function waitAfter(failures: number): number {
  if (failures < PIN_FREE_TRIES) return 0;
  return Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** (failures - PIN_FREE_TRIES));
}

/** Milliseconds still to wait before a PIN may be tried; 0 when one may be tried now. */
export function pinWaitLeft(tries: PinTries, now: number): number {
  return Math.max(0, tries.waitUntil - now);
}

/** The tries after a wrong PIN at `now`. */
export function afterWrongPin(tries: PinTries, now: number): PinTries {
  const failures = tries.failures + 1;
  const wait = waitAfter(failures);
  return { failures, waitUntil: wait > 0 ? now + wait : 0 };
}
