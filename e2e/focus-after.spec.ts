import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { api, publishedSurvey } from "./api";
import { chooseLanguage, scriptsStarted, signIn, surveyRow } from "./support";

// Where focus goes after each action that once dropped it on the page's body (decision 039): where the
// person's work goes on.

const vitals = path.join(import.meta.dirname, "..", "tests", "api", "fhir-questionnaires", "vitals.json");

/** What has focus, in words for a failure's message: never the page's body. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    return !el || el === document.body ? "body" : `${el.tagName.toLowerCase()} ${el.textContent?.trim() ?? ""}`;
  });
}

async function draft(page: Page, title: string) {
  return (await api<{ Id: number }>(page, "POST", "/surveys", { Title: `${title} ${Date.now()}` })).Id;
}

test("creating a survey, by its button and by import, puts focus on the new survey's title", async ({ page }) => {
  await signIn(page, "editor");
  await page.getByRole("button", { name: "Umfrage hinzufügen" }).press("Enter");
  await expect(page).toHaveURL(/\/survey\/\d+\/edit#start$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
  await expect(page.getByTestId("survey-title")).toBeFocused();

  await page.goto("/surveys");
  await page.getByRole("link", { name: "Importieren" }).press("Enter");
  const dialog = page.getByRole("dialog", { name: "FHIR-Fragebogen importieren" });
  await dialog.getByLabel("Fragebogen-Datei (FHIR R4, JSON)").setInputFiles(vitals);
  await dialog.getByRole("button", { name: "Datei prüfen" }).click();
  await expect(dialog.getByRole("button", { name: "Entwurfsumfrage anlegen" })).toBeFocused();
  await page.keyboard.press("Enter");
  // What was not kept is said once more; the survey opens from there.
  await expect(dialog.getByRole("link", { name: "Entwurfsumfrage öffnen" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/survey\/\d+\/edit#start$/);
  await expect(page.getByTestId("survey-title")).toHaveText("Vital signs follow-up");
  await expect(page.getByTestId("survey-title")).toBeFocused();
});

test("Enter and Escape in the title leave focus on its edit button", async ({ page }) => {
  await signIn(page, "editor");
  const id = await draft(page, "Fokus Titel");
  await page.goto(`/survey/${id}/edit#start`);
  const toggle = page.getByRole("button", { name: "Titel bearbeiten" });
  const field = page.getByLabel("Titel", { exact: true });
  await toggle.press("Enter");
  await expect(field).toBeFocused();
  await field.fill("Fokus Titel, neu");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("survey-title")).toHaveText("Fokus Titel, neu");
  expect(await focused(page)).not.toBe("body");
  await expect(toggle).toBeFocused();
  await expect(page.getByTestId("title-save-state")).toHaveText("Gespeichert");
  await expect(toggle).toBeFocused();

  // Again from the button, by keyboard: Escape drops the edit, and focus stays on the button.
  await page.keyboard.press("Enter");
  await expect(field).toBeFocused();
  await field.fill("verworfen");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("survey-title")).toHaveText("Fokus Titel, neu");
  await expect(toggle).toBeFocused();
});

test("Space on 'Vorabfragen aktiviert' keeps focus on the box while it is saved", async ({ page }) => {
  await signIn(page, "editor");
  const id = await draft(page, "Fokus Vorabfragen");
  await page.goto(`/survey/${id}/edit#preliminary`);
  await scriptsStarted(page);
  const box = page.getByRole("checkbox", { name: "Vorabfragen aktiviert" });
  const before = await box.isChecked();
  await box.focus();
  await page.keyboard.press("Space");
  await expect(
    page.getByText(before ? "Die Vorabfragen sind deaktiviert." : "Die Vorabfragen sind aktiviert."),
  ).toBeVisible();
  await expect(box).toBeChecked({ checked: !before });
  await expect(box).toBeFocused();
  // And back, by the same key.
  await page.keyboard.press("Space");
  await expect(box).toBeChecked({ checked: before });
  await expect
    .poll(
      async () => (await api<{ IsPatientFormEnabled: boolean }>(page, "GET", `/surveys/${id}`)).IsPatientFormEnabled,
    )
    .toBe(before);
  await expect(box).toBeFocused();
});

test("confirming 'Veröffentlichung zurückziehen' leaves focus on the survey's title, not the page's body", async ({
  page,
}) => {
  await signIn(page, "admin");
  const title = `Fokus Zurückziehen ${Date.now()}`;
  const id = await publishedSurvey(page, title, [{ Title: "Befinden", Type: "FreeText" }]);
  await page.goto(`/survey/${id}/edit`);
  await page.getByRole("link", { name: "Veröffentlichung zurückziehen" }).press("Enter");
  const dialog = page.getByRole("dialog", { name: "Veröffentlichung zurückziehen" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Veröffentlichung zurückziehen" }).press("Enter");
  await expect(page.getByText("Die Umfrage ist wieder ein Entwurf.")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeFocused();
});

test("Escape on the list's archive and clone dialogs gives focus back to the row's menu button", async ({ page }) => {
  await signIn(page, "admin");
  const title = `Fokus Archiv ${Date.now()}`;
  await api(page, "POST", "/surveys", { Title: title });
  await page.goto("/surveys");
  const row = surveyRow(page, title);
  const menu = row.locator("summary");
  for (const [item, name] of [
    ["Archivieren", "Umfrage archivieren"],
    ["Klonen", "Umfrage klonen"],
  ] as const) {
    await menu.press("Enter");
    await row.getByRole("link", { name: item }).press("Enter");
    const dialog = page.getByRole("dialog", { name });
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/surveys$/);
    await expect(menu).toBeFocused();
  }
});

test("in English: the title's Enter and the preliminary switch's Space keep focus where the work goes on", async ({
  page,
}) => {
  await signIn(page, "editor");
  await chooseLanguage(page, "English");
  try {
    const id = await draft(page, "Focus title");
    await page.goto(`/survey/${id}/edit#start`);
    const toggle = page.getByRole("button", { name: "Edit title" });
    await toggle.press("Enter");
    await page.getByLabel("Title", { exact: true }).fill("Focus title, new");
    await page.keyboard.press("Enter");
    await expect(toggle).toBeFocused();
    await page.goto(`/survey/${id}/edit#preliminary`);
    const box = page.getByRole("checkbox", { name: "Preliminary questions enabled" });
    await box.focus();
    await page.keyboard.press("Space");
    await expect(page.getByText(/The preliminary questions are (en|dis)abled\./)).toBeVisible();
    await expect(box).toBeFocused();
  } finally {
    await page.goto("/surveys");
    await chooseLanguage(page, "Deutsch");
  }
});

test("in English: 'Next category' puts focus on the next category's heading, then its first question", async ({
  page,
}) => {
  await signIn(page, "admin");
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Focus categories ${Date.now()}` });
  for (const [category, question] of [
    ["Part 1", "First question"],
    ["Part 2", "Second question"],
  ]) {
    const c = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: category });
    await api(page, "POST", "/questions", { SurveyId: survey.Id, CategoryId: c.Id, Title: question, Type: "FreeText" });
  }
  await api(page, "POST", `/surveys/${survey.Id}/approve`);
  await chooseLanguage(page, "English");
  try {
    await page.goto(`/survey/${survey.Id}`);
    await page
      .getByLabel(/patient/i)
      .first()
      .fill("FOCUS_EN");
    await page.getByTestId("start-button").click();
    await expect(page).toHaveURL(/\/fill\/FOCUS_EN/);
    await page.getByRole("button", { name: "Next category" }).click();
    await expect(page.getByRole("heading", { level: 2, name: "Part 2" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("textbox", { name: "Second question" })).toBeFocused();
  } finally {
    await page.goto("/surveys");
    await chooseLanguage(page, "Deutsch");
  }
});
