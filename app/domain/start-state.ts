import { caseLanguages } from "~/domain/case-language";
import type { ContentLanguage } from "~/domain/languages";
import type { Translations } from "~/domain/content-languages";
import { generatePatientId, isValidPatientId, patientIdProblem, type PatientIdProblem } from "~/domain/patient-id";

/** What the start action answered when it could not go on to the fill page. */
export interface StartProblem {
  patientId: string;
  problem: "invalid" | "required" | "closed";
}

/**
 * The survey start page as plain data: what the typed patient id means and what the main button does.
 * Pure, so the same rules serve the page online, the action on the server and, later, the offline page.
 */

/** What the API said about one typed id (GET /patients/autocomplete). */
export interface PatientLookup {
  patientId: string;
  /** Open cases whose id begins with the typed text. */
  openIds: string[];
  /** The typed id belongs to a closed case. */
  isClosed: boolean;
}

export type MainButton = "start" | "open" | "clear";
/** "unknown": a well-formed id whose case, if any, cannot be checked (offline, the device does not know it). */
export type Validity = "empty" | "valid" | "invalid" | "closed" | "unknown";

export interface StartState {
  /** The id as it will be used: the typed text without surrounding spaces. */
  patientId: string;
  validity: Validity;
  /** Helper text under the field (section 2). */
  helper: "optional" | "mandatory";
  button: MainButton;
  /** Nothing useful can be sent yet: an invalid id, or none typed while one is required. */
  disabled: boolean;
  /** The message to show (and announce) under the field. */
  message: "invalid" | "closed" | "open" | "openOnDevice" | "unknown" | null;
}

export function normalizePatientId(raw: string): string {
  return raw.trim();
}

/**
 * The page's state from the typed text, the latest lookup (ignored unless it is about this very id) and
 * the id the server last reported as closed. With `deviceOnly` (offline) the lookup is what this device
 * keeps: an id it does not know may still have a case on the server, and the page says it cannot tell.
 */
export function startState(input: {
  typed: string;
  autoGeneration: boolean;
  lookup?: PatientLookup | null;
  closedId?: string | null;
  deviceOnly?: boolean;
}): StartState {
  const patientId = normalizePatientId(input.typed);
  const helper = input.autoGeneration ? "optional" : "mandatory";
  const base = { patientId, helper } as const;
  if (!isValidPatientId(patientId)) {
    return { ...base, validity: "invalid", button: "start", disabled: true, message: "invalid" };
  }
  if (patientId === "") {
    return { ...base, validity: "empty", button: "start", disabled: !input.autoGeneration, message: null };
  }
  const lookup = input.lookup?.patientId === patientId ? input.lookup : null;
  if (input.closedId === patientId || lookup?.isClosed) {
    return { ...base, validity: "closed", button: "clear", disabled: false, message: "closed" };
  }
  if (lookup?.openIds.includes(patientId)) {
    return {
      ...base,
      validity: "valid",
      button: "open",
      disabled: false,
      message: input.deviceOnly ? "openOnDevice" : "open",
    };
  }
  if (input.deviceOnly) return { ...base, validity: "unknown", button: "start", disabled: false, message: "unknown" };
  return { ...base, validity: "valid", button: "start", disabled: false, message: null };
}

/** At most this many suggestions under the field. */
export const MAX_SUGGESTIONS = 10;

/** Open ids to suggest: those of the latest lookup that begin with the typed text (ids are case-sensitive). */
export function suggestionsFor(typed: string, lookup: PatientLookup | null | undefined): string[] {
  const prefix = normalizePatientId(typed);
  if (!lookup || prefix === "") return [];
  return lookup.openIds.filter((id) => id.startsWith(prefix)).slice(0, MAX_SUGGESTIONS);
}

/** Whether the text is worth asking the API about while it is typed. */
export function shouldLookUp(typed: string): boolean {
  const id = normalizePatientId(typed);
  return id !== "" && isValidPatientId(id);
}

export type StartTarget =
  { ok: true; patientId: string; generated: boolean } | { ok: false; problem: PatientIdProblem };

/** The id a start request goes on with: the typed one, or a generated one when none is typed and allowed. */
export function resolveStartId(
  typed: string,
  autoGeneration: boolean,
  generate: () => string = generatePatientId,
): StartTarget {
  const patientId = normalizePatientId(typed);
  const problem = patientIdProblem(patientId, autoGeneration);
  if (problem) return { ok: false, problem };
  if (patientId === "") return { ok: true, patientId: generate(), generated: true };
  return { ok: true, patientId, generated: false };
}

/**
 * A form post means "clear the field" only when the clear button was pressed for the id it was shown for;
 * without JavaScript the label cannot follow a newly typed id, so a changed id is a start request.
 */
export function isClearRequest(intent: unknown, typed: string, shownClosedId: unknown): boolean {
  return intent === "clear" && typeof shownClosedId === "string" && normalizePatientId(typed) === shownClosedId;
}

/**
 * The survey as its start page shows it: one shape for the page drawn by the server and for the page drawn
 * offline from this device's copy, so that neither leaves out what the other shows.
 */
export function startSurvey(survey: {
  Id: number;
  Title: string;
  Description: string;
  IsPatientIdAutoGenerationEnabled: boolean;
  RetentionMonths: number;
  /** Absent in a copy kept before languages: German only. */
  SourceLanguage?: ContentLanguage;
  Languages?: ContentLanguage[];
  Translations?: Translations;
}) {
  const languages = { SourceLanguage: survey.SourceLanguage ?? "de", Languages: survey.Languages ?? [] };
  const translations = survey.Translations ?? {};
  // The title and the description in each of the case's languages: shown in the one chosen for the case.
  const texts = caseLanguages(languages).map((lang) => {
    const t = (key: string, source: string) =>
      (lang === languages.SourceLanguage ? null : translations[lang]?.[key]?.Text) || source;
    return { lang, title: t("Title", survey.Title), description: t("Description", survey.Description) };
  });
  return {
    id: survey.Id,
    title: survey.Title,
    description: survey.Description,
    autoGeneration: survey.IsPatientIdAutoGenerationEnabled,
    retentionMonths: survey.RetentionMonths,
    sourceLanguage: languages.SourceLanguage,
    texts,
  };
}

/** Where a case is filled in. */
export function fillPath(surveyId: number, patientId: string): string {
  return `/survey/${surveyId}/fill/${encodeURIComponent(patientId)}`;
}

/** Why a survey cannot be filled here: only an Active survey the person may take part in can (section 4). */
export function fillBlock(survey: {
  Status: string;
  Rights: { CanParticipate: boolean };
}): "notActive" | "notAllowed" | null {
  if (survey.Status !== "Active") return "notActive";
  if (!survey.Rights.CanParticipate) return "notAllowed";
  return null;
}

/** Whether this person can fill the survey now: the one rule for the list, the fill page and the offline copies. */
export function canFill(survey: { Status: string; Rights: { CanParticipate: boolean } }): boolean {
  return fillBlock(survey) === null;
}
