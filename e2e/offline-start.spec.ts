import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { publishedSurvey } from "./api";
import { download, goOffline, goOnline, offlineRig, oneQuestion, signInAt } from "./offline-support";
import { chooseLanguage } from "./support";

/** Opens a survey's start page from the list, in the app, as a person does. */
async function openFromList(page: Page, title: string, fill: string) {
  const row = page.getByTestId("survey-row").filter({ hasText: title });
  await row.locator("summary").click();
  await row.getByRole("link", { name: fill }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
}

test("offline, a start page reached in the app says how long its cases are kept, in German and English", async () => {
  test.setTimeout(180_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "admin");
    const title = `Aufbewahrung offline ${Date.now()}`;
    await publishedSurvey(page, title, oneQuestion, { RetentionMonths: 18 });
    await page.goto(rig.url("/surveys"));
    await download(page, title);

    await goOffline(context, rig.gate);
    await openFromList(page, title, "Umfrage ausfüllen");
    await expect(page.getByTestId("start-retention")).toHaveText(
      "Abgeschlossene Fälle dieser Umfrage werden 18 Monate nach dem Abschluss gelöscht.",
    );

    await goOnline(context, rig.gate);
    await page.goto(rig.url("/surveys"));
    await chooseLanguage(page, "English");
    try {
      await goOffline(context, rig.gate);
      await openFromList(page, title, "Complete survey");
      await expect(page.getByTestId("start-retention")).toHaveText(
        "Closed cases of this survey are erased 18 months after closing.",
      );
    } finally {
      await goOnline(context, rig.gate);
      await page.goto(rig.url("/surveys"));
      await chooseLanguage(page, "Deutsch");
    }
  } finally {
    await rig.dispose(context);
  }
});

test("offline, an id sent on a kept start page before its script ran starts the case on this device once it runs", async () => {
  test.setTimeout(180_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "admin");
    const title = `Früh offline ${Date.now()}`;
    const surveyId = await publishedSurvey(page, title, oneQuestion);
    await page.goto(rig.url("/surveys"));
    await download(page, title);
    await goOffline(context, rig.gate);

    // A slow device: the page draws, and its script starts only when the test lets it (the first paint's entry
    // never comes, and the wait for it is the test's).
    await page.addInitScript(() => {
      const w = window as unknown as { __startNow?: () => void; PerformanceObserver: unknown };
      w.PerformanceObserver = class {
        observe() {}
        disconnect() {}
      };
      const later = window.setTimeout.bind(window);
      window.setTimeout = ((run: () => void, ms?: number, ...rest: unknown[]) => {
        if (ms === 1500 && !w.__startNow) {
          w.__startNow = run;
          return 0;
        }
        return later(run, ms, ...rest);
      }) as typeof window.setTimeout;
    });
    await page.goto(rig.url(`/survey/${surveyId}`), { waitUntil: "commit" });
    // A wristband scanned at once: the id and Enter, before the page's script runs.
    const field = page.getByLabel(/Patienten/).first();
    await field.fill("FRUEH_1");
    await field.press("Enter");
    await expect(field).toHaveValue("FRUEH_1");
    expect(await page.evaluate(() => document.documentElement.hasAttribute("data-started"))).toBe(false);

    await page.evaluate(() => (window as unknown as { __startNow: () => void }).__startNow());
    // The page runs, and the id sent before goes on as if sent now: the case starts on this device.
    await expect(page).toHaveURL(/\/fill\/FRUEH_1/);
    await expect(page.getByTestId("fill-offline-notice")).toBeVisible();
  } finally {
    await rig.dispose(context);
  }
});
