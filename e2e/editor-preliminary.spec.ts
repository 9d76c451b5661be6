import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./test";
import { chooseLanguage, expectAnnounced, pickUp, signIn } from "./support";

const panel = (page: Page) => page.locator("#panel-preliminary");
const titles = (page: Page) => panel(page).getByTestId("preliminary-question").locator(".prelim__title");
const answers = (page: Page, title: string) =>
  panel(page)
    .getByRole("list", { name: `Antworten von ${title}` })
    .locator(".prelim-answer__text");
const toast = (page: Page, text: string) => page.getByTestId("toast").filter({ hasText: text }).last();

/** Moves an item one place down with the keyboard: focus its handle, Space, ArrowDown, Space. */
async function keyboardDrag(page: Page, item: string, position: number) {
  await pickUp(page, panel(page).getByRole("button", { name: new RegExp(`^${item} verschieben`) }));
  await page.keyboard.press("ArrowDown");
  await expectAnnounced(page, `${item} über Position ${position}.`);
  await page.keyboard.press("Space");
}

/** Runs `act` and waits for the API call it makes to answer. */
async function persisted(page: Page, path: RegExp, act: () => Promise<unknown>) {
  const response = page.waitForResponse((r) => path.test(new URL(r.url()).pathname) && r.request().method() !== "GET");
  await act();
  expect((await response).ok()).toBe(true);
}

/** Fills the open add/edit modal: the title, then the entries typed one after another with Enter. */
async function fillEntries(dialog: Locator, entries: string[]) {
  for (const [i, text] of entries.entries()) {
    const field = dialog.getByLabel(`Eintrag ${i + 1}`, { exact: true });
    await expect(field).toBeFocused();
    await field.fill(text);
    if (i < entries.length - 1) await field.press("Enter");
  }
}

async function addQuestion(page: Page, title: string, entries: string[], exit?: number) {
  await panel(page).getByRole("button", { name: "Vorabfrage hinzufügen" }).click();
  const dialog = page.getByRole("dialog", { name: "Vorabfrage hinzufügen" });
  await expect(dialog.getByLabel("Titel", { exact: true })).toBeFocused();
  await dialog.getByLabel("Titel", { exact: true }).fill(title);
  await dialog.getByLabel("Eintrag 1", { exact: true }).focus();
  await fillEntries(dialog, entries);
  if (exit) await dialog.getByRole("checkbox", { name: `Ausstiegsantwort (Eintrag ${exit})` }).check();
  await persisted(page, /^\/api\/patient-attributes\/$/, () =>
    dialog.getByRole("button", { name: "Speichern" }).click(),
  );
  await expect(dialog).toBeHidden();
  await expect(toast(page, "Die Vorabfrage wurde hinzugefügt.")).toBeVisible();
}

