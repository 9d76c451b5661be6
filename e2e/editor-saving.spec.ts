import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { expectNoSeriousViolations } from "./axe";
import { signIn } from "./support";

/**
 * One saving model in the editor: fields save themselves (the title when it is left, the start tab's
 * fields, the texts, the questionnaire), the period with the Save button, and nothing is lost silently:
 * an unsaved period is marked and the page asks before it is left; Escape drops an inline edit.
 */

async function newSurvey(page: Page, title: string) {
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: title });
  await page.goto(`/survey/${survey.Id}/edit`);
  await expect(page.getByTestId("survey-title")).toHaveText(title);
  return survey.Id;
}

/**
 * Whether the browser would ask before the page is left. The page's guard follows what is unsaved a moment
 * after the screen does (in React's effects, after the paint), so the tests poll it.
 */
const beforeUnloadAsks = (page: Page) =>
  page.evaluate(() => {
    const event = new Event("beforeunload", { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  });

test("Escape drops an edit of the title, Enter and leaving the field save it", async ({ page }) => {
  await signIn(page, "admin");
  const id = await newSurvey(page, "Titel vorher");
  await page.getByRole("button", { name: "Titel bearbeiten" }).click();
  await page.getByLabel("Titel", { exact: true }).fill("Verworfen");
  await page.getByLabel("Titel", { exact: true }).press("Escape");
  await expect(page.getByTestId("survey-title")).toHaveText("Titel vorher");
  // Focus goes elsewhere: still nothing saved.
  await page.getByRole("tab", { name: "Start" }).click();
  await page.reload();
  await expect(page.getByTestId("survey-title")).toHaveText("Titel vorher");
  expect((await api<{ Title: string }>(page, "GET", `/surveys/${id}`)).Title).toBe("Titel vorher");

  await page.getByRole("button", { name: "Titel bearbeiten" }).click();
  await page.getByLabel("Titel", { exact: true }).fill("Titel nachher");
  const reread = page.waitForResponse((r) => /\/edit\.data(\?|$)/.test(r.url()) && r.request().method() === "GET");
  await page.getByLabel("Titel", { exact: true }).press("Enter");
  await expect
    .poll(async () => (await api<{ Title: string }>(page, "GET", `/surveys/${id}`)).Title)
    .toBe("Titel nachher");
  // The field says it is saved, and still says so once the page has read its data again with the new title
  // (the header was once drawn anew then, and the status went blank after "Wird gespeichert …").
  await reread;
  await expect(page.getByTestId("title-save-state")).toHaveText("Gespeichert");
  await expect(page.getByTestId("survey-title")).toHaveText("Titel nachher");
});

test("a changed period is marked unsaved and the page asks before it is left; saved, it leaves freely", async ({
  page,
}) => {
  await signIn(page, "admin");
  const id = await newSurvey(page, "Zeitraum-Test");
  const start = page.getByLabel("Startdatum");
  await start.fill("01.03.2027");
  await expect(page.getByTestId("unsaved")).toHaveText("Nicht gespeicherte Änderungen");
  await expect.poll(() => beforeUnloadAsks(page)).toBe(true);

  // Leaving through the app's own link asks first; staying keeps the typed date.
  await page.getByRole("link", { name: "Zurück zur Übersicht" }).click();
  const ask = page.getByRole("dialog", { name: "Änderungen nicht gespeichert" });
  await expect(ask).toBeVisible();
  await expectNoSeriousViolations(page, "leaving with unsaved changes");
  await ask.getByRole("button", { name: "Auf der Seite bleiben" }).click();
  await expect(ask).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/survey/${id}/edit`));
  await expect(start).toHaveValue("01.03.2027");

  // Saved: nothing is marked, nothing asks.
  await page.getByRole("button", { name: "Speichern", exact: true }).click();
  await expect(page.getByText("Umfrageinformationen gespeichert.")).toBeVisible();
  await expect(page.getByTestId("unsaved")).toHaveCount(0);
  await expect.poll(() => beforeUnloadAsks(page)).toBe(false);
  await page.getByRole("link", { name: "Zurück zur Übersicht" }).click();
  await expect(page).toHaveURL(/\/surveys$/);
  expect((await api<{ StartDate: string }>(page, "GET", `/surveys/${id}`)).StartDate).toBe("01.03.2027");

  // Leaving without saving, when the person says so, drops the change.
  await page.goto(`/survey/${id}/edit`);
  await page.getByLabel("Startdatum").fill("15.04.2027");
  await page.getByRole("link", { name: "Zurück zur Übersicht" }).click();
  await page
    .getByRole("dialog", { name: "Änderungen nicht gespeichert" })
    .getByRole("button", { name: "Verlassen ohne zu speichern" })
    .click();
  await expect(page).toHaveURL(/\/surveys$/);
  expect((await api<{ StartDate: string }>(page, "GET", `/surveys/${id}`)).StartDate).toBe("01.03.2027");
});

test("after an Escape, the next edit of the title is saved when the field is left", async ({ page }) => {
  await signIn(page, "admin");
  const id = await newSurvey(page, "Titel alt");
  const edit = page.getByRole("button", { name: "Titel bearbeiten" });
  const field = page.getByLabel("Titel", { exact: true });
  await edit.click();
  await field.fill("Verworfen");
  await field.press("Escape");
  await expect(page.getByTestId("survey-title")).toHaveText("Titel alt");

  await edit.click();
  await field.fill("Titel neu");
  await expect(page.getByTestId("title-save-state")).toHaveText("Nicht gespeichert");
  await expect.poll(() => beforeUnloadAsks(page)).toBe(true);
  // Focus goes elsewhere: the new title is saved.
  await page.getByRole("tab", { name: "Start" }).click();
  await expect.poll(async () => (await api<{ Title: string }>(page, "GET", `/surveys/${id}`)).Title).toBe("Titel neu");
  await page.reload();
  await expect(page.getByTestId("survey-title")).toHaveText("Titel neu");
});

test("the description and the outro are saved while they are typed, and say so; a reload keeps them", async ({
  page,
}) => {
  await signIn(page, "admin");
  const id = await newSurvey(page, "Texte speichern sich");
  const description = page.getByLabel("Beschreibung");
  await description.click();
  await page.keyboard.type("Für die Station 3");
  await expect(page.getByTestId("description-save-state")).toHaveText("Nicht gespeichert");
  await expect.poll(() => beforeUnloadAsks(page)).toBe(true);
  // Still in the field, not a key pressed since: saved by itself.
  await expect(page.getByTestId("description-save-state")).toHaveText("Gespeichert");
  await expect.poll(() => beforeUnloadAsks(page)).toBe(false);
  await expect(description).toBeFocused();
  expect((await api<{ Description: string }>(page, "GET", `/surveys/${id}`)).Description).toBe("Für die Station 3");

  await page.getByRole("tab", { name: "Abschluss" }).click();
  const outro = page.getByRole("textbox", { name: /Abschlusstext/ });
  await outro.click();
  await page.keyboard.type("Danke für Ihre Zeit");
  await expect(page.getByTestId("OutroText-save-state")).toHaveText("Nicht gespeichert");
  await expect(page.getByTestId("OutroText-save-state")).toHaveText("Gespeichert");
  await page.reload();
  await expect(page.getByRole("textbox", { name: /Abschlusstext/ })).toContainText("Danke für Ihre Zeit");
  await page.getByRole("tab", { name: "Start" }).click();
  await expect(page.getByLabel("Beschreibung")).toHaveValue("Für die Station 3");
});

test("another tab opens at once while a field is still unsaved or being saved, and the field is saved", async ({
  page,
}) => {
  await signIn(page, "admin");
  const id = await newSurvey(page, "Tab sofort");
  await page.getByLabel("Beschreibung").fill("Gleich weiter");
  await page.getByRole("tab", { name: "Einleitung" }).click();
  await expect(page.getByRole("tab", { name: "Einleitung" })).toHaveAttribute("aria-selected", "true");
  await expect(page).toHaveURL(/#intro$/);
  await expect
    .poll(async () => (await api<{ Description: string }>(page, "GET", `/surveys/${id}`)).Description)
    .toBe("Gleich weiter");
  // The title sent with Enter, and a tab right away.
  await page.getByRole("button", { name: "Titel bearbeiten" }).click();
  await page.getByLabel("Titel", { exact: true }).fill("Tab sofort, neu");
  await page.getByLabel("Titel", { exact: true }).press("Enter");
  await page.getByRole("tab", { name: "Start" }).click();
  await expect(page.getByRole("tab", { name: "Start" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("title-save-state")).not.toHaveText("Wird gespeichert …");
  await expect
    .poll(async () => (await api<{ Title: string }>(page, "GET", `/surveys/${id}`)).Title)
    .toBe("Tab sofort, neu");
});

test("a dialog with typed changes asks before it closes, starting on 'go on editing'", async ({ page }) => {
  await signIn(page, "admin");
  await newSurvey(page, "Dialog fragt");
  await page.getByRole("tab", { name: /Fragebogen/ }).click();
  await page.getByRole("button", { name: "+ Kategorie hinzufügen" }).click();
  const dialog = page.getByRole("dialog", { name: "Kategorie hinzufügen" });
  await dialog.getByLabel("Titel der Kategorie").fill("Halb getippt");
  await expect.poll(() => beforeUnloadAsks(page)).toBe(true);
  await page.keyboard.press("Escape");
  const ask = page.getByRole("dialog", { name: "Änderungen verwerfen?" });
  await expect(ask).toBeVisible();
  await expect(ask.getByRole("button", { name: "Weiter bearbeiten" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(ask).toBeHidden();
  await expect(dialog.getByLabel("Titel der Kategorie")).toHaveValue("Halb getippt");
  await dialog.getByRole("button", { name: "Abbrechen" }).click();
  await ask.getByRole("button", { name: "Verwerfen" }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => beforeUnloadAsks(page)).toBe(false);
  // Nothing typed: it closes at once.
  await page.getByRole("button", { name: "+ Kategorie hinzufügen" }).click();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(ask).toBeHidden();
});
