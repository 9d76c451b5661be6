import { test as base } from "@playwright/test";
import { e2eAppPort, e2eDataDir } from "../playwright.config";
import { unstyledClasses } from "./styles";

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
 * Playwright's test, with each worker's pages and requests pointed at that worker's own server, and one check
 * after every test that passed: each page it left open on the app has the styles of every class it draws.
 */
export const test = base.extend<{ stylesLoaded: void }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a function takes from this pattern
  baseURL: async ({}, provide, testInfo) => {
    await provide(`http://localhost:${e2eAppPort(testInfo.parallelIndex)}`);
  },
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
});

export { expect } from "@playwright/test";
