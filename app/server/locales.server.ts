import deAuthoring from "../../locales/de-DE/authoring.json";
import deCommon from "../../locales/de-DE/common.json";
import enAuthoring from "../../locales/en-US/authoring.json";
import enCommon from "../../locales/en-US/common.json";
import { addLocale, mergeTables } from "~/i18n";

/** Both languages with all their texts, for server rendering and server-made texts. */
const de = mergeTables(deCommon, deAuthoring);
const en = mergeTables(enCommon, enAuthoring);

export const resources = {
  "de-DE": { common: de },
  "en-US": { common: en },
};
addLocale("de-DE", de);
addLocale("en-US", en);

export { translate } from "~/i18n";
