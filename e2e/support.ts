import path from "node:path";
import Database from "better-sqlite3";
import type { Locator, Page } from "@playwright/test";
import { dataDir, expect, pageStarted } from "./test";

export const accounts = {
  editor: { username: "editor", password: "editor123", fullName: "Dr. Anna Schneider" },
  approver: { username: "approver", password: "approver123", fullName: "Prof. Dr. Markus Weber" },
  admin: { username: "admin", password: "admin123", fullName: "Julia Hoffmann" },
  user: { username: "user", password: "user123", fullName: "Thomas Becker" },
  newcomer: { username: "newcomer", password: "newcomer123", fullName: "Laura Fischer" },
  outsider: { username: "outsider", password: "outsider123", fullName: "" },
} as const;

export type AccountName = keyof typeof accounts;

/**
 * Signs in as `who` and opens `start`. The sign-in itself is the real code flow with the embedded provider
 * (its login form sent with the account's credentials), made by the page's own request context, so that the
 * session cookie lands in the browser without drawing the provider's pages; those pages keep their own tests
 * (fillLogin). Where the flow ends on a page of the provider (the terms a newcomer accepts), that page opens.
 */
export async function signIn(page: Page, who: AccountName, start = "/surveys") {
  const account = accounts[who];
  const headers = { "accept-language": await page.evaluate(() => navigator.languages.join(",")) };
  const login = await page.request.get(start, { headers });
  const action = /<form[^>]*action="([^"]*)"/.exec(await login.text())?.[1]?.replace(/&amp;/g, "&");
  if (!action) throw new Error(`No sign-in form after ${start} (at ${login.url()})`);
  const done = await page.request.post(new URL(action, login.url()).href, {
    headers,
    form: { username: account.username, password: account.password },
  });
  // Where the sign-in ends is the test's to check (the 403 page for the outsider); a refused login is not.
  expect(await done.text(), `sign-in as ${who}`).not.toContain('id="login-error"');
  await page.goto(done.url());
}

/**
 * Switches the language by the header's first button of that name, and waits until the page shows it: the
 * switch is a form sent to the server, and an address opened before it answered would cancel it (and leave
 * the person's saved language as it was for the tests after).
 */
/** Waits until the page's scripts have started (e2e/test.ts). */
export async function scriptsStarted(page: Page) {
  await pageStarted(page, 20_000);
}

export async function chooseLanguage(page: Page, name: "English" | "Deutsch") {
  await page.getByRole("button", { name }).first().click();
  await expect(page.locator("html")).toHaveAttribute("lang", name === "English" ? "en-US" : "de-DE");
}

/** Fills and sends the provider's login page that is showing now. */
export async function fillLogin(page: Page, who: AccountName) {
  const account = accounts[who];
  await expect(page.locator("#username")).toBeVisible();
  await page.locator("#username").fill(account.username);
  await page.locator("#password").fill(account.password);
  await page.locator("button[type=submit]").click();
}

/** Opens the SQLite database of the current test's server, for checks and for ending a session from outside. */
export function openDatabase() {
  return new Database(path.join(dataDir(), "survey.sqlite"));
}

/**
 * A survey's row in the list, by its title as stored (the row shows it with soft hyphens in its long words, which
 * text matching would trip over).
 */
export function surveyRow(page: Page, title: string) {
  return page.locator(`[data-testid=survey-row][data-title=${JSON.stringify(title)}]`);
}

/**
 * Picks up a sortable item by keyboard, as a person does: focus its handle, Space; the handle then says it
 * is pressed. One timer of the page's own lets the list's drawing of the pick-up finish first.
 */
export async function pickUp(page: Page, handle: Locator) {
  await handle.focus();
  await page.keyboard.press("Space");
  await expect(handle).toHaveAttribute("aria-pressed", "true");
  await page.evaluate(() => new Promise((listening) => setTimeout(listening, 0)));
}

/**
 * Waits for a drag-and-drop list to say `text` (its live region, read by screen readers). When it does not,
 * the failure names what the lists said instead and where the page was scrolled: a wrong position, a
 * cancelled drag and a move that never happened fail differently.
 */
export async function expectAnnounced(page: Page, text: string) {
  try {
    await expect(page.getByText(text)).toBeAttached();
  } catch (error) {
    const state = await page.evaluate(() => ({
      said: [...document.querySelectorAll("[id^=DndLiveRegion]")].map((e) => e.textContent).filter(Boolean),
      pressed: [...document.querySelectorAll("[aria-pressed=true]")].map((e) => e.getAttribute("aria-label")),
      focused: document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.tagName,
      scrollY: window.scrollY,
    }));
    throw new Error(`"${text}" was not said; the page: ${JSON.stringify(state)}`, { cause: error });
  }
}

/**
 * Holds the page's scripts and styles back (a slow device) until the returned function lets them go; with
 * `scriptsOnly`, the scripts alone, so the page is drawn with its styles as a person sees it before its
 * scripts ran. Only with the service worker blocked (`test.use({ serviceWorkers: "block" })`): a worker would
 * answer them from its cache.
 */
export async function holdScripts(page: Page, scriptsOnly = false): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.unrouteAll();
  await page.route(scriptsOnly ? /\/assets\/.*\.js$/ : "**/assets/**", async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
