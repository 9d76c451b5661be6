import deAuthoring from "../locales/de-DE/authoring.json?url";
import deCommon from "../locales/de-DE/common.json?url";
import deSign from "../locales/de-DE/sign.json?url";
import deSync from "../locales/de-DE/sync.json?url";
import enAuthoring from "../locales/en-US/authoring.json?url";
import enCommon from "../locales/en-US/common.json?url";
import enSign from "../locales/en-US/sign.json?url";
import enSync from "../locales/en-US/sync.json?url";
import arFill from "../locales/ar/fill.json?url";
import plFill from "../locales/pl-PL/fill.json?url";
import ruFill from "../locales/ru-RU/fill.json?url";
import trFill from "../locales/tr-TR/fill.json?url";
import ukFill from "../locales/uk-UA/fill.json?url";
import { fillLocales } from "~/domain/case-language";
import type { ContentLanguage } from "~/domain/languages";
import type { Culture } from "~/domain/culture";
import { addLocale, currentPageLanguage, localeTable, type LocaleTable } from "~/i18n";

/**
 * The language files as the browser fetches them: fingerprinted assets, kept by the service worker with
 * the scripts. A page loads only its own language (the root preloads it), and of it only the parts it
 * shows: "common" everywhere, "authoring" (the editor's and the statistics' texts) where they are used,
 * "sign" on the signing page; "sync" (the sync modal's and the sign-out dialog's) with those dialogs.
 */
export const TEXT_PARTS = ["common", "authoring", "sign", "sync"] as const;
export type TextPart = (typeof TEXT_PARTS)[number];

export const isTextPart = (value: unknown): value is TextPart => TEXT_PARTS.includes(value as TextPart);

export const localeUrls: Record<Culture, Record<TextPart, string>> = {
  "de-DE": { common: deCommon, authoring: deAuthoring, sign: deSign, sync: deSync },
  "en-US": { common: enCommon, authoring: enAuthoring, sign: enSign, sync: enSync },
};

/**
 * Where a content language's fill words are: its own fill.json, or for German and English the interface's
 * common.json, which holds them with the staff's words (docs/decisions/055-fill-languages.md).
 */
export const fillTextUrls: Record<ContentLanguage, string> = {
  de: deCommon,
  en: enCommon,
  tr: trFill,
  ar: arFill,
  ru: ruFill,
  uk: ukFill,
  pl: plFill,
};

/** A route's handle names the text parts beyond "common" that its page shows. */
export interface TextsHandle {
  texts?: TextPart[];
}

/** A fill route's handle: from its data, the language whose fill words its page speaks (loaded first). */
export interface FillTextsHandle {
  fillTexts?: (data: unknown) => unknown;
}

/** For a patient's link: the fill words are those of the case's language its data names, always. */
export const caseLanguageFillTexts = (data: unknown) => (data as { language?: unknown } | null)?.language;

/**
 * The fill words a page needs beside its own language's texts: those of the language its fill route names,
 * unless they are the page's own common texts (German and English hold them there).
 */
export function fillTextsOf(
  matches: readonly { handle?: unknown; data?: unknown }[],
  locale: Culture,
): ContentLanguage | null {
  const language = matches
    .map((m) => (m.handle as FillTextsHandle | undefined)?.fillTexts?.(m.data))
    .find((lang): lang is ContentLanguage => typeof lang === "string" && Object.hasOwn(fillTextUrls, lang));
  return language && fillTextUrls[language] !== localeUrls[locale].common ? language : null;
}

/** The parts a page of these routes shows, "common" first. */
export function textPartsOf(handles: readonly unknown[]): TextPart[] {
  const extra = handles.flatMap((h) => (h as TextsHandle | undefined)?.texts ?? []);
  return ["common", ...new Set(extra.filter((p) => p !== "common"))];
}

const fetched = new Map<string, Promise<void>>();

function fetchPart(locale: Culture, part: TextPart): Promise<void> {
  return fetchFile(locale, part, localeUrls[locale][part]);
}

async function fetchFile(locale: string, part: string, url: string): Promise<void> {
  const key = `${locale}:${part}`;
  let pending = fetched.get(key);
  if (!pending) {
    pending = fetch(url).then(async (response) => {
      if (!response.ok) throw new Error(`language file ${locale}/${part}: ${response.status}`);
      addLocale(locale, (await response.json()) as LocaleTable);
    });
    // A failed fetch is not remembered, so the next call tries again.
    pending.catch(() => fetched.delete(key));
    fetched.set(key, pending);
  }
  return pending;
}

/** The texts of a language in the given parts, fetched once each and made known to translate(). */
export async function loadLocale(locale: Culture, parts: readonly TextPart[] = ["common"]): Promise<LocaleTable> {
  await Promise.all(parts.map((part) => fetchPart(locale, part)));
  return localeTable(locale) ?? {};
}

/**
 * The page's language as it starts: a failed fetch is tried once more after `pauseMs`. Null when both
 * fail; the page then stays as the server drew it, working as it does without JavaScript, rather than
 * starting with text keys where its texts would be.
 */
export async function loadStartLocale(
  locale: Culture,
  parts: readonly TextPart[] = ["common"],
  pauseMs = 500,
): Promise<LocaleTable | null> {
  try {
    return await loadLocale(locale, parts);
  } catch {
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    return loadLocale(locale, parts).catch((error: unknown) => {
      console.error(error);
      return null;
    });
  }
}

/**
 * A content language's fill words, fetched once and made known under its locale (fillLocales): the fill page
 * of a case in that language draws with them. Only this language's file is fetched, never all of them.
 */
export async function loadFillTexts(lang: ContentLanguage): Promise<void> {
  const locale = fillLocales[lang];
  if (locale in localeUrls) return fetchPart(locale as Culture, "common");
  return fetchFile(locale, "fill", fillTextUrls[lang]);
}

/**
 * A language the page is about to switch to, in the parts fetched so far: its title (translate(), in the
 * route's meta) is worked out as soon as the root's data names the language, before the page changes to it.
 */
export async function readyLanguage(locale: string): Promise<void> {
  if (!(locale in localeUrls)) return;
  const parts = new Set([...fetched.keys()].map((key) => key.split(":")[1]).filter(isTextPart));
  await loadLocale(locale as Culture, [...parts]).catch((error: unknown) => console.error(error));
}

/**
 * Before a page that shows more than the common texts is drawn after an in-app navigation: its texts are
 * fetched in the page's language (for a route's clientLoader); the page's texts read them once here.
 */
export async function ensureTexts(parts: readonly TextPart[]): Promise<void> {
  const locale = currentPageLanguage() as Culture | null;
  if (!locale || !localeUrls[locale]) return;
  await loadLocale(locale, parts);
}

/**
 * A module loaded on demand (a dialog, for React.lazy) together with the text parts it shows: it is drawn
 * only once both are here, so that it never starts with text keys where its texts would be.
 */
export function withTexts<T>(load: () => Promise<T>, parts: readonly TextPart[]): () => Promise<T> {
  return () => Promise.all([load(), ensureTexts(parts)]).then(([loaded]) => loaded);
}
