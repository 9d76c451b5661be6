import type { Browser, BrowserContext } from "@playwright/test";
import { MISSING_TEXT, MISSING_TEXTS_HEADER } from "../app/missing-texts";

/**
 * Texts the app lacked during the current test (app/missing-texts.ts): each page's console line and each
 * server answer's header, in every browser context the test opens. Null between tests.
 */
let found: Set<string> | null = null;
/** The server's drawing of a page (or a part of it) React threw away while hydrating, during the current test. */
let redrawn: Set<string> | null = null;
const watched = new WeakSet<BrowserContext>();

/**
 * React's errors for a hydration that did not keep the server's page: a mismatch (418, 425), an update that
 * reached a boundary still hydrating (421), a root or boundary drawn anew in the browser (422, 423); minified
 * or in words.
 */
const HYDRATION_FAILED =
  /Minified React error #(418|419|421|422|423|425)\b|Hydration failed|before it finished hydrating|error while hydrating|does not match server-rendered/;

/**
 * Listens to a context's pages and answers for missing texts and hydration failures (contexts of the browser
 * fixture are watched by themselves).
 */
export function watchTexts(context: BrowserContext): void {
  if (watched.has(context)) return;
  watched.add(context);
  context.on("console", (message) => {
    const text = message.text();
    if (message.type() === "error" && text.startsWith(MISSING_TEXT)) {
      found?.add(`${text.slice(MISSING_TEXT.length).trim()} (${message.page()?.url() ?? "?"})`);
    }
    if (message.type() === "error" && HYDRATION_FAILED.test(text)) {
      redrawn?.add(`${text.split("\n")[0]} (${message.page()?.url() ?? "?"})`);
    }
  });
  context.on("weberror", (error) => {
    const text = String(error.error().message);
    if (HYDRATION_FAILED.test(text)) redrawn?.add(`${text.split("\n")[0]} (${error.page()?.url() ?? "?"})`);
  });
  context.on("response", (response) => {
    const header = response.headers()[MISSING_TEXTS_HEADER.toLowerCase()];
    if (header) for (const text of header.split(", ")) found?.add(`${text} (${response.url()})`);
  });
}

/**
 * Collects the missing texts and hydration failures of one test: from `context`, from each context
 * `browser.newContext()` (and so `browser.newPage()`) makes while it runs, and from those passed to watchTexts.
 * Returns them when the test ends.
 */
export function collectMissingTexts(browser: Browser, context: BrowserContext) {
  found = new Set();
  redrawn = new Set();
  watchTexts(context);
  const newContext = browser.newContext;
  browser.newContext = async (...args) => {
    const made = await newContext.apply(browser, args);
    watchTexts(made);
    return made;
  };
  return function stop(): { missing: string[]; redrawn: string[] } {
    browser.newContext = newContext;
    const all = { missing: [...(found ?? [])], redrawn: [...(redrawn ?? [])] };
    found = null;
    redrawn = null;
    return all;
  };
}
