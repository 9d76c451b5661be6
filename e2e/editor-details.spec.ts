import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { accounts, chooseLanguage, signIn } from "./support";

/** The editor's smaller rough edges, at desktop and phone widths. */

async function fillLogin(page: Page) {
  await page.locator("#username").fill(accounts.admin.username);
  await page.locator("#password").fill(accounts.admin.password);
  await page.locator("button[type=submit]").click();
}

test("a deep link to an editor tab or a statistics tab keeps its tab through sign-in", async ({ page }) => {
  await page.goto("/survey/1/edit#questionnaire");
  await expect(page.locator("#username")).toBeVisible();
  await fillLogin(page);
  await expect(page).toHaveURL(/\/survey\/1\/edit#questionnaire$/);
  await expect(page.getByRole("tab", { name: /Fragebogen/ })).toHaveAttribute("aria-selected", "true");

  // A returning person's browser has the service worker, which passes page loads on to the server.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
  await page.context().clearCookies();
  await page.goto("/survey/1/statistics#graphs");
  await fillLogin(page);
  await expect(page).toHaveURL(/\/survey\/1\/statistics#graphs$/);
  await expect(page.getByRole("tab", { name: "Diagramme" })).toHaveAttribute("aria-selected", "true");
});

test("a fresh load of a tab keeps the title and Save in view; on a phone the chosen tab shows in the tab row", async ({
  page,
}) => {
  await signIn(page, "admin");
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Tabs ${Date.now()}` });
  await page.goto(`/survey/${survey.Id}/edit#questionnaire`);
  await expect(page.getByRole("tab", { name: /Fragebogen/ })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("survey-title")).toBeInViewport();
  await expect(page.getByRole("button", { name: "Speichern", exact: true })).toBeInViewport();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/survey/${survey.Id}/edit#outro`);
  const tab = page.getByRole("tab", { name: "Abschluss" });
  await expect(tab).toHaveAttribute("aria-selected", "true");
  const list = await page.getByRole("tablist").boundingBox();
  const box = await tab.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(list!.x - 1);
  expect(box!.x + box!.width).toBeLessThanOrEqual(list!.x + list!.width + 1);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
  expect(wide).toBe(false);

  // The link pop-up of the text editor stays on the screen.
  await page.goto(`/survey/${survey.Id}/edit#intro`);
  await page.locator(".ProseMirror").first().click();
  await page.getByRole("button", { name: "Link einfügen" }).click();
  const panel = page.locator(".rt-link");
  await expect(panel).toBeVisible();
  const p = (await panel.boundingBox())!;
  expect(p.x).toBeGreaterThanOrEqual(0);
  expect(p.x + p.width).toBeLessThanOrEqual(390);
});

test("titles: the category modal takes focus, a blank title says so, saved categories say so", async ({ page }) => {
  await signIn(page, "admin");
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: "Titel bleibt" });
  await page.goto(`/survey/${survey.Id}/edit#questionnaire`);
  await page.getByRole("button", { name: "+ Kategorie hinzufügen" }).click();
  const modal = page.getByRole("dialog", { name: "Kategorie hinzufügen" });
  await expect(modal.getByLabel("Titel der Kategorie")).toBeFocused();
  await modal.getByRole("button", { name: "Speichern" }).click();
  await expect(modal.getByText("Der Titel darf nicht leer sein.")).toBeVisible();
  await modal.getByLabel("Titel der Kategorie").fill("Teil 1");
  await modal.getByRole("button", { name: "Speichern" }).click();
  await expect(page.getByText("Die Kategorie wurde hinzugefügt.")).toBeVisible();

  await page.getByRole("button", { name: "Titel bearbeiten" }).click();
  await page.getByLabel("Titel", { exact: true }).fill("   ");
  await page.getByLabel("Titel", { exact: true }).press("Enter");
  await expect(page.getByText("Der Titel darf nicht leer sein.")).toBeVisible();
  await expect(page.getByTestId("survey-title")).toHaveText("Titel bleibt");
  expect((await api<{ Title: string }>(page, "GET", `/surveys/${survey.Id}`)).Title).toBe("Titel bleibt");
});

test("the list loads only the common texts; the editor brings its own, in the language chosen meanwhile", async ({
  page,
}) => {
  const texts: string[] = [];
  page.on("request", (request) => {
    const name = /\/assets\/(common|authoring)-[\w-]+\.json$/.exec(request.url());
    if (name) texts.push(name[1]!);
  });
  await signIn(page, "admin");
  await expect(page.getByTestId("greeting")).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(texts.filter((t) => t === "authoring")).toEqual([]);
  await chooseLanguage(page, "English");
  try {
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your surveys");

    const row = page.getByTestId("survey-row").first();
    await row.locator("summary").click();
    await row.getByRole("link", { name: "Edit survey" }).click();
    await expect(page).toHaveURL(/\/edit$/);
    await expect(page.getByRole("tab", { name: /Questionnaire/ })).toBeVisible();
    await expect(page.getByRole("button", { name: "Preview" })).toBeVisible();
    expect(texts).toContain("authoring");
  } finally {
    // The language is the account's: the next tests sign in as this person in German.
    await chooseLanguage(page, "Deutsch");
  }
});
