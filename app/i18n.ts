import de from "../locales/de-DE/common.json";
import en from "../locales/en-US/common.json";
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

export const resources = {
  "de-DE": { common: de },
  "en-US": { common: en },
};

/** A text of the locale files outside React (page titles in meta functions). */
export function translate(locale: string | undefined, key: string, vars: Record<string, string> = {}): string {
  const table = resources[locale as keyof typeof resources] ?? resources["de-DE"];
  const found = key
    .split(".")
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], table.common);
  const text = typeof found === "string" ? found : key;
  return text.replace(/{{\s*(\w+)\s*}}/g, (_, name: string) => vars[name] ?? "");
}
