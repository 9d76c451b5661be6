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

/**
 * The texts of one language: locales/<culture>/common.json, and authoring.json for the editor and the
 * statistics (decision 015), merged into one table.
 */
export type LocaleTable = Record<string, unknown>;

/** A table with another one's texts added (deeply: both may hold parts of one section). */
export function mergeTables(into: LocaleTable, more: LocaleTable): LocaleTable {
  const out: LocaleTable = { ...into };
  for (const [key, value] of Object.entries(more)) {
    const current = out[key];
    out[key] =
      current && typeof current === "object" && value && typeof value === "object"
        ? mergeTables(current as LocaleTable, value as LocaleTable)
        : value;
  }
  return out;
}

/** The languages whose texts are here: both on the server, the page's own (and any switched to) in the browser. */
const tables = new Map<string, LocaleTable>();

/** Adds texts of a language to those known already. */
export function addLocale(locale: string, table: LocaleTable): void {
  const known = tables.get(locale);
  tables.set(locale, known ? mergeTables(known, table) : table);
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
