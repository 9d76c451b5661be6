import { test as base, type Page } from "@playwright/test";
import { e2eAppPort, e2eDataDir } from "../playwright.config";
import { unstyledClasses } from "./styles";
import { collectMissingTexts } from "./texts";

/** The app's address for the worker running the current test (playwright.config.ts). */
export function appUrl() {
  return `http://localhost:${e2eAppPort(base.info().parallelIndex)}`;
}

/** The port of the app the current test talks to. */
export function appPort() {
  return e2eAppPort(base.info().parallelIndex);
}

/** The data folder (database, files) of the server the current test talks to. */
export function dataDir() {
  return e2eDataDir(base.info().parallelIndex);
}

/**
 * Waits until the page's scripts have started and run their first effects (app/root.tsx marks the document),
 * so that a key or a click goes to the page's handlers, on the place it is drawn, and not to the server-drawn
 * page before them (a click as the page comes alive can land where the page no longer is). A page without the
 * app's scripts (the provider's, a file) counts as started.
 */
export async function pageStarted(page: Page, timeout: number) {
  await page.waitForFunction(
    () => !("__remixContext" in window) || document.documentElement.hasAttribute("data-started"),
    undefined,
    { timeout },
  );
}

/**
 * The page opens an address as a person would: its `goto` returns once the page has come alive (its scripts
 * start after its first paint, decision 059), unless the test asks for an earlier moment (waitUntil). A page
 * that never comes alive (offline without its scripts) goes on after a while.
 */
export function gotoAsAPerson(page: Page) {
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    if (!options?.waitUntil) await pageStarted(page, 10_000).catch(() => undefined);
    return response;
  };
}

/**
 * Playwright's test, with each worker's pages and requests pointed at that worker's own server, and three checks
 * after every test that passed: each page it left open on the app has the styles of every class it draws, no
 * page or answer of the test lacked a text of the locale files, and no page's hydration threw the server's
 * drawing away (e2e/texts.ts).
 */
export const test = base.extend<{ stylesLoaded: void; textsComplete: void; personPages: void }>({
  // The test's own page, where scripts run, opens an address as a person would: the page has come alive before
  // the test's first click. A test that asks for an earlier moment (waitUntil) gets it; one whose page never
  // comes alive (offline without its scripts) goes on after a while and checks what it sees.
  page: async ({ page, javaScriptEnabled }, provide) => {
    if (javaScriptEnabled !== false) gotoAsAPerson(page);
    await provide(page);
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a function takes from this pattern
  baseURL: async ({}, provide, testInfo) => {
    await provide(`http://localhost:${e2eAppPort(testInfo.parallelIndex)}`);
  },
  // The pages a test opens besides (another person's browser, a patient's phone) open addresses the same way.
  personPages: [
    async ({ browser }, provide) => {
      const newContext = browser.newContext.bind(browser);
      const newPage = browser.newPage.bind(browser);
      browser.newContext = async (options) => {
        const context = await newContext(options);
        if (options?.javaScriptEnabled !== false) context.on("page", gotoAsAPerson);
        return context;
      };
      browser.newPage = async (options) => {
        const page = await newPage(options);
        if (options?.javaScriptEnabled !== false) gotoAsAPerson(page);
        return page;
      };
      await provide();
      browser.newContext = newContext;
      browser.newPage = newPage;
    },
    { auto: true },
  ],
  stylesLoaded: [
    async ({ context, baseURL }, provide, testInfo) => {
      await provide();
      if (testInfo.status !== testInfo.expectedStatus) return;
      for (const page of context.pages()) {
        if (page.isClosed() || !baseURL || !page.url().startsWith(baseURL)) continue;
        // A test may end as soon as its last page's address showed, before that page's stylesheets arrived.
        await page.waitForLoadState("load", { timeout: 10_000 }).catch(() => undefined);
        const missing = await unstyledClasses(page).catch(() => null); // a page mid-navigation is skipped
        if (missing) base.expect(missing, `classes whose styles did not load at ${page.url()}`).toEqual([]);
      }
    },
    { auto: true },
  ],
  textsComplete: [
    async ({ browser, context }, provide, testInfo) => {
      const stop = collectMissingTexts(browser, context);
      await provide();
      const { missing, redrawn } = stop();
      if (testInfo.status !== testInfo.expectedStatus) return;
      base.expect(missing, "texts missing from the locale files").toEqual([]);
      base.expect(redrawn, "pages whose server drawing React threw away while hydrating").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect } from "@playwright/test";
