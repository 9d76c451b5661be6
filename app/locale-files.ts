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
