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
