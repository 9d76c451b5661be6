import { cultures, defaultCulture } from "~/domain/culture";

/** One i18next setup for the server, the page and the offline layer. German is the default. */
export const i18nConfig = {
  supportedLngs: [...cultures],
  fallbackLng: defaultCulture,
  defaultNS: "common",
  ns: ["common"],
  load: "currentOnly" as const,
  interpolation: { escapeValue: false },
};

/** The texts of one language (the contents of locales/<culture>/common.json). */
export type LocaleTable = Record<string, unknown>;

/** The languages whose texts are here: both on the server, the page's own (and any switched to) in the browser. */
const tables = new Map<string, LocaleTable>();

export function addLocale(locale: string, table: LocaleTable): void {
  tables.set(locale, table);
}

export function localeTable(locale: string): LocaleTable | undefined {
  return tables.get(locale);
}

/** A text of the locale files outside React (page titles in meta functions, server-made names). */
export function translate(locale: string | undefined, key: string, vars: Record<string, string> = {}): string {
  const table = tables.get(locale ?? "") ?? tables.get(defaultCulture);
  const found = key
    .split(".")
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], table);
  const text = typeof found === "string" ? found : key;
  return text.replace(/{{\s*(\w+)\s*}}/g, (_, name: string) => vars[name] ?? "");
}
