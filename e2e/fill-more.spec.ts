import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { api, publishedSurvey } from "./api";
import { serverAnswers } from "./fill-support";
import { png } from "./images";
import { signIn, surveyRow } from "./support";

function question(page: Page, title: string) {
  return page.getByTestId("fill-question").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
}

async function start(page: Page, surveyId: number, patientId: string) {
  await page.goto(`/survey/${surveyId}`);
  await page
    .getByLabel(/Patienten/)
    .first()
    .fill(patientId);
  await page.getByRole("button", { name: "Neue Umfrage starten" }).click();
  await expect(page).toHaveURL(new RegExp(`/fill/${patientId}`));
  // The page settles first (its data, and the copy kept for offline use): a file picked in the same
  // instant the fill page appeared was once lost to a render that replaced the file input.
  await page.waitForLoadState("networkidle");
}

test("an exit answer asks first: rejecting removes it, confirming ends the survey", async ({ page }) => {
  await signIn(page, "admin");
  const id = await publishedSurvey(page, "Exit-Test", [
    { Title: "Weiter?", Type: "SingleSelection", answers: ["Ja", "Abbrechen"], exit: "Abbrechen" },
  ]);
  await start(page, id, "EXIT_1");
  // The exit answer is only recorded after the confirmation, so it is clicked, not "checked".
  await question(page, "Weiter?").getByLabel("Abbrechen").click();
  const dialog = page.getByRole("dialog", { name: "Umfrage beenden?" });
  await dialog.getByRole("button", { name: "Nein, zurück" }).click();
  await expect(question(page, "Weiter?").getByLabel("Abbrechen")).not.toBeChecked();
  await question(page, "Weiter?").getByLabel("Abbrechen").click();
  await dialog.getByRole("button", { name: "Ja, beenden" }).click();
  await expect(page.getByText("Ihre Angaben wurden gespeichert.")).toBeVisible();
  const state = await api<{ State: string }>(page, "GET", `/patients?patientId=EXIT_1&surveyId=${id}`);
  expect(state.State).toBe("Closed");
});

test("attachments: a file is uploaded and listed; a refused file shows its reason and the failed count", async ({
  page,
}) => {
  await signIn(page, "admin");
  const id = await publishedSurvey(page, "Anhang-Test", [{ Title: "Befund", Type: "FreeText", attachments: true }]);
  await start(page, id, "FILE_1");
  const box = question(page, "Befund").getByTestId("attachments");
  await box.getByLabel("Anhänge").setInputFiles({ name: "roentgen.png", mimeType: "image/png", buffer: png() });
  await expect(box.getByText("roentgen.png")).toBeVisible();
  await box
    .getByLabel("Anhänge")
    .setInputFiles({ name: "virus.exe", mimeType: "application/octet-stream", buffer: Buffer.from("MZ") });
  await expect(box.getByText("1 Datei nicht hochgeladen", { exact: true })).toBeVisible();
  await expect(box.getByTestId("attachment-failed")).toContainText("Dieser Dateityp ist nicht erlaubt.");
  // An allowed extension whose content is something else says what the file does not look like.
  await box
    .getByLabel("Anhänge")
    .setInputFiles({ name: "befund.pdf", mimeType: "application/pdf", buffer: Buffer.from("nur ein Text") });
  await expect(box.getByTestId("attachment-failed").filter({ hasText: "befund.pdf" })).toContainText(
    "Die Datei sieht nicht wie eine PDF-Datei aus: Ihr Inhalt passt nicht zu ihrer Endung.",
  );
  await box.getByRole("button", { name: "roentgen.png entfernen" }).click();
  await expect(box.getByText("roentgen.png")).toHaveCount(0);
});

test("a save that fails (the survey was unpublished meanwhile) shows the failure icon and the previous answer", async ({
  page,
  browser,
}) => {
  await signIn(page, "admin");
  const id = await publishedSurvey(page, "Fehler-Test", [
    { Title: "Wie geht es?", Type: "SingleSelection", answers: ["gut", "schlecht"] },
  ]);
  await start(page, id, "FAIL_1");
  await question(page, "Wie geht es?").getByLabel("gut").check();
  await expect(page.getByTestId("category-link").first()).toHaveAttribute("data-status", "complete");

  const approver = await browser.newContext();
  const other = await approver.newPage();
  await signIn(other, "approver");
  await api(other, "PUT", `/surveys/${id}/change-status?newStatusId=1`);
  await approver.close();

  // The refused answer is reverted at once, so the radio is clicked rather than "checked".
  await question(page, "Wie geht es?").getByLabel("schlecht").click();
  await expect(question(page, "Wie geht es?").getByTestId("save-failed")).toBeVisible();
  await expect(question(page, "Wie geht es?").getByLabel("gut")).toBeChecked();
  await expect(question(page, "Wie geht es?").getByLabel("schlecht")).not.toBeChecked();
});

