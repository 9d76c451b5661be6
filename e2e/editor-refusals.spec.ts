import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { chooseLanguage, signIn } from "./support";

/**
 * A change the server refuses because the survey left Draft meanwhile (published or archived from another tab):
 * a dialog says so once, beside its fields, not in a toast as well; the title says why it is back as it was.
 */

/** A Draft with a category, a choice question with one answer, and a preliminary question. */
async function draft(page: Page) {
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Abgelehnt ${Date.now()}` });
  const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Teil 1" });
  await api(page, "POST", "/questions", {
    SurveyId: survey.Id,
    CategoryId: category.Id,
    Title: "Befinden",
    Type: "SingleSelection",
    AnswerOptions: [{ Text: "gut" }],
  });
  await api(page, "PUT", `/surveys/${survey.Id}`, { IsPatientFormEnabled: true });
  await api(page, "POST", "/patient-attributes", {
    SurveyId: survey.Id,
    Title: "Mobilität",
    AnswerOptions: [{ Text: "mobil" }],
  });
  return survey.Id;
}

/** Archives the survey behind the page's back, as another tab would. */
async function archive(page: Page, surveyId: number) {
  const archived = await page.request.post(`/api/surveys/${surveyId}/archive`, {
    headers: { origin: new URL(page.url()).origin },
  });
  expect(archived.ok()).toBe(true);
}

/** Back to Draft and the page opened anew, then archived behind its back again: a stale page once more. */
async function staleAgain(page: Page, surveyId: number) {
  const restored = await page.request.post(`/api/surveys/${surveyId}/archive/restore`, {
    headers: { origin: new URL(page.url()).origin },
  });
  expect(restored.ok()).toBe(true);
  await page.reload();
  await expect(page.locator(".editor-head .status")).toHaveText(/Entwurf|Draft/);
  await archive(page, surveyId);
}

const words = {
  "de-DE": {
    language: "Deutsch",
    refused: "Das ist im aktuellen Status der Umfrage nicht möglich.",
    edit: "Bearbeiten",
    save: "Speichern",
    questionDialog: "Frage bearbeiten: Einfachauswahl",
    question: "Fragetext",
    answerDialog: "Antwort bearbeiten",
    answer: "Antworttext",
    attributeTab: "Vorabfragen",
    attributeEdit: "Mobilität bearbeiten",
    attributeDialog: "Vorabfrage bearbeiten",
    attribute: "Titel",
    discardDialog: "Änderungen verwerfen?",
    discard: "Verwerfen",
    editTitle: "Titel bearbeiten",
    titleField: "Titel",
    titleRefused:
      "Der Titel wurde nicht gespeichert: Die Umfrage ist inzwischen „Aktiv“ und kann nicht mehr bearbeitet werden.",
    archived: "Archiviert",
  },
  "en-US": {
    language: "English",
    refused: "This is not possible in the survey's current status.",
    edit: "Edit",
    save: "Save",
    questionDialog: "Edit question: Single selection",
    question: "Question text",
    answerDialog: "Edit answer",
    answer: "Answer text",
    attributeTab: "Preliminary questions",
    attributeEdit: "Edit Mobilität",
    attributeDialog: "Edit preliminary question",
    attribute: "Title",
    discardDialog: "Discard changes?",
    discard: "Discard",
    editTitle: "Edit title",
    titleField: "Title",
    titleRefused: "The title was not saved: the survey is “Active” by now and can no longer be edited.",
    archived: "Archived",
  },
} as const;

for (const locale of ["de-DE", "en-US"] as const) {
  const w = words[locale];
  test(`${locale}: the editor's dialogs say a refusal once, beside their fields`, async ({ page }) => {
    await signIn(page, "admin");
    await chooseLanguage(page, w.language);
    try {
      const surveyId = await draft(page);
      await page.goto(`/survey/${surveyId}/edit#questionnaire`);
      const card = page.getByTestId("question").filter({ hasText: "Befinden" });
      await expect(card).toBeVisible();
      await archive(page, surveyId);
      // Counted at once when the dialog shows its message (a toast would have come with it, and goes by itself).
      const toasts = page.getByTestId("toast").filter({ hasText: w.refused });

      // The question's dialog.
      await card.getByRole("button", { name: w.edit, exact: true }).first().click();
      const question = page.getByRole("dialog", { name: w.questionDialog });
      await question.getByLabel(w.question).fill("Befinden heute");
      await question.getByRole("button", { name: w.save }).click();
      await expect(question.getByRole("alert")).toHaveText(w.refused);
      expect(await toasts.count(), "the refusal in a toast as well").toBe(0);
      // The page learns why (the survey is archived now, read-only); the dialog keeps what was typed.
      await expect(page.locator(".editor-head .status")).toHaveText(w.archived);
      await expect(card.getByRole("button", { name: w.edit, exact: true })).toHaveCount(0);
      await expect(question.getByLabel(w.question)).toHaveValue("Befinden heute");
      // Closed, its typed change dropped.
      await page.keyboard.press("Escape");
      await page.getByRole("dialog", { name: w.discardDialog }).getByRole("button", { name: w.discard }).click();
      await expect(question).toBeHidden();

      // An answer's dialog, from its menu, on a stale page again.
      await staleAgain(page, surveyId);
      const answer = card.getByTestId("answer").filter({ hasText: "gut" });
      await answer.locator("summary").click();
      await answer.getByRole("button", { name: w.edit, exact: true }).click();
      const answerDialog = page.getByRole("dialog", { name: w.answerDialog });
      await answerDialog.getByLabel(w.answer).fill("sehr gut");
      await answerDialog.getByRole("button", { name: w.save }).click();
      await expect(answerDialog.getByRole("alert")).toHaveText(w.refused);
      expect(await toasts.count(), "the refusal in a toast as well").toBe(0);
      await page.keyboard.press("Escape");
      await page.getByRole("dialog", { name: w.discardDialog }).getByRole("button", { name: w.discard }).click();
      await expect(answerDialog).toBeHidden();
      await expect(page.locator(".editor-head .status")).toHaveText(w.archived);

      // A preliminary question's dialog, on a stale page again.
      await staleAgain(page, surveyId);
      await page.getByRole("tab", { name: new RegExp(`^${w.attributeTab}`) }).click();
      await page.getByRole("button", { name: w.attributeEdit }).click();
      const attribute = page.getByRole("dialog", { name: w.attributeDialog });
      await attribute.getByLabel(w.attribute, { exact: true }).fill("Beweglichkeit");
      await attribute.getByRole("button", { name: w.save }).click();
      await expect(attribute.getByRole("alert")).toHaveText(w.refused);
      expect(await toasts.count(), "the refusal in a toast as well").toBe(0);
      await expect(page.locator(".editor-head .status")).toHaveText(w.archived);
      await expect(attribute.getByLabel(w.attribute, { exact: true })).toHaveValue("Beweglichkeit");
    } finally {
      await page.goto("/surveys");
      await chooseLanguage(page, "Deutsch");
    }
  });
}

