import i18next from "i18next";
import deAuthoring from "../locales/de-DE/authoring.json?url";
import deCommon from "../locales/de-DE/common.json?url";
import enAuthoring from "../locales/en-US/authoring.json?url";
import enCommon from "../locales/en-US/common.json?url";
import type { Culture } from "~/domain/culture";
import { addLocale, localeTable, type LocaleTable } from "~/i18n";

/**
 * The language files as the browser fetches them: fingerprinted assets, kept by the service worker with
 * the scripts. A page loads only its own language (the root preloads it), and of it only the parts it
 * shows: "common" everywhere, "authoring" (the editor's and the statistics' texts) where they are used.
 */
export type TextPart = "common" | "authoring";

export const localeUrls: Record<Culture, Record<TextPart, string>> = {
  "de-DE": { common: deCommon, authoring: deAuthoring },
  "en-US": { common: enCommon, authoring: enAuthoring },
};

/** A route's handle names the text parts beyond "common" that its page shows. */
export interface TextsHandle {
  texts?: TextPart[];
}

/** The parts a page of these routes shows, "common" first. */
export function textPartsOf(handles: readonly unknown[]): TextPart[] {
  const extra = handles.flatMap((h) => (h as TextsHandle | undefined)?.texts ?? []);
  return ["common", ...new Set(extra.filter((p) => p !== "common"))];
}

const fetched = new Map<string, Promise<void>>();

async function fetchPart(locale: Culture, part: TextPart): Promise<void> {
  const key = `${locale}:${part}`;
  let pending = fetched.get(key);
  if (!pending) {
    pending = fetch(localeUrls[locale][part]).then(async (response) => {
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
 * Before a page that shows more than the common texts is drawn after an in-app navigation: its texts are
 * fetched and given to the page's translations (for a route's clientLoader).
 */
export async function ensureTexts(parts: readonly TextPart[]): Promise<void> {
  const locale = i18next.language as Culture;
  if (!localeUrls[locale]) return;
  const table = await loadLocale(locale, parts);
  i18next.addResourceBundle(locale, "common", table, true, true);
}
