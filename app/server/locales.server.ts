import de from "../../locales/de-DE/common.json";
import en from "../../locales/en-US/common.json";
import { addLocale } from "~/i18n";

/** Both languages, for server rendering and server-made texts; a browser loads only its page's language. */
export const resources = {
  "de-DE": { common: de },
  "en-US": { common: en },
};
addLocale("de-DE", de);
addLocale("en-US", en);

export { translate } from "~/i18n";
