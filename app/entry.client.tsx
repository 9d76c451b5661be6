import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { defaultCulture, isCulture } from "~/domain/culture";
import { changePageLanguage } from "~/i18n";
import { PageTexts } from "~/texts";
import { isContentLanguage } from "~/domain/languages";
import { isTextPart, loadFillTexts, loadStartLocale } from "~/locale-files";
import { finishPendingSignOut, signedOut } from "~/offline/sign-out-pending";
import { afterLoad } from "~/offline/after-load";
import { beginPerson } from "~/offline/vault";

/**
 * Whose offline work this device holds is settled first, from the person the server rendered the page for
 * (decision 048): nothing of another person is read by the page's code before that.
 */
function settlePerson() {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="offline-holder"]');
  if (!meta) return;
  const [holder, userId] = [meta.content, meta.dataset.user ?? ""];
  void beginPerson(holder && userId ? { holder, userId } : null);
}

/**
 * The page stays as the server drew it, without its scripts: a form sent before now, held until the page
 * started (decision 059), is the browser's to send, and so is every later one.
 */
function leaveAsDrawn() {
  document.documentElement.setAttribute("data-scripts-left", "");
}

async function hydrate() {
  const lang = document.documentElement.lang;
  const lng = isCulture(lang) ? lang : defaultCulture;
  // A page still drawn for someone who signed out without a connection: their session ends first, and the
  // page says they are signed out instead of starting.
  if (finishPendingSignOut()) {
    leaveAsDrawn();
    void signedOut().then((m) => m.showSignedOutHere());
    return;
  }
  settlePerson();
  // The page's language only, in the parts the page shows (the document preloads them). Should it not
  // arrive, the server's page stays as it is: every page works without JavaScript, and a page started
  // without its texts would show keys.
  const parts = Array.from(
    document.querySelectorAll<HTMLLinkElement>("link[data-texts]"),
    (link) => link.dataset.texts,
  );
  // A fill page in a case's language other than the page's: its fill words too (decision 055).
  const fillLanguage = document.querySelector<HTMLLinkElement>("link[data-fill-texts]")?.dataset.fillTexts ?? "";
  const [table, fillTexts] = await Promise.all([
    loadStartLocale(lng, parts.filter(isTextPart)),
    isContentLanguage(fillLanguage)
      ? loadFillTexts(fillLanguage).then(
          () => true,
          () =>
            loadFillTexts(fillLanguage).then(
              () => true,
              () => false,
            ),
        )
      : true,
  ]);
  if (!table || !fillTexts) return leaveAsDrawn();
  changePageLanguage(lng);
  // Its chunk may fail to load (the page left while it loads, which Firefox reports as a failed import, or a
  // device offline without it): the page then has no guard, as before, and no unhandled error.
  afterLoad(
    () =>
      void signedOut().then(
        (m) => m.guardSignedOutPages(),
        () => undefined,
      ),
  );
  startTransition(() => {
    hydrateRoot(
      document,
      <PageTexts language={lng}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </PageTexts>,
    );
  });
}

void hydrate();
