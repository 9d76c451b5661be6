import { contentLanguages, isContentLanguage, type ContentLanguage } from "./languages";

/**
 * The language a case is filled in (docs/decisions/055-fill-languages.md): one of the survey's languages,
 * its source language or one it offers. Pure and browser-safe: the start page, the fill page on the server
 * and in the browser, the offline fill and the sync read it through these functions.
 */
export interface SurveyLanguages {
  SourceLanguage?: ContentLanguage;
  Languages?: readonly ContentLanguage[];
}

/**
 * The languages a case of the survey can be filled in: the source language first, then those offered. A copy
 * of a survey kept on a device before languages has neither: German only, as it was written.
 */
export function caseLanguages(survey: SurveyLanguages): ContentLanguage[] {
  const source = survey.SourceLanguage ?? "de";
  return [source, ...(survey.Languages ?? []).filter((l) => l !== source)];
}

/**
 * The language whose words (buttons, notices) a staff fill page speaks around the survey's texts: the case's
 * when the survey has several; none, the staff's own, for a survey in one language (decision 055).
 */
export function fillWordsOf(survey: SurveyLanguages, language: ContentLanguage): ContentLanguage | null {
  return caseLanguages(survey).length < 2 ? null : language;
}

/** Whether a case of the survey can be filled in this language. */
export function isCaseLanguage(survey: SurveyLanguages, lang: unknown): lang is ContentLanguage {
  return typeof lang === "string" && isContentLanguage(lang) && caseLanguages(survey).includes(lang);
}

/**
 * The language a new case starts in: the interface language of the person starting it ("de-DE" → "de") when
 * the survey has it, else the survey's source language.
 */
export function defaultCaseLanguage(survey: SurveyLanguages, culture: string): ContentLanguage {
  const lang = culture.split("-")[0]!.toLowerCase();
  return isCaseLanguage(survey, lang) ? lang : caseLanguages(survey)[0]!;
}

/**
 * A case's language as stored or kept: none (a case from before languages), or one the survey no longer
 * offers, reads as the source language.
 */
export function caseLanguageOf(survey: SurveyLanguages, stored: string | null | undefined): ContentLanguage {
  return isCaseLanguage(survey, stored) ? stored : caseLanguages(survey)[0]!;
}

/** The locale of a content language's fill words (locales/<locale>/): the interface's own for German and English. */
export const fillLocales: Record<ContentLanguage, string> = {
  de: "de-DE",
  en: "en-US",
  tr: "tr-TR",
  ar: "ar",
  ru: "ru-RU",
  uk: "uk-UA",
  pl: "pl-PL",
};

/** The content languages whose fill words are a fill.json of their own (the others' are in common.json). */
export const fillOnlyLanguages: readonly ContentLanguage[] = contentLanguages.filter((l) => l !== "de" && l !== "en");

/**
 * The texts a fill page shows, by their paths in the locale files: every content language has each of them
 * (locales/<locale>/fill.json; German and English have them in common.json with the staff's words).
 */
export const FILL_TEXT_PATHS = [
  "fill",
  "attachments",
  "uploadErrors",
  "errors",
  "modal.close",
  // The notifications' region and their close button, on a patient's link pages (decision 057).
  "toast.region",
  "toast.dismiss",
  "offline.fillKeptLocally",
  "offline.fileKept",
  "patientLink.pageTitle",
  "patientLink.codeTitle",
  "patientLink.codeHint",
  "patientLink.codeLabel",
  "patientLink.open",
  "patientLink.problem",
  "patientLink.enterCode",
] as const;
