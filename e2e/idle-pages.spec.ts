import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { signIn } from "./support";

// A page left open through a shift does nothing while nobody touches it: no drawing again and again, which
// on a low-power tablet is a warm device and a flat battery, and starves the page's own updates.

/**
 * The page's script time (ms) over `ms` of nobody touching it, from Chromium's own counters. Idle begins once
 * the page has done what it does after loading (keeping copies for offline use, the service worker's warm-up:
 * app/offline/after-load.ts): no request for half a second, then a moment the browser itself calls idle. On a
 * busy machine that start-up work, on a browser's first visit, took 65 ms of the two seconds; it ends, a page
 * drawn again and again does not.
 */
async function scriptTimeWhileIdle(page: Page, ms = 2000) {
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => new Promise((done) => requestIdleCallback(done, { timeout: 2000 })));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const read = async () =>
    (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "ScriptDuration")?.value ?? 0;
  const before = await read();
  await page.waitForTimeout(ms);
  const spent = ((await read()) - before) * 1000;
  await cdp.detach();
  return spent;
}

/** Script time allowed over two idle seconds: the connection check and timers, far below a page drawn again 60 times a second. */
const IDLE_BUDGET_MS = 60;

test("the editor with a field whose save was refused does nothing while it waits", async ({ page }) => {
  await signIn(page, "editor");
  await page.getByRole("button", { name: "Umfrage hinzufügen" }).click();
  await expect(page).toHaveURL(/\/survey\/(\d+)\/edit#start$/);
  const id = Number(/\/survey\/(\d+)\//.exec(page.url())?.[1]);
  // Idle once drawn: the address changes before the editor has made the intro's and the outro's text
  // editors (a profile of the window after the address showed their set-up in it): the page starting.
  await expect(page.locator(".ProseMirror")).toHaveCount(2);
  expect(await scriptTimeWhileIdle(page)).toBeLessThan(IDLE_BUDGET_MS);

  // Archived meanwhile (as from another tab): the typed description is refused and stays marked unsaved.
  await page.request.post(`/api/surveys/${id}/archive`, { headers: { origin: new URL(page.url()).origin } });
  const description = page.getByLabel("Beschreibung");
  await description.fill("Nachsorge");
  await description.blur();
  await expect(page.getByTestId("description-save-state")).toHaveText("Nicht gespeichert – Speichern fehlgeschlagen");
  expect(await scriptTimeWhileIdle(page)).toBeLessThan(IDLE_BUDGET_MS);
});

test("the list, a case being filled and its statistics do nothing while nobody touches them", async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, "admin");
  expect(await scriptTimeWhileIdle(page), "the survey list").toBeLessThan(IDLE_BUDGET_MS);

  // A new case of the demo wound survey: its start, then its preliminary questions.
  await page.goto("/survey/7");
  await page.locator("#patient-id").fill(`IDLE_${Date.now()}`);
  await page.getByRole("button", { name: "Neue Umfrage starten" }).click();
  await expect(page).toHaveURL(/\/fill\//);
  expect(await scriptTimeWhileIdle(page), "the fill page's start").toBeLessThan(IDLE_BUDGET_MS);
  await page.getByRole("link", { name: "Speichern und weiter" }).click();
  await expect(page.getByRole("group").first()).toBeVisible();
  expect(await scriptTimeWhileIdle(page), "the preliminary page").toBeLessThan(IDLE_BUDGET_MS);

  await page.goto("/survey/7/statistics");
  await expect(page.getByRole("tab").first()).toBeVisible();
  expect(await scriptTimeWhileIdle(page), "the statistics").toBeLessThan(IDLE_BUDGET_MS);
});
