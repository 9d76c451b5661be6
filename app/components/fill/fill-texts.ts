import { fillLocales } from "~/domain/case-language";
import type { ContentLanguage } from "~/domain/languages";
import { localeTable, textsOf } from "~/i18n";
import type { Texts } from "~/texts";

/**
 * The texts a fill page speaks in a content language other than the page's own (the staff's interface
 * language): that language's fill words (loadFillTexts in the browser, locales.server.ts on the server),
 * one set per language, read as they stand (words loaded later are read too). A text it lacks is reported
 * as every missing text is, never filled in from another language (docs/decisions/055-fill-languages.md).
 * Null while the language's words have not come.
 */
const known = new Map<string, Texts>();

export function fillTexts(lang: ContentLanguage): Texts | null {
  const locale = fillLocales[lang];
  if (!localeTable(locale)) return null;
  let texts = known.get(locale);
  if (!texts) {
    texts = { language: locale, t: textsOf(locale, null) };
    known.set(locale, texts);
  }
  return texts;
}
