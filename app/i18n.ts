import { defaultCulture } from "~/domain/culture";
import { reportMissingText } from "~/missing-texts";

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
 * The values a text is made with: each `{{name}}` in it stands for `values.name`; a numeric `count` picks
 * the text's plural form; `defaultValue` stands where the text is missing (which is still reported).
 */
export type TextValues = Readonly<Record<string, unknown>> & {
  readonly count?: number | string;
  readonly defaultValue?: string;
};

/** The texts of one language, as components and helpers call them: `t("fill.next")`, `t("x", { count })`. */
export type TFunction = (key: string, values?: TextValues) => string;

const pluralRules = new Map<string, Intl.PluralRules>();

function pluralForm(language: string, count: number): string {
  let rules = pluralRules.get(language);
  if (!rules) {
    rules = new Intl.PluralRules(language);
    pluralRules.set(language, rules);
  }
  return rules.select(count);
}

/**
 * The text of a key in one language, in the form a count asks for: `key_zero` for none (where the language
 * has one), then the language's plural form (`key_one`, `key_few`, `key_other`…), then the key itself.
 */
function textIn(language: string, key: string, count: number | undefined): string | undefined {
  const table = tables.get(language);
  if (!table) return undefined;
  if (count !== undefined && Number.isFinite(count)) {
    const zero = count === 0 ? lookUp(table, `${key}_zero`) : undefined;
    const form = zero ?? lookUp(table, `${key}_${pluralForm(language, count)}`);
    if (form !== undefined) return form;
  }
  return lookUp(table, key);
}

/** The key a missing text is reported by: with its plural form where a count asked for one. */
function missingKey(language: string, key: string, count: number | undefined): string {
  return count !== undefined && Number.isFinite(count) ? `${key}_${pluralForm(language, count)}` : key;
}

function withValues(text: string, values: TextValues | undefined): string {
  if (!text.includes("{{")) return text;
  return text.replace(/{{\s*([^{}\s]+)\s*}}/g, (_, name: string) => {
    const value = values?.[name];
    return value === undefined || value === null ? "" : String(value);
  });
}

/**
 * The texts of a language: its own, else those of `fallback` (the staff's languages fall back to German; a
 * content language's fill words to none). A text found in neither is reported (app/missing-texts.ts) and
 * shows the call's default, or its key, never nothing.
 */
export function textsOf(language: string, fallback: string | null): TFunction {
  const other = fallback && fallback !== language ? fallback : null;
  return (key, values) => textOf(language, other, key, values);
}

function textOf(language: string, other: string | null, key: string, values: TextValues | undefined): string {
  const count = values?.count === undefined ? undefined : Number(values.count);
  const text = textIn(language, key, count) ?? (other ? textIn(other, key, count) : undefined);
  if (text !== undefined) return withValues(text, values);
  reportMissingText(language, missingKey(language, key, count));
  return withValues(values?.defaultValue ?? key, values);
}

/**
 * A text of the locale files outside React (page titles in meta functions, server-made names), in the
 * language given, else German when the language's texts are not here. With a `count`, its plural form
 * (`key_one`, `key_other`) in the language's rules.
 */
export function translate(locale: string | undefined, key: string, vars: Record<string, string> = {}): string {
  const language = tables.has(locale ?? "") ? locale! : defaultCulture;
  return textOf(language, null, key, vars);
}

/** The page's language in the browser: the one it started in (set before it starts), then each switched to. */
let pageLanguage: string | null = null;
const listeners = new Set<() => void>();

export function listenToPageLanguage(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The language the page speaks now (its texts are known to translate() once it is switched to). */
export function currentPageLanguage(): string | null {
  return pageLanguage;
}

/** Switches the page to a language whose texts have been loaded: every text on the page is drawn anew in it. */
export function changePageLanguage(language: string): void {
  if (language === pageLanguage) return;
  pageLanguage = language;
  for (const listener of listeners) listener();
}
