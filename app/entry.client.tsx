import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { defaultCulture, isCulture } from "~/domain/culture";
import { i18nConfig, type LocaleTable } from "~/i18n";
import { loadLocale } from "~/locale-files";

async function hydrate() {
  const lang = document.documentElement.lang;
  const lng = isCulture(lang) ? lang : defaultCulture;
  // The page's language only (the document preloads it). Should that fetch fail, the page still starts,
  // showing text keys where its texts would be, rather than not starting at all.
  const table = await loadLocale(lng).catch((error: unknown): LocaleTable => {
    console.error(error);
    return {};
  });
  await i18next.use(initReactI18next).init({ ...i18nConfig, lng, resources: { [lng]: { common: table } } });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
