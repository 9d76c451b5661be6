import { cultures, defaultCulture } from "~/domain/culture";
import { missingKeyHandler, reportMissingText } from "~/missing-texts";

/** One i18next setup for the server, the page and the offline layer. German is the default. */
export const i18nConfig = {
  supportedLngs: [...cultures],
  fallbackLng: defaultCulture,
  defaultNS: "common",
  ns: ["common"],
  load: "currentOnly" as const,
  interpolation: { escapeValue: false },
  // A text the page's language lacks is reported (app/missing-texts.ts), never shown as its key in silence.
  saveMissing: true,
  saveMissingTo: "current" as const,
  missingKeyHandler,
};

/**
 * The texts of one language: locales/<culture>/common.json, and the parts some pages show beside it
 * (authoring.json, sign.json, sync.json: decision 015), merged into one table.
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

function lookUp(table: LocaleTable | undefined, key: string): string | undefined {
  const found = key
    .split(".")
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], table);
  return typeof found === "string" ? found : undefined;
}

/**
 * A text of the locale files outside React (page titles in meta functions, server-made names). With a
 * `count`, its plural form (`key_one`, `key_other`) in the language's rules, as i18next picks it.
 */
export function translate(locale: string | undefined, key: string, vars: Record<string, string> = {}): string {
  const language = tables.has(locale ?? "") ? locale! : defaultCulture;
  const table = tables.get(language);
  const count = vars.count === undefined ? NaN : Number(vars.count);
  const plural = Number.isFinite(count) ? `${key}_${new Intl.PluralRules(language).select(count)}` : null;
  const text = (plural ? lookUp(table, plural) : undefined) ?? lookUp(table, key);
  if (text === undefined) reportMissingText(language, plural ?? key);
  return (text ?? key).replace(/{{\s*(\w+)\s*}}/g, (_, name: string) => vars[name] ?? "");
}