for (const locale of ["de-DE", "en-US"] as const) {
  const w = words[locale];
  test(`${locale}: a title refused because the survey was published meanwhile says why it is back`, async ({
    page,
  }) => {
    await signIn(page, "admin");
    await chooseLanguage(page, w.language);
    try {
      const surveyId = await draft(page);
      const title = (await api<{ Title: string }>(page, "GET", `/surveys/${surveyId}`)).Title;
      await page.goto(`/survey/${surveyId}/edit`);
      await expect(page.getByTestId("survey-title")).toHaveText(title);
      // The approver publishes it meanwhile.
      const published = await page.request.post(`/api/surveys/${surveyId}/approve`, {
        headers: { origin: new URL(page.url()).origin },
      });
      expect(published.ok()).toBe(true);

      await page.getByRole("button", { name: w.editTitle }).click();
      await page.getByLabel(w.titleField, { exact: true }).fill("Neuer Titel");
      await page.getByLabel(w.titleField, { exact: true }).press("Enter");
      await expect(page.getByTestId("toast").filter({ hasText: w.titleRefused })).toBeVisible();
      await expect(page.getByTestId("survey-title")).toHaveText(title);
      // The page shows the survey as it is now: no longer editable.
      await expect(page.getByRole("button", { name: w.editTitle })).toHaveCount(0);
      expect((await api<{ Title: string }>(page, "GET", `/surveys/${surveyId}`)).Title).toBe(title);
    } finally {
      await page.goto("/surveys");
      await chooseLanguage(page, "Deutsch");
    }
  });
}

test("a description refused because the survey was archived meanwhile: the page shows it archived, the typed text stays, not saved", async ({
  page,
}) => {
  await signIn(page, "admin");
  const surveyId = await draft(page);
  await page.goto(`/survey/${surveyId}/edit#intro`);
  const editor = page.getByRole("textbox", { name: "Einleitungstext" });
  await expect(editor).toBeVisible();
  await expect(page.locator(".editor-head .status")).toHaveText("Entwurf");
  await archive(page, surveyId);

  await editor.click();
  await page.keyboard.type("Willkommen auf Station 3");
  // Leaving the text saves it; the server refuses: the survey is no longer a Draft.
  await page.getByRole("tab", { name: "Einleitung" }).focus();
  await expect(
    page.getByTestId("toast").filter({ hasText: "Das ist im aktuellen Status der Umfrage nicht möglich." }),
  ).toBeVisible();
  // The page learns why: the survey is archived now, and read-only.
  await expect(page.locator(".editor-head .status")).toHaveText("Archiviert");
  await expect(page.getByRole("note").filter({ hasText: "schreibgeschützt" })).toBeVisible();
  await expect(editor).toHaveAttribute("aria-readonly", "true");
  // What was typed is still there to be copied, and says it was not saved.
  await expect(editor).toContainText("Willkommen auf Station 3");
  await expect(page.getByTestId("IntroText-save-state")).toHaveText("Nicht gespeichert – Speichern fehlgeschlagen");
  expect((await api<{ IntroText: string }>(page, "GET", `/surveys/${surveyId}`)).IntroText).toBe("");
});
