import type { Locator } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { expectNoSeriousViolations } from "./axe";
import { signIn } from "./support";

/**
 * Answers without a modal each: a new choice question takes its answers in its own modal (Enter goes on, a
 * pasted list becomes one answer per line, entries move in place), and a question's card adds more the
 * same way. Weights, exit flags and sub-questions stay on each answer's menu.
 */

/** Pastes text into a field as the browser does from the clipboard. */
async function paste(field: Locator, text: string) {
  await field.focus();
  await field.evaluate((el, value) => {
    const data = new DataTransfer();
    data.setData("text/plain", value);
    el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

test("a three-answer question in one modal, more answers pasted on its card, details on each answer's menu", async ({
  page,
}) => {
  await signIn(page, "admin");
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Antworten ${Date.now()}` });
  await api(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Teil 1" });
  await page.goto(`/survey/${survey.Id}/edit#questionnaire`);

  await page.locator("summary[title='Frage hinzufügen']").first().click();
  await page.getByRole("button", { name: "Einfachauswahl", exact: true }).click();
  const modal = page.getByRole("dialog", { name: "Frage hinzufügen: Einfachauswahl" });
  await modal.getByLabel("Fragetext").fill("Wie stark?");
  await modal.getByLabel("Eintrag 1", { exact: true }).fill("leicht");
  await modal.getByLabel("Eintrag 1", { exact: true }).press("Enter");
  await expect(modal.getByLabel("Eintrag 2", { exact: true })).toBeFocused();
  await paste(modal.getByLabel("Eintrag 2", { exact: true }), "stark\nmittel\n");
  await expect(modal.getByLabel("Eintrag 3", { exact: true })).toHaveValue("mittel");
  await modal.getByRole("button", { name: "Eintrag 3 nach oben" }).click();
  await modal.getByRole("button", { name: "Speichern" }).click();
  await expect(modal).toBeHidden();

  const question = page.getByTestId("question").filter({ hasText: "Wie stark?" });
  await expect(question.getByTestId("answer")).toHaveText([/leicht/, /mittel/, /stark/]);
  await expectNoSeriousViolations(page, "a question's card with its answer field");

  // On the card: Enter adds one, a pasted list adds one per line.
  const adder = question.getByPlaceholder("Neue Antwort");
  await adder.fill("sehr stark");
  await adder.press("Enter");
  await expect(question.getByTestId("answer")).toHaveCount(4);
  await expect(adder).toHaveValue("");
  await expect(adder).toBeFocused();
  await paste(adder, "unerträglich\nkeine Angabe");
  await expect(question.getByTestId("answer")).toHaveText([
    /leicht/,
    /mittel/,
    /stark/,
    /sehr stark/,
    /unerträglich/,
    /keine Angabe/,
  ]);

  // The exit flag of one answer, through its menu.
  const last = question.getByTestId("answer").filter({ hasText: "keine Angabe" });
  await last.locator("summary").click();
  await last.getByRole("button", { name: "Bearbeiten" }).click();
  const edit = page.getByRole("dialog", { name: "Antwort bearbeiten" });
  await edit
    .getByRole("checkbox", { name: /antwort/i })
    .first()
    .check();
  await edit.getByRole("button", { name: "Speichern" }).click();
  await expect(edit).toBeHidden();
  // Focus is back where the change began: the answer's menu button.
  await expect(last.locator("summary")).toBeFocused();
  // By keyboard: the menu, its item, Escape; focus comes back to the menu button again.
  await last.locator("summary").press("Enter");
  await last.getByRole("button", { name: "Bearbeiten" }).focus();
  await page.keyboard.press("Enter");
  await expect(edit).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(edit).toBeHidden();
  await expect(last.locator("summary")).toBeFocused();
  const saved = await api<{
    Categories: { Questions: { Title: string; AnswerOptions: { Text: string; IsExitAnswer: boolean }[] }[] }[];
  }>(page, "GET", `/surveys/${survey.Id}`);
  const options = saved.Categories[0]!.Questions[0]!.AnswerOptions;
  expect(options.map((o) => o.Text)).toEqual([
    "leicht",
    "mittel",
    "stark",
    "sehr stark",
    "unerträglich",
    "keine Angabe",
  ]);
  expect(options.find((o) => o.Text === "keine Angabe")!.IsExitAnswer).toBe(true);
});

test("a second answer with the same text is refused with a message, and the first stays", async ({ page }) => {
  await signIn(page, "admin");
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Doppelte Antwort ${Date.now()}` });
  const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Teil 1" });
  const created = await api<{ Id: number }>(page, "POST", "/questions", {
    SurveyId: survey.Id,
    CategoryId: category.Id,
    Title: "Befinden",
    Type: "SingleSelection",
  });
  await api(page, "POST", "/answer-options", { SurveyId: survey.Id, QuestionId: created.Id, Text: "gut" });
  await page.goto(`/survey/${survey.Id}/edit#questionnaire`);
  const question = page.locator(`[data-question-id="${created.Id}"]`);
  const adder = question.getByPlaceholder("Neue Antwort");
  await adder.fill(" Gut");
  await adder.press("Enter");
  await expect(page.getByTestId("toast")).toContainText("Diese Frage hat schon eine Antwort mit diesem Text.");
  await expect(question.getByTestId("answer")).toHaveCount(1);
  await expect(adder).toHaveValue(" Gut");
});
