import { createInstance, type i18n } from "i18next";
import { fillLocales } from "~/domain/case-language";
import type { ContentLanguage } from "~/domain/languages";
import { i18nConfig, localeTable } from "~/i18n";

/**
 * The translations a fill page speaks: one instance per content language, apart from the page's own (the
 * staff's interface language), reading the fill words known for that language (loadFillTexts in the browser,
 * locales.server.ts on the server). A text it lacks is reported as every missing text is, never filled in from
 * another language (docs/decisions/055-fill-languages.md).
 */
const instances = new Map<string, { table: unknown; instance: i18n }>();

export function fillI18n(lang: ContentLanguage): i18n | null {
  const locale = fillLocales[lang];
  const table = localeTable(locale);
  if (!table) return null;
  const known = instances.get(locale);
  // A language whose texts grew since (the staff's own, with more parts): made again with all of them.
  if (known && known.table === table) return known.instance;
  const instance = createInstance();
  void instance.init({
    ...i18nConfig,
    supportedLngs: Object.values(fillLocales),
    fallbackLng: false,
    lng: locale,
    resources: { [locale]: { common: table } },
    initImmediate: false,
  });
  instances.set(locale, { table, instance });
  return instance;
}
