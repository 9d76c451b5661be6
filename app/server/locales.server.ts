import deAuthoring from "../../locales/de-DE/authoring.json";
import deCommon from "../../locales/de-DE/common.json";
import deSign from "../../locales/de-DE/sign.json";
import deSync from "../../locales/de-DE/sync.json";
import enAuthoring from "../../locales/en-US/authoring.json";
import enCommon from "../../locales/en-US/common.json";
import enSign from "../../locales/en-US/sign.json";
import enSync from "../../locales/en-US/sync.json";
import arFill from "../../locales/ar/fill.json";
import plFill from "../../locales/pl-PL/fill.json";
import ruFill from "../../locales/ru-RU/fill.json";
import trFill from "../../locales/tr-TR/fill.json";
import ukFill from "../../locales/uk-UA/fill.json";
import { fillLocales } from "~/domain/case-language";
import { addLocale, mergeTables, type LocaleTable } from "~/i18n";
import { MISSING_TEXTS_HEADER, onMissingText } from "~/missing-texts";
import { log, missingTextsOfRequest, noteMissingText } from "./log.server";

/** Both languages with all their texts (every part), for server rendering and server-made texts. */
const merged = (...parts: LocaleTable[]) => parts.reduce((all, part) => mergeTables(all, part), {});
const de = merged(deCommon, deAuthoring, deSign, deSync);
const en = merged(enCommon, enAuthoring, enSign, enSync);

addLocale("de-DE", de);
addLocale("en-US", en);

/** The fill words of the content languages beyond German and English (docs/decisions/055-fill-languages.md). */
export const fillTables = {
  [fillLocales.tr]: trFill,
  [fillLocales.ar]: arFill,
  [fillLocales.ru]: ruFill,
  [fillLocales.uk]: ukFill,
  [fillLocales.pl]: plFill,
};
for (const [locale, table] of Object.entries(fillTables)) addLocale(locale, table);

// On the server a missing text goes to the log, and to the answer of the request that asked for it.
onMissingText((locale, key) => {
  log.error("missing text", { locale, key });
  noteMissingText(`${locale} ${key}`);
});

export { translate } from "~/i18n";

/** Names in an answer's header the texts its request lacked: the e2e tests fail on it, also without JavaScript. */
export function nameMissingTexts(headers: Headers): void {
  const missing = missingTextsOfRequest();
  if (missing.length > 0) headers.set(MISSING_TEXTS_HEADER, missing.join(", "));
}
