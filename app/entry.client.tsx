import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { defaultCulture, isCulture } from "~/domain/culture";
import { i18nConfig } from "~/i18n";
import { loadStartLocale, type TextPart } from "~/locale-files";

async function hydrate() {
  const lang = document.documentElement.lang;
  const lng = isCulture(lang) ? lang : defaultCulture;
  // The page's language only, in the parts the page shows (the document preloads them). Should it not
  // arrive, the server's page stays as it is: every page works without JavaScript, and a page started
  // without its texts would show keys.
  const parts = Array.from(
    document.querySelectorAll<HTMLLinkElement>("link[data-texts]"),
    (link) => link.dataset.texts,
  );
  const table = await loadStartLocale(
    lng,
    parts.filter((p): p is TextPart => p === "common" || p === "authoring"),
  );
  if (!table) return;
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