test("the last chosen category is remembered per patient and survey", async ({ page }) => {
  await signIn(page, "admin");
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Kategorien ${Date.now()}` });
  for (const [title, Type] of [
    ["Teil 1", "SingleSelection"],
    ["Teil 2", "FreeText"],
  ]) {
    const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: title });
    const created = await api<{ Id: number }>(page, "POST", "/questions", {
      SurveyId: survey.Id,
      CategoryId: category.Id,
      Title: `Frage in ${title}`,
      Type,
      AllowFileAttachments: false,
    });
    if (Type === "SingleSelection")
      await api(page, "POST", "/answer-options", { SurveyId: survey.Id, QuestionId: created.Id, Text: "ja" });
  }
  await api(page, "POST", `/surveys/${survey.Id}/approve`);
  const title = page.locator(".fill-category-title");
  await start(page, survey.Id, "CAT_1");
  await expect(title).toHaveText("Teil 1");
  await question(page, "Frage in Teil 1").getByLabel("ja").check();
  await expect(page.getByTestId("fill")).not.toHaveAttribute("aria-busy", "true");
  await page.getByTestId("category-link").filter({ hasText: "Teil 2" }).click();
  await expect(title).toHaveText("Teil 2");
  await expect(page).toHaveURL(/category=\d+/);

  // Opened again without a category: the one chosen last for this patient, not for another.
  await page.goto(`/survey/${survey.Id}/fill/CAT_1?page=questionnaire`);
  await expect(title).toHaveText("Teil 2");
  await expect(question(page, "Frage in Teil 2")).toBeVisible();
  await start(page, survey.Id, "CAT_2");
  await expect(title).toHaveText("Teil 1");
  await page.goto(`/survey/${survey.Id}/fill/CAT_1?page=questionnaire`);
  await expect(title).toHaveText("Teil 2");
});

test("the editor's preview runs the flow as PREVIEW and stores nothing", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/survey/1/edit");
  await page.getByRole("button", { name: "Vorschau" }).click();
  const preview = page.getByRole("dialog", { name: "Vorschau" });
  await expect(preview.getByTestId("fill-patient")).toHaveText("Vorschau (PREVIEW)");
  await preview.getByRole("link", { name: "Speichern und weiter" }).click();
  // In preview, continue does not wait for the preliminary answers.
  await preview.getByRole("button", { name: "Weiter" }).click();
  await preview.getByLabel("leicht").check();
  await preview.getByTestId("submit-survey").click();
  await expect(preview.getByText("Ende der Vorschau. Es wurde nichts gespeichert.")).toBeVisible();
  const found = await api<{ State: string }>(page, "GET", "/patients?patientId=PREVIEW&surveyId=1");
  expect(found.State).toBe("Nonexistent");
});

test("the preview of empty categories has no questionnaire page; a question added gives it one", async ({ page }) => {
  await signIn(page, "admin");
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: "Leere Kategorien" });
  await api(page, "PUT", `/surveys/${survey.Id}`, { IsPatientFormEnabled: true });
  await api(page, "POST", "/patient-attributes", {
    SurveyId: survey.Id,
    Title: "Raucher?",
    Enabled: true,
    AnswerOptions: [{ Text: "ja" }, { Text: "nein" }],
  });
  for (const Title of ["Anamnese", "Befund"]) await api(page, "POST", "/categories", { SurveyId: survey.Id, Title });
  await page.goto(`/survey/${survey.Id}/edit#questionnaire`);
  await page.getByRole("button", { name: "Vorschau" }).click();
  const preview = page.getByRole("dialog", { name: "Vorschau" });
  // Nothing to ask after the preliminary page: it goes on to the end, the last of two pages.
  await expect(preview.getByText("Seite 1 von 2")).toBeVisible();
  await preview.getByRole("button", { name: "Weiter" }).click();
  await expect(preview.getByText("Ende der Vorschau. Es wurde nichts gespeichert.")).toBeVisible();
  await expect(preview.getByText("Seite 2 von 2")).toBeVisible();
  await expect(preview.getByRole("navigation", { name: "Kategorien" })).toHaveCount(0);
  await preview.getByRole("button", { name: "Schließen" }).click();

  const anamnese = page.getByTestId("category").filter({ hasText: "Anamnese" });
  await anamnese.locator("summary[title='Frage hinzufügen']").click();
  await page.getByRole("button", { name: "Freitext", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Frage hinzufügen: Freitext" });
  await dialog.getByLabel("Fragetext").fill("Beschwerden");
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(dialog).toBeHidden();
  // Opened again, the preview starts afresh, and the survey has a questionnaire now.
  await page.getByRole("button", { name: "Vorschau" }).click();
  await expect(preview.getByText("Seite 1 von 3")).toBeVisible();
  await preview.getByRole("button", { name: "Weiter" }).click();
  await expect(preview.getByText("Seite 2 von 3")).toBeVisible();
  await expect(preview.getByRole("heading", { level: 2, name: "Anamnese" })).toBeVisible();
  await expect(preview.getByRole("textbox", { name: "1 Beschwerden" })).toBeVisible();
});

test("a number typed with a decimal comma is that number; typing that is no number or date says it is not saved", async ({
  page,
}) => {
  await signIn(page, "admin");
  const id = await publishedSurvey(page, "Komma-Test", [
    { Title: "Gewicht", Type: "Numerical" },
    { Title: "Gemessen am", Type: "DateTime" },
  ]);
  await start(page, id, "KOMMA_1");
  const numbers = async () =>
    (await serverAnswers(page, id, "KOMMA_1"))
      .map((a) => (a as { NumericalResponse?: number }).NumericalResponse)
      .filter((n) => n !== undefined && n !== null);
  const box = question(page, "Gewicht");
  const weight = box.getByRole("textbox");
  // Typed key by key, as a person does: the browser's number field read "72,5" as 72.5 or 725 by its language.
  await weight.click();
  await weight.pressSequentially("72,5", { delay: 20 });
  await weight.press("Tab");
  await expect.poll(numbers).toEqual([72.5]);
  await expect(box.getByTestId("save-state")).toHaveText("Gespeichert");

  // Not a number: kept in the field, said so, and the answer saved before stays; no "Gespeichert" beside it.
  await weight.click();
  await weight.press("End");
  await weight.pressSequentially(" kg", { delay: 20 });
  await weight.press("Tab");
  const refusal = box.getByRole("alert");
  await expect(refusal).toHaveText(/^Keine Zahl: .*nicht gespeichert\.$/);
  await expect(weight).toHaveValue("72,5 kg");
  await expect(weight).toHaveAttribute("aria-invalid", "true");
  await expect(weight).toHaveAccessibleDescription(/Keine Zahl/);
  await expect(box.getByTestId("save-state")).toHaveText("");
  expect(await numbers()).toEqual([72.5]);
  await weight.fill("73");
  await weight.press("Tab");
  await expect(refusal).toHaveCount(0);
  await expect.poll(numbers).toEqual([73]);
  await expect(box.getByTestId("save-state")).toHaveText("Gespeichert");

  // A date that does not exist, over one saved: its message alone, not "Gespeichert" as well.
  const dateBox = question(page, "Gemessen am");
  const date = dateBox.getByRole("textbox");
  await date.fill("30.11.2026 08:15");
  await date.press("Tab");
  await expect(dateBox.getByTestId("save-state")).toHaveText("Gespeichert");
  await date.fill("31.02.2026 10:00");
  await date.press("Tab");
  await expect(dateBox.getByRole("alert")).toContainText("nicht gespeichert");
  await expect(dateBox.getByTestId("save-state")).toHaveText("");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the whole flow can be completed with forms", async ({ page, browser }) => {
    const setup = await browser.newContext();
    const admin = await setup.newPage();
    await signIn(admin, "admin");
    const id = await publishedSurvey(admin, "Ohne-JS-Test", [
      { Title: "Schmerz?", Type: "SingleSelection", answers: ["ja", "nein"] },
      { Title: "Gewicht", Type: "Numerical" },
      { Title: "Notiz", Type: "FreeText" },
    ]);
    await setup.close();

    await signIn(page, "admin");
    await start(page, id, "NOJS_1");
    await question(page, "Schmerz?").getByLabel("ja").check();
    await question(page, "Gewicht").getByRole("textbox").fill("72.5");
    await question(page, "Notiz").getByRole("textbox").fill("ohne Skript");
    await page.getByRole("button", { name: "Speichern" }).click();
    await expect(question(page, "Schmerz?").getByLabel("ja")).toBeChecked();
    await expect(question(page, "Gewicht").getByRole("textbox")).toHaveValue("72,5");
    await expect(page.getByTestId("category-link").first()).toHaveAttribute("data-status", "complete");
    await page.getByTestId("submit-survey").click();
    await expect(page.getByText("Ihre Angaben wurden gespeichert.")).toBeVisible();
  });
});

