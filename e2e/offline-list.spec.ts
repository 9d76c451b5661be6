import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { publishedSurvey } from "./api";
import { download, fillOffline, goOffline, offlineRig, oneQuestion, signInAt } from "./offline-support";

/** Errors the page reports in the console or throws, other than requests refused while offline. */
function pageErrors(page: Page) {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const text = message.text();
    if (/Failed to load resource|net::ERR_|Failed to fetch/.test(text)) return;
    errors.push(text);
  });
  return errors;
}

test("offline, the kept list shows, filters and opens after in-app navigation as after a reload", async () => {
  test.setTimeout(180_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "admin");
    const stamp = Date.now();
    const kept = `Liste offline ${stamp}`;
    const other = `Nicht geladen ${stamp}`;
    const keptId = await publishedSurvey(page, kept, oneQuestion);
    const otherId = await publishedSurvey(page, other, oneQuestion);
    // The list is opened as a page of its own (not reached in the app) and one survey is downloaded.
    await page.goto(rig.url("/surveys"));
    await download(page, kept);

    await goOffline(context, rig.gate);
    await fillOffline(page, rig.url(`/survey/${keptId}`), "LIST_1", true);
    const rows = page.getByTestId("survey-row");
    const keptRow = rows.filter({ hasText: kept });

    // Back to the list from the confirmation page: the surveys are all there, the kept one can be opened.
    await page.getByRole("link", { name: "Zurück zur Übersicht" }).click();
    await expect(page).toHaveURL(/\/surveys$/);
    await expect(keptRow).toBeVisible();
    await expect(rows.filter({ hasText: other })).toHaveAttribute("aria-disabled", "true");
    await expect(page.getByText("Keine Umfragen", { exact: true })).toHaveCount(0);

    // The title search runs on this device.
    await page.getByLabel("Umfragen durchsuchen").fill(`offline ${stamp}`);
    await expect(page).toHaveURL(/q=offline/);
    await expect(keptRow).toBeVisible();
    await expect(rows).toHaveCount(1);
    await page.getByLabel("Umfragen durchsuchen").fill(`nichts-${stamp}`);
    await expect(page.getByText(`Keine Umfragen zu „nichts-${stamp}“`)).toBeVisible();

    // The logo leads to the whole list again.
    await page.getByRole("link", { name: "Umfragen – zur Übersicht" }).click();
    await expect(keptRow).toBeVisible();
    await expect(rows.filter({ hasText: other })).toBeVisible();

    // The kept survey opens from the list.
    await keptRow.locator("summary").click();
    await keptRow.getByRole("link", { name: "Umfrage ausfüllen" }).click();
    await expect(page).toHaveURL(new RegExp(`/survey/${keptId}$`));
    await expect(page.getByRole("heading", { name: kept })).toBeVisible();

    // A survey not on this device, reached by its address, leads to the list with everything in it.
    await page.goto(rig.url(`/survey/${otherId}`));
    await expect(page).toHaveURL(/\/surveys$/);
    await expect(keptRow).toBeVisible();
    await expect(rows.filter({ hasText: other })).toBeVisible();
    // And the kept one by its address opens its start page.
    await page.goto(rig.url(`/survey/${keptId}`));
    await expect(page.getByRole("heading", { name: kept })).toBeVisible();
  } finally {
    await rig.dispose(context);
  }
});

test("the archive opened offline after a visit online says it is not available, without errors", async () => {
  test.setTimeout(120_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "admin");
    const title = `Archiv offline ${Date.now()}`;
    await publishedSurvey(page, title, oneQuestion);
    await page.goto(rig.url("/surveys"));
    await download(page, title);
    await page.goto(rig.url("/survey-archives"));
    await expect(page.getByRole("heading", { name: "Archiv" })).toBeVisible();
    await page.waitForLoadState("networkidle");

    await goOffline(context, rig.gate);
    const errors = pageErrors(page);
    await page.goto(rig.url("/survey-archives"));
    await expect(page).toHaveURL(/\/survey-archives$/);
    await expect(page.getByText("Das Archiv ist offline nicht verfügbar.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Archiv verlassen" })).toBeVisible();
    await page.waitForTimeout(1000);
    expect(errors).toEqual([]);
    await page.getByRole("link", { name: "Archiv verlassen" }).click();
    await expect(page.getByTestId("survey-row").filter({ hasText: title })).toBeVisible();
  } finally {
    await rig.dispose(context);
  }
});
