import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import puppeteer, { type Browser, type ElementHandle, type Page } from "puppeteer-core";

/**
 * Debian's Firefox ESR driven by Puppeteer over WebDriver BiDi (Playwright cannot drive the stock browser):
 * a fresh profile each launch, headless, German, without an HTTP cache (what works offline must come from
 * the service worker). Every page error, console error and Content-Security-Policy violation is kept.
 */

export const FIREFOX = "/usr/bin/firefox-esr";
const TIMEOUT = 20_000;

export interface Firefox {
  browser: Browser;
  page: Page;
  /** Page errors, console errors and Content-Security-Policy violations, in order. */
  problems: string[];
  close(): Promise<void>;
}

export async function launchFirefox(): Promise<Firefox> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "firefox-profile-"));
  const browser = await puppeteer.launch({
    browser: "firefox",
    executablePath: FIREFOX,
    protocol: "webDriverBiDi",
    headless: true,
    userDataDir: profile,
    defaultViewport: { width: 1366, height: 900 },
    // The date picker's popup belongs to the browser's own window: the tests reach it with system access.
    args: ["--remote-allow-system-access"],
    extraPrefsFirefox: {
      "intl.accept_languages": "de-DE, de",
      "browser.cache.disk.enable": false,
      "browser.cache.memory.enable": false,
    },
  });
  // A tab of its own: in the tab the browser starts with, headless Firefox does not turn Enter or Space on a
  // button into a click.
  const first = await browser.pages();
  const page = await browser.newPage();
  for (const p of first) await p.close();
  page.setDefaultTimeout(TIMEOUT);
  await page.setCacheEnabled(false);
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${(error as Error).message ?? String(error)}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  await page.evaluateOnNewDocument(pageHelpers);
  // An address opens as a person opens it: the next key or click waits until the page has come alive.
  const goto = page.goto.bind(page);
  page.goto = async (...args: Parameters<Page["goto"]>) => {
    const response = await goto(...args);
    await pageStarted(page);
    return response;
  };
  return {
    browser,
    page,
    problems,
    async close() {
      await browser.close().catch(() => undefined);
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Runs in every page before its own scripts: reports CSP violations and offers the tests' finders. */
function pageHelpers() {
  window.addEventListener(
    "securitypolicyviolation",
    (e) => console.error(`Content-Security-Policy violation: ${e.violatedDirective} ${e.blockedURI}`),
    true,
  );
  const norm = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();
  const shown = (el: Element) => (el as HTMLElement).getClientRects().length > 0;
  const finders = {
    norm,
    /** A question (or preliminary question) by its own title, not a sub-question's. */
    question(title: string) {
      return Array.from(
        document.querySelectorAll('[data-testid="fill-question"], [data-testid="preliminary-question"]'),
      ).find(
        (q) =>
          norm(
            q.querySelector(":scope > .fill-question__head > .fill-question__title, :scope > legend")?.firstChild
              ?.textContent,
          ) === title,
      );
    },
    /** The label whose text is `text` inside `root` (a choice, a marker). */
    label(root: Element | undefined, text: string) {
      return Array.from(root?.querySelectorAll("label") ?? []).find((l) => norm(l.textContent) === text);
    },
    /** A shown button or link by its text or accessible name (its aria-label, else its title). */
    control(text: string, root: ParentNode = document) {
      return Array.from(root.querySelectorAll("button, a, summary")).find(
        (el) =>
          shown(el) &&
          (norm(el.textContent) === text || (el.getAttribute("aria-label") ?? el.getAttribute("title")) === text),
      );
    },
    /** Whether a shown element holds this text. */
    hasText(text: string, selector = "body") {
      return Array.from(document.querySelectorAll(selector)).some(
        (el) => shown(el) && norm(el.textContent).includes(text),
      );
    },
  };
  (window as unknown as { __ff: typeof finders }).__ff = finders;
}

export type Finders = {
  norm(s: string | null | undefined): string;
  question(title: string): Element | undefined;
  label(root: Element | undefined, text: string): HTMLLabelElement | undefined;
  control(text: string, root?: ParentNode): Element | undefined;
  hasText(text: string, selector?: string): boolean;
};
declare global {
  interface Window {
    __ff: Finders;
  }
}

/**
 * Waits until `find`, run in the page (where `window.__ff` holds the finders), gives an element, and hands it
 * over. `find` is sent to the page as it is written: it may use only its arguments and the page's globals.
 */
export async function element<A extends unknown[]>(
  page: Page,
  what: string,
  find: (...args: A) => Element | null | undefined,
  ...args: A
): Promise<ElementHandle<Element>> {
  try {
    const handle = await page.waitForFunction(
      find as (...a: unknown[]) => Element | null | undefined,
      { timeout: TIMEOUT },
      ...args,
    );
    const el = handle.asElement();
    if (!el) throw new Error("not an element");
    return el as ElementHandle<Element>;
  } catch (error) {
    throw new Error(`${what}: not found at ${page.url()} (${(error as Error).message})`);
  }
}

/**
 * Waits until the page's scripts have started and run their first effects (app/root.tsx marks the document;
 * they start after the first paint, decision 059), so that keys and clicks reach the page's handlers and not
 * the server-drawn form before them. A page without the app's scripts counts as started; one that never
 * comes alive (offline without its scripts) is left to the test after a while.
 */
export async function pageStarted(page: Page, timeout = 10_000) {
  await page
    .waitForFunction(() => !("__remixContext" in window) || document.documentElement.hasAttribute("data-started"), {
      timeout,
    })
    .catch(() => undefined);
}

/** Waits until `check`, run in the page like `find` above, is true. */
export async function until<A extends unknown[]>(
  page: Page,
  what: string,
  check: (...args: A) => boolean,
  ...args: A
): Promise<void> {
  try {
    await page.waitForFunction(check as (...a: unknown[]) => boolean, { timeout: TIMEOUT }, ...args);
  } catch (error) {
    throw new Error(`${what}: not so at ${page.url()} (${(error as Error).message})`);
  }
}

interface BidiConnection {
  send(method: string, params: object): Promise<{ result: unknown }>;
}
interface TreeContext {
  context: string;
  children?: TreeContext[] | null;
  "moz:name"?: string;
}

/**
 * The browser's own side (its window and popups, with system access), where page scripts and BiDi's input
 * actions cannot reach. Puppeteer's BiDi browser keeps its session's connection; two raw commands suffice.
 */
function chromeSide(browser: Browser) {
  const connection = (browser as unknown as { connection: BidiConnection }).connection;
  const contexts = async () => {
    const { result } = await connection.send("browsingContext.getTree", { "moz:scope": "chrome" });
    const walk = (list: TreeContext[]): TreeContext[] => list.flatMap((c) => [c, ...walk(c.children ?? [])]);
    return walk((result as { contexts: TreeContext[] }).contexts);
  };
  const evaluate = async (context: string, expression: string) => {
    const { result } = await connection.send("script.evaluate", {
      expression,
      target: { context },
      awaitPromise: true,
    });
    const outcome = result as { type: string; result?: { value?: unknown }; exceptionDetails?: { text: string } };
    if (outcome.type !== "success") throw new Error(`in the browser's window: ${outcome.exceptionDetails?.text}`);
    return outcome.result?.value;
  };
  return { contexts, evaluate };
}

/**
 * Puts the whole browser offline, or back online, as Firefox itself does when the system reports no network
 * ("Work Offline"): navigator.onLine follows, with its events. (BiDi's offline emulation of one tab makes
 * Firefox fail a reload with NS_ERROR_OFFLINE before the service worker may answer it.)
 */
export async function setBrowserOffline(browser: Browser, offline: boolean) {
  const chrome = chromeSide(browser);
  const [window] = await chrome.contexts();
  const now = await chrome.evaluate(
    window!.context,
    `Services.io.manageOfflineStatus = false; Services.io.offline = ${offline}; Services.io.offline`,
  );
  if (now !== offline) throw new Error(`the browser did not go ${offline ? "offline" : "online"}`);
}

/**
 * The date picker's popup. Firefox draws it in its own window (a frame of the browser's chrome): the test
 * finds that frame and presses keys there, in the popup's own document, as a person's keyboard would.
 */
export async function datePickerPopup(browser: Browser) {
  const { contexts, evaluate } = chromeSide(browser);
  const frame = async () => (await contexts()).find((c) => c["moz:name"] === "DateTimePickerPanelPopupFrame")?.context;
  /** Waits until the popup shows its calendar with a day focused; returns that day's number. */
  const focusedDay = async (): Promise<string> => {
    const deadline = Date.now() + TIMEOUT;
    while (Date.now() < deadline) {
      const context = await frame();
      const day = context
        ? await evaluate(
            context,
            `document.activeElement?.localName === "td" && document.hasFocus() ? document.activeElement.textContent : ""`,
          )
        : "";
      if (typeof day === "string" && day) return day;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error("the date picker's popup did not open with a day focused");
  };
  /** Presses a key on the popup's focused day (Enter takes it, Escape closes the popup). */
  const press = async (key: "Enter" | "Escape") => {
    await focusedDay();
    const context = (await frame())!;
    const keyCode = key === "Enter" ? 13 : 27;
    await evaluate(
      context,
      `(() => { const day = document.activeElement; for (const type of ["keydown", "keyup"]) day.dispatchEvent(new KeyboardEvent(type, { key: "${key}", code: "${key}", keyCode: ${keyCode}, bubbles: true })); })()`,
    );
  };
  return { focusedDay, press };
}