test("the arrow keys pass over an exit answer without asking; Space or Enter on it asks", async ({ page }) => {
  await signIn(page, "admin");
  const id = await publishedSurvey(page, "Exit-Tastatur", [
    { Title: "Wie weiter?", Type: "SingleSelection", answers: ["Ja", "Abbrechen", "Nein"], exit: "Abbrechen" },
  ]);
  await start(page, id, "EXIT_KEYS");
  const box = question(page, "Wie weiter?");
  const dialog = page.getByRole("dialog", { name: "Umfrage beenden?" });
  await box.getByRole("radio", { name: /^Ja/ }).check();
  await expect(box.getByRole("radio", { name: /^Ja/ })).toBeChecked();
  // Down onto the exit answer: it is not chosen, nothing asks, the earlier answer stays.
  await page.keyboard.press("ArrowDown");
  await expect(box.getByRole("radio", { name: /^Abbrechen/ })).toBeFocused();
  await page.waitForTimeout(300);
  await expect(dialog).toBeHidden();
  await expect(box.getByRole("radio", { name: /^Ja/ })).toBeChecked();
  await expect(box.getByRole("radio", { name: /^Abbrechen/ })).toHaveAccessibleDescription(
    "Diese Antwort beendet die Umfrage. Mit der Leertaste oder der Eingabetaste wählen.",
  );
  // On past it: the next answer is chosen as usual.
  await page.keyboard.press("ArrowDown");
  await expect(box.getByRole("radio", { name: /^Nein/ })).toBeChecked();
  await expect(dialog).toBeHidden();
  // Back up to it and press Space: now it asks.
  await page.keyboard.press("ArrowUp");
  await expect(dialog).toBeHidden();
  await page.keyboard.press("Space");
  await expect(dialog).toBeVisible();
  // It starts on the safe choice: a reflex Enter does not end the survey.
  await expect(dialog.getByRole("button", { name: "Nein, zurück" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(box.getByRole("radio", { name: /^Nein/ })).toBeChecked();
  await box.getByRole("radio", { name: /^Abbrechen/ }).focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
});

test("each new page puts focus on its heading, and 'Nächste Kategorie' on the next category's heading", async ({
  page,
}) => {
  await signIn(page, "admin");
  const title = `Fokus ${Date.now()}`;
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: title });
  for (const [category, question] of [
    ["Teil 1", "Erste Frage"],
    ["Teil 2", "Zweite Frage"],
  ]) {
    const c = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: category });
    await api(page, "POST", "/questions", { SurveyId: survey.Id, CategoryId: c.Id, Title: question, Type: "FreeText" });
  }
  await api(page, "POST", `/surveys/${survey.Id}/approve`);

  // From the list to the start page: its heading has focus.
  await page.goto("/surveys");
  await surveyRow(page, title).getByRole("link", { name: title }).click();
  await expect(page).toHaveURL(new RegExp(`/survey/${survey.Id}$`));
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeFocused();
  // Into the fill: the fill page's heading, which says the page's place.
  await page
    .getByLabel(/Patienten/)
    .first()
    .fill("FOKUS_1");
  await page.getByRole("button", { name: "Neue Umfrage starten" }).click();
  await expect(page).toHaveURL(/\/fill\/FOKUS_1/);
  const heading = page.getByRole("heading", { level: 1, name: title });
  await expect(heading).toBeFocused();
  await expect(heading).toHaveAccessibleDescription(/^Seite \d von \d$/);
  // The next category: its heading first, so that a screen reader says which category this is; the next Tab
  // reaches its first question's field.
  await page.getByRole("button", { name: "Nächste Kategorie" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Teil 2" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("textbox", { name: "Zweite Frage" })).toBeFocused();
  // The same by the category list.
  await page.getByRole("link", { name: /Teil 1/ }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Teil 1" })).toBeFocused();
});

test("Back from a questionnaire that is the case's first page goes to the survey's start page", async ({ page }) => {
  await signIn(page, "admin");
  const id = await publishedSurvey(page, "Zurück-Test", [{ Title: "Notiz", Type: "FreeText" }]);
  await start(page, id, "BACK_1");
  await question(page, "Notiz").getByRole("textbox").fill("vor dem Zurück");
  await page.getByRole("button", { name: "Zurück", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/survey/${id}$`));
  // What was typed before going back is kept.
  const answers = await serverAnswers(page, id, "BACK_1");
  expect(answers.map((a) => a.TextResponse)).toEqual(["vor dem Zurück"]);
});
