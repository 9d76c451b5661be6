import deUrl from "../locales/de-DE/common.json?url";
import enUrl from "../locales/en-US/common.json?url";
import type { Culture } from "~/domain/culture";
import { addLocale, localeTable, type LocaleTable } from "~/i18n";

/**
 * The language files as the browser fetches them: fingerprinted assets, kept by the service worker with
 * the scripts. A page loads only its own language (the root preloads it), not both.
 */
export const localeUrls: Record<Culture, string> = { "de-DE": deUrl, "en-US": enUrl };

/** The texts of a language, fetched once and made known to translate(). */
export async function loadLocale(locale: Culture): Promise<LocaleTable> {
  const known = localeTable(locale);
  if (known) return known;
  const response = await fetch(localeUrls[locale]);
  if (!response.ok) throw new Error(`language file ${locale}: ${response.status}`);
  const table = (await response.json()) as LocaleTable;
  addLocale(locale, table);
  return table;
}

/**
 * The page's language as it starts: a failed fetch is tried once more after `pauseMs`. Null when both
 * fail; the page then stays as the server drew it, working as it does without JavaScript, rather than
 * starting with text keys where its texts would be.
 */
export async function loadStartLocale(locale: Culture, pauseMs = 500): Promise<LocaleTable | null> {
  try {
    return await loadLocale(locale);
  } catch {
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    return loadLocale(locale).catch((error: unknown) => {
      console.error(error);
      return null;
    });
  }
}
