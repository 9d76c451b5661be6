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