test("adds, validates, edits, reorders and deletes preliminary questions", async ({ page, browser }) => {
  const writes: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/patient-attributes") && r.method() !== "GET") writes.push(`${r.method()} ${r.url()}`);
  });
  await signIn(page, "editor");
  await page.getByRole("button", { name: "Umfrage hinzufügen" }).click();
  await expect(page).toHaveURL(/\/survey\/\d+\/edit#start$/);
  const surveyId = Number(/\/survey\/(\d+)\//.exec(page.url())![1]);
  await page.getByRole("tab", { name: "Vorabfragen" }).click();
  await expect(page).toHaveURL(/#preliminary$/);
  await expect(panel(page).getByText("Noch keine Vorabfragen.")).toBeVisible();

  // The patient form switch saves on change; a save that fails shows the old state again.
  const toggle = panel(page).getByRole("checkbox", { name: "Vorabfragen aktiviert" });
  const before = await toggle.isChecked();
  await persisted(page, /^\/api\/surveys\/\d+$/, () => toggle.click());
  await expect(toggle).toBeChecked({ checked: !before });
  // The API is unreachable behind its proxy for one request.
  await page.route(`**/api/surveys/${surveyId}`, (route) =>
    route.fulfill({ status: 503, contentType: "application/json", body: '{"Type":"UNAVAILABLE","Error":"down"}' }),
  );
  await toggle.click();
  await expect(toast(page, "Etwas ist schiefgelaufen")).toBeVisible();
  await expect(toggle).toBeChecked({ checked: !before });
  await page.unroute(`**/api/surveys/${surveyId}`);

  // Validation: a blank title and a blank entry are named next to their fields, and nothing is sent.
  await panel(page).getByRole("button", { name: "Vorabfrage hinzufügen" }).click();
  let dialog = page.getByRole("dialog", { name: "Vorabfrage hinzufügen" });
  await expect(dialog.getByLabel("Titel", { exact: true })).toBeFocused();
  await dialog.getByLabel("Titel", { exact: true }).fill("   ");
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(dialog.getByText("Der Titel darf nicht leer sein.")).toBeVisible();
  await expect(
    dialog.getByText("Bitte geben Sie einen Text für diesen Eintrag ein oder entfernen Sie ihn."),
  ).toBeVisible();
  await expect(dialog.getByLabel("Titel", { exact: true })).toBeFocused();
  await expect(dialog.getByLabel("Titel", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await dialog.getByRole("button", { name: "Eintrag 1 entfernen" }).click();
  await expect(dialog.getByText("Fügen Sie mindestens einen Eintrag hinzu.")).toBeVisible();
  // Enter adds an entry, or goes to an empty one when there is one.
  await dialog.getByRole("button", { name: "Eintrag hinzufügen" }).click();
  await fillEntries(dialog, ["ja", "nein"]);
  await dialog.getByLabel("Eintrag 2", { exact: true }).press("Enter");
  await expect(dialog.getByLabel("Eintrag 3", { exact: true })).toBeFocused();
  await dialog.getByLabel("Eintrag 1", { exact: true }).press("Enter");
  await expect(dialog.getByLabel("Eintrag 3", { exact: true })).toBeFocused();
  await expect(dialog.getByRole("textbox")).toHaveCount(4);
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(dialog.getByLabel("Eintrag 3", { exact: true })).toHaveAttribute("aria-invalid", "true");
  // Escape with typed entries asks first (decision 035); discarding closes without saving.
  await page.keyboard.press("Escape");
  const ask = page.getByRole("dialog", { name: "Änderungen verwerfen?" });
  await ask.getByRole("button", { name: "Verwerfen" }).click();
  await expect(dialog).toBeHidden();
  expect(writes).toEqual([]);

  await addQuestion(page, "Geschlecht", ["weiblich", "männlich", "keine Angabe"], 3);
  await addQuestion(page, "Altersgruppe", ["unter 18", "18 bis 65", "über 65"]);
  await addQuestion(page, "Station", ["A", "B"]);
  await expect(titles(page)).toHaveText(["Geschlecht", "Altersgruppe", "Station"]);
  const geschlecht = panel(page).getByTestId("preliminary-question").filter({ hasText: "Geschlecht" });
  await expect(geschlecht).toContainText("3 Einträge");

  // Edit: rename, change and remove entries, add an exit answer.
  await panel(page).getByRole("button", { name: "Altersgruppe bearbeiten" }).click();
  dialog = page.getByRole("dialog", { name: "Vorabfrage bearbeiten" });
  await expect(dialog.getByLabel("Titel", { exact: true })).toBeFocused();
  await expect(dialog.getByLabel("Titel", { exact: true })).toHaveValue("Altersgruppe");
  await dialog.getByLabel("Titel", { exact: true }).fill("Alter");
  await dialog.getByLabel("Eintrag 2", { exact: true }).fill("18–65");
  await dialog.getByRole("button", { name: "Eintrag 3 entfernen" }).click();
  await dialog.getByRole("button", { name: "Eintrag hinzufügen" }).click();
  await expect(dialog.getByLabel("Eintrag 3", { exact: true })).toBeFocused();
  await dialog.getByLabel("Eintrag 3", { exact: true }).fill("ab 66");
  await dialog.getByRole("checkbox", { name: "Ausstiegsantwort (Eintrag 3)" }).check();
  await persisted(page, /^\/api\/patient-attributes\/\d+$/, () =>
    dialog.getByRole("button", { name: "Speichern" }).click(),
  );
  await expect(dialog).toBeHidden();
  await expect(toast(page, "Die Vorabfrage wurde gespeichert.")).toBeVisible();
  await expect(titles(page)).toHaveText(["Geschlecht", "Alter", "Station"]);
  const toggleAlter = panel(page).getByRole("button", { name: "Alter", exact: true });
  await expect(toggleAlter).toHaveAttribute("aria-expanded", "false");
  await toggleAlter.click();
  await expect(toggleAlter).toHaveAttribute("aria-expanded", "true");
  await expect(answers(page, "Alter")).toHaveText(["unter 18", "18–65", "ab 66"]);
  await expect(panel(page).getByTestId("preliminary-answer").filter({ hasText: "ab 66" })).toContainText(
    "Ausstiegsantwort",
  );
  await toggleAlter.click();
  await expect(answers(page, "Alter")).toHaveCount(0);

  // An edit that changes nothing sends nothing.
  const sent = writes.length;
  await panel(page).getByRole("button", { name: "Geschlecht bearbeiten" }).click();
  dialog = page.getByRole("dialog", { name: "Vorabfrage bearbeiten" });
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(dialog).toBeHidden();
  expect(writes.length).toBe(sent);

  // Reorder the questions: a move button, then the keyboard (handle, Space, ArrowDown, Space).
  await persisted(page, /reorder/, () => panel(page).getByRole("button", { name: "Station nach oben" }).click());
  await expect(titles(page)).toHaveText(["Geschlecht", "Station", "Alter"]);
  await persisted(page, /reorder/, () => keyboardDrag(page, "Geschlecht", 2));
  await expect(titles(page)).toHaveText(["Station", "Geschlecht", "Alter"]);

  // Reorder the answers of a question.
  await panel(page).getByRole("button", { name: "Geschlecht", exact: true }).click();
  await expect(answers(page, "Geschlecht")).toHaveText(["weiblich", "männlich", "keine Angabe"]);
  await persisted(page, /answer-options\/reorder/, () =>
    panel(page).getByRole("button", { name: "keine Angabe nach oben" }).click(),
  );
  await expect(answers(page, "Geschlecht")).toHaveText(["weiblich", "keine Angabe", "männlich"]);
  await persisted(page, /answer-options\/reorder/, () => keyboardDrag(page, "weiblich", 2));
  await expect(answers(page, "Geschlecht")).toHaveText(["keine Angabe", "weiblich", "männlich"]);

  // Delete with a confirmation; cancelling keeps the question.
  await panel(page).getByRole("button", { name: "Station löschen" }).click();
  dialog = page.getByRole("dialog", { name: "Vorabfrage löschen" });
  await expect(dialog).toContainText("„Station“");
  await dialog.getByRole("button", { name: "Abbrechen" }).click();
  await expect(titles(page)).toHaveText(["Station", "Geschlecht", "Alter"]);
  await panel(page).getByRole("button", { name: "Station löschen" }).click();
  await persisted(page, /^\/api\/patient-attributes\/\d+$/, () =>
    dialog.getByRole("button", { name: "Löschen" }).click(),
  );
  await expect(toast(page, "Die Vorabfrage wurde gelöscht.")).toBeVisible();
  await expect(titles(page)).toHaveText(["Geschlecht", "Alter"]);

  // All of it was saved.
  await page.reload();
  await expect(titles(page)).toHaveText(["Geschlecht", "Alter"]);
  await expect(panel(page).getByRole("checkbox", { name: "Vorabfragen aktiviert" })).toBeChecked({
    checked: !before,
  });
  await panel(page).getByRole("button", { name: "Geschlecht", exact: true }).click();
  await expect(answers(page, "Geschlecht")).toHaveText(["keine Angabe", "weiblich", "männlich"]);
  await expect(panel(page).getByTestId("preliminary-answer").filter({ hasText: "keine Angabe" })).toContainText(
    "Ausstiegsantwort",
  );

  // In English.
  await chooseLanguage(page, "English");
  await page.getByRole("tab", { name: "Preliminary questions" }).click();
  await expect(panel(page).getByRole("heading", { name: "Preliminary questions" })).toBeVisible();
  await expect(panel(page).getByTestId("preliminary-question").filter({ hasText: "Alter" })).toContainText("3 entries");
  await expect(panel(page).getByRole("button", { name: "Add preliminary question" })).toBeVisible();
  // A drag handle is named in English, its kind too (its description: editor-questionnaire.spec.ts).
  const handle = panel(page).getByRole("button", { name: "Move Alter", exact: true });
  await expect(handle).toHaveAttribute("aria-roledescription", "drag handle");
  await chooseLanguage(page, "Deutsch");

  // Without JavaScript: questions and answers show, and the move buttons still work.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const plain = await context.newPage();
  await signIn(plain, "editor", `/survey/${surveyId}/edit`);
  const section = plain.locator("#preliminary");
  await expect(section.getByRole("heading", { level: 4 })).toHaveText(["Geschlecht", "Alter"]);
  await expect(section.getByRole("list", { name: "Antworten von Alter" })).toContainText("ab 66");
  await expect(section.getByRole("button", { name: "Vorabfrage hinzufügen" })).toHaveCount(0);
  await section.getByRole("button", { name: "Alter nach oben" }).click();
  await expect(plain.locator("#preliminary").getByRole("heading", { level: 4 })).toHaveText(["Alter", "Geschlecht"]);
  await context.close();
});

test("a survey that is not a draft shows its preliminary questions read-only", async ({ page }) => {
  await signIn(page, "editor", "/survey/1/edit");
  await expect(page.getByTestId("survey-title")).toHaveText("Herzinsuffizienz – Verlaufsbogen");
  await page.getByRole("tab", { name: "Vorabfragen" }).click();
  await expect(titles(page)).toHaveText(["Geschlecht", "Altersgruppe"]);
  await expect(panel(page).getByRole("checkbox", { name: "Vorabfragen aktiviert" })).toBeDisabled();
  await expect(panel(page).getByRole("button", { name: "Vorabfrage hinzufügen" })).toHaveCount(0);
  await expect(
    panel(page).getByRole("button", { name: /bearbeiten|löschen|verschieben|nach oben|nach unten/ }),
  ).toHaveCount(0);
  await panel(page).getByRole("button", { name: "Altersgruppe", exact: true }).click();
  await expect(answers(page, "Altersgruppe")).toHaveText(["unter 65", "65 bis 79", "80 und älter"]);
});
