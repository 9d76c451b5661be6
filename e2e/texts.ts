import type { Browser, BrowserContext } from "@playwright/test";
import { MISSING_TEXT, MISSING_TEXTS_HEADER } from "../app/missing-texts";

/**
 * Texts the app lacked during the current test (app/missing-texts.ts): each page's console line and each
 * server answer's header, in every browser context the test opens. Null between tests.
 */
let found: Set<string> | null = null;
const watched = new WeakSet<BrowserContext>();

/** Listens to a context's pages and answers for missing texts (contexts of the browser fixture are watched by themselves). */
export function watchTexts(context: BrowserContext): void {
  if (watched.has(context)) return;
  watched.add(context);
  context.on("console", (message) => {
    const text = message.text();
    if (message.type() === "error" && text.startsWith(MISSING_TEXT)) {
      found?.add(`${text.slice(MISSING_TEXT.length).trim()} (${message.page()?.url() ?? "?"})`);
    }
  });
  context.on("response", (response) => {
    const header = response.headers()[MISSING_TEXTS_HEADER.toLowerCase()];
    if (header) for (const text of header.split(", ")) found?.add(`${text} (${response.url()})`);
  });
}

/**
 * Collects the missing texts of one test: from `context`, from each context `browser.newContext()` (and so
 * `browser.newPage()`) makes while it runs, and from those passed to watchTexts. Returns them when the test ends.
 */
export function collectMissingTexts(browser: Browser, context: BrowserContext) {
  found = new Set();
  watchTexts(context);
  const newContext = browser.newContext;
  browser.newContext = async (...args) => {
    const made = await newContext.apply(browser, args);
    watchTexts(made);
    return made;
  };
  return function stop(): string[] {
    browser.newContext = newContext;
    const all = [...(found ?? [])];
    found = null;
    return all;
  };
}
