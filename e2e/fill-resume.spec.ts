import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { openCase, question, surveyWith } from "./fill-support";
import { download, goOffline, offlineRig, signInAt, startCase } from "./offline-support";
import { signIn } from "./support";

const parts = {
  intro: "Willkommen zur Verlaufskontrolle",
  preliminary: [
    { Title: "Geschlecht", answers: ["weiblich", "männlich"] },
    { Title: "Altersgruppe", answers: ["unter 65", "65 und älter"] },
  ],
  categories: [
    { Title: "Teil 1", questions: [{ Title: "Befinden", Type: "SingleSelection", answers: ["gut", "schlecht"] }] },
    { Title: "Teil 2", questions: [{ Title: "Schlaf", Type: "SingleSelection", answers: ["ruhig", "gestört"] }] },
  ],
};

const categoryTitle = (page: Page) => page.locator(".fill-category-title");
const settled = (page: Page) => expect(page.getByTestId("fill")).not.toHaveAttribute("aria-busy", "true");

test("a reopened case continues where it was left, page and category, not at the intro", async ({ page }) => {
  await signIn(page, "admin");
  const id = await surveyWith(page, `Fortsetzen ${Date.now()}`, parts);

  // Left on the questionnaire, in its second category.
  await openCase(page, id, "RES_1");
  await expect(page.getByText(parts.intro)).toBeVisible();
  await page.getByRole("link", { name: "Speichern und weiter" }).click();
  await page.getByRole("group", { name: "Geschlecht" }).getByLabel("weiblich").check();
  await page.getByRole("group", { name: "Altersgruppe" }).getByLabel("unter 65").check();
  await settled(page);
  await page.getByRole("button", { name: "Weiter" }).click();
  await question(page, "Befinden").getByLabel("gut").check();
  await settled(page);
  await page.getByTestId("category-link").filter({ hasText: "Teil 2" }).click();
  await expect(categoryTitle(page)).toHaveText("Teil 2");
  await page.getByRole("link", { name: "Umfragen – zur Übersicht" }).click();
  await expect(page.getByTestId("greeting")).toBeVisible();
  await openCase(page, id, "RES_1");
  await expect(categoryTitle(page)).toHaveText("Teil 2");
  await expect(question(page, "Schlaf")).toBeVisible();
  await expect(page.getByText(parts.intro)).toHaveCount(0);

  // Left on the preliminary page with one answer: the save there says what it does.
  await openCase(page, id, "RES_2");
  await page.getByRole("link", { name: "Speichern und weiter" }).click();
  await page.getByRole("group", { name: "Geschlecht" }).getByLabel("männlich").check();
  await settled(page);
  await page.getByRole("button", { name: "Speichern" }).click();
  const save = page.getByRole("dialog", { name: "Speichern und später fortsetzen?" });
  await expect(save).toContainText("der Fall bleibt offen");
  await save.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByText("Ihre Angaben wurden gespeichert.")).toBeVisible();
  await openCase(page, id, "RES_2");
  await expect(page.getByRole("group", { name: "Geschlecht" }).getByLabel("männlich")).toBeChecked();
  await expect(page.getByRole("group", { name: "Altersgruppe" })).toBeVisible();

  // From the start page's list of open cases too.
  await page.goto(`/survey/${id}`);
  await page.getByTestId("latest-response").filter({ hasText: "RES_1" }).getByRole("link").click();
  await expect(categoryTitle(page)).toHaveText("Teil 2");

  // Another device (nothing kept there) goes on where the answers say: the last category with an answer.
  await page.evaluate(async () => {
    for (const { name } of await indexedDB.databases()) if (name?.endsWith("-places")) indexedDB.deleteDatabase(name);
  });
  await page.goto(`/survey/${id}/fill/RES_1`);
  await expect(categoryTitle(page)).toHaveText("Teil 1");
  await expect(page.getByText(parts.intro)).toHaveCount(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a reopened case goes on where its answers are: the questionnaire at its last answered category", async ({
    page,
    browser,
  }) => {
    const setup = await browser.newContext();
    const admin = await setup.newPage();
    await signIn(admin, "admin");
    const id = await surveyWith(admin, `Fortsetzen ohne JS ${Date.now()}`, parts);
    await setup.close();

    await signIn(page, "user");
    await openCase(page, id, "RES_NOJS");
    await expect(page.getByText(parts.intro)).toBeVisible();
    await page.getByRole("link", { name: "Speichern und weiter" }).click();
    await page.getByRole("group", { name: "Geschlecht" }).getByLabel("weiblich").check();
    await page.getByRole("button", { name: "Speichern" }).click();
    // Reopened with one preliminary answer: the preliminary page.
    await openCase(page, id, "RES_NOJS");
    await expect(page.getByRole("group", { name: "Geschlecht" }).getByLabel("weiblich")).toBeChecked();
    await page.getByRole("group", { name: "Altersgruppe" }).getByLabel("unter 65").check();
    await page.getByRole("button", { name: "Weiter" }).click();
    await page.getByRole("button", { name: "Nächste Kategorie" }).click();
    await question(page, "Schlaf").getByLabel("ruhig").check();
    await page.getByRole("button", { name: "Speichern" }).click();
    await expect(question(page, "Schlaf").getByLabel("ruhig")).toBeChecked();

    await openCase(page, id, "RES_NOJS");
    await expect(categoryTitle(page)).toHaveText("Teil 2");
    await expect(question(page, "Schlaf").getByLabel("ruhig")).toBeChecked();
  });
});

test("offline, a case reopened on the device continues where it was left", async () => {
  test.setTimeout(150_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "admin");
    const title = `Fortsetzen offline ${Date.now()}`;
    const id = await surveyWith(page, title, parts);
    await page.goto(rig.url("/surveys"));
    await download(page, title);
    await goOffline(context, rig.gate);
    await page.goto(rig.url(`/survey/${id}`));
    await startCase(page, "RES_OFF");
    await expect(page.getByTestId("fill-offline-notice")).toBeVisible();
    await page.getByRole("link", { name: "Speichern und weiter" }).click();
    await page.getByRole("group", { name: "Geschlecht" }).getByLabel("weiblich").check();
    await page.getByRole("group", { name: "Altersgruppe" }).getByLabel("unter 65").check();
    await settled(page);
    await page.getByRole("button", { name: "Weiter" }).click();
    await page.getByTestId("category-link").filter({ hasText: "Teil 2" }).click();
    await question(page, "Schlaf").getByLabel("gestört").check();
    await settled(page);

    // The start page opens the kept case again (a reload of the start page, then in the app).
    await page.goto(rig.url(`/survey/${id}`));
    await page
      .getByLabel(/Patienten/)
      .first()
      .fill("RES_OFF");
    await page.getByRole("button", { name: /Neue Umfrage starten|Umfrage öffnen/ }).click();
    await expect(categoryTitle(page)).toHaveText("Teil 2");
    await expect(question(page, "Schlaf").getByLabel("gestört")).toBeChecked();
    // And a reload of the case's address without a page.
    await page.goto(rig.url(`/survey/${id}/fill/RES_OFF`));
    await expect(categoryTitle(page)).toHaveText("Teil 2");
  } finally {
    await rig.dispose(context);
  }
});
