import { defaultCulture, isCulture } from "~/domain/culture";
import { loadStartLocale } from "~/locale-files";
import { finishPendingSignOut, KEY, type SignedOutTexts } from "./sign-out-pending";

let words: Promise<SignedOutTexts | undefined> | null = null;

/**
 * The sign-out's words in the page's language ("sync" texts, with the sign-out dialog's), fetched once while
 * the page is online (guardSignedOutPages runs once it has loaded), again after a failed fetch.
 */
function wordsOfPage(): Promise<SignedOutTexts | undefined> {
  const lang = document.documentElement.lang;
  words ??= loadStartLocale(isCulture(lang) ? lang : defaultCulture, ["sync"], 0).then(
    (table) => table?.signedOutOffline as SignedOutTexts | undefined,
  );
  return words.then((found) => {
    if (!found) words = null;
    return found;
  });
}

/** The page says that its person signed out, in the page's language. */
export async function showSignedOutHere(): Promise<void> {
  const texts = await wordsOfPage();
  if (texts) showSignedOut(texts);
}

/**
 * In place of the page: the person is signed out, the sign-out goes once the device is connected. The page's
 * own elements stay (its scripts may hold them) but are hidden and inert: nothing of the app can be used.
 */
export function showSignedOut(texts: SignedOutTexts): void {
  if (document.querySelector("[data-testid=signed-out-offline]")) return;
  for (const element of Array.from(document.body.children)) {
    if (!(element instanceof HTMLElement)) continue;
    element.style.setProperty("display", "none", "important");
    element.inert = true;
  }
  const main = document.createElement("main");
  main.className = "main signed-out";
  main.tabIndex = -1;
  main.dataset.testid = "signed-out-offline";
  const heading = document.createElement("h1");
  heading.textContent = texts.title;
  const body = document.createElement("p");
  body.textContent = texts.body;
  main.append(heading, body);
  document.body.append(main);
  document.title = texts.title;
  main.focus();
}

/**
 * The person's other pages say so too: another tab of theirs when the sign-out is kept (its storage event),
 * and a page the browser shows again from its memory (back, forward), which starts nothing anew. Set up
 * once the page has loaded (entry.client.tsx).
 */
export function guardSignedOutPages(): void {
  void wordsOfPage();
  window.addEventListener("storage", (event) => {
    if (event.key === KEY && event.newValue && finishPendingSignOut()) void showSignedOutHere();
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted && finishPendingSignOut()) void showSignedOutHere();
  });
}
