import type { Page } from "@playwright/test";
import { appUrl, expect, test } from "./test";
import { api } from "./api";
import { expectNoSeriousViolations } from "./axe";
import { openCase, question } from "./fill-support";
import { download, goOffline, goOnline, offlineRig, signInAt, startCase } from "./offline-support";
import { signIn } from "./support";

/**
 * A scored instrument in the product's own model (docs/decisions/051-instrument-scores.md): the editor gives
 * the answers their scores and a question its hint, turns the total on by keyboard, a user fills two cases
 * (the hint under its question, describing its answers), and the analyst reads the total's figures.
 */

const INTEREST = "Wenig Interesse oder Freude an Ihren Tätigkeiten";
const MOOD = "Niedergeschlagenheit, Schwermut oder Hoffnungslosigkeit";
const ANSWERS = ["Überhaupt nicht", "An einzelnen Tagen", "An mehr als der Hälfte der Tage", "Beinahe jeden Tag"];
const HINT = "Denken Sie an die letzten zwei Wochen.";

interface Saved {
  ScoreTitle: string | null;
  Categories: {
    Questions: { Title: string; Hint: string | null; AnswerOptions: { Text: string; Score: number | null }[] }[];
  }[];
}

/** Opens an answer's menu and its "Bearbeiten" by keyboard; the answer modal is open after. */
async function editAnswer(page: Page, questionTitle: string, answer: string) {
  const row = page
    .getByTestId("question")
    .filter({ hasText: questionTitle })
    .getByTestId("answer")
    .filter({ hasText: answer })
    .first();
  await row.locator("summary").focus();
  await page.keyboard.press("Enter");
  await row.getByRole("button", { name: "Bearbeiten" }).focus();
  await page.keyboard.press("Enter");
  const modal = page.getByRole("dialog", { name: "Antwort bearbeiten" });
  await expect(modal).toBeVisible();
  return { modal, row };
}

test("scores set in the editor, the total turned on by keyboard, two cases filled, the total's figures", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `PHQ-2 ${Date.now()}` });
  const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Befinden" });
  for (const Title of [INTEREST, MOOD]) {
    await api(page, "POST", "/questions", {
      SurveyId: survey.Id,
      CategoryId: category.Id,
      Title,
      Type: "SingleSelection",
      AnswerOptions: ANSWERS.map((Text) => ({ Text })),
    });
  }

  // The answers' scores, each in its answer's modal: typed, then saved with Enter; a German decimal comma.
  await page.goto(`/survey/${survey.Id}/edit#questionnaire`);
  for (const [question_, scores] of [
    [INTEREST, ["0", "1", "2", "3"]],
    [MOOD, ["0", "1", "2,0", "3"]],
  ] as const) {
    for (const [i, answer] of ANSWERS.entries()) {
      const { modal, row } = await editAnswer(page, question_, answer);
      const score = modal.getByLabel("Punktwert");
      await expect(score).toHaveValue("");
      await score.fill(scores[i]);
      await score.press("Enter");
      await expect(modal).toBeHidden();
      await expect(row.getByTestId("answer-score")).toHaveText(`Punktwert ${Number(scores[i].replace(",", "."))}`);
    }
  }
  // A score that is no number is refused in the modal, with its message, and nothing is sent.
  const { modal } = await editAnswer(page, INTEREST, ANSWERS[0]);
  await expect(modal.getByLabel("Punktwert")).toHaveValue("0");
  await modal.getByLabel("Punktwert").fill("viel");
  await modal.getByLabel("Punktwert").press("Enter");
  await expect(modal.getByRole("alert")).toContainText("Bitte eine Zahl von −9999 bis 9999");
  await expect(modal.getByLabel("Punktwert")).toHaveAttribute("aria-invalid", "true");
  // Leaving asks first: what was typed is not saved.
  await page.keyboard.press("Escape");
  await page.getByRole("dialog", { name: "Änderungen verwerfen?" }).getByRole("button", { name: "Verwerfen" }).click();
  await expect(modal).toBeHidden();

  // The hint, in the question's modal.
  const interest = page.getByTestId("question").filter({ hasText: INTEREST });
  await interest.getByRole("button", { name: "Bearbeiten" }).first().click();
  const questionModal = page.getByRole("dialog", { name: "Frage bearbeiten: Einfachauswahl" });
  await questionModal.getByLabel("Hinweis").fill(HINT);
  await questionModal.getByRole("button", { name: "Speichern" }).click();
  await expect(questionModal).toBeHidden();
  // The editor's preview fills with the same pages: the hint under its question.
  await page.getByRole("button", { name: "Vorschau" }).click();
  const preview = page.getByRole("dialog", { name: "Vorschau" });
  await expect(preview.getByTestId("question-hint")).toHaveText(HINT);
  await page.keyboard.press("Escape");
  await expect(preview).toBeHidden();

  // The total, on the start tab: the switch by keyboard, then its title typed and left.
  await page.goto(`/survey/${survey.Id}/edit#start`);
  const toggle = page.getByRole("switch", { name: "Gesamtpunktzahl berechnen" });
  await expect(toggle).not.toBeChecked();
  await expect(toggle).toBeEnabled();
  await toggle.focus();
  await page.keyboard.press("Space");
  await expect(toggle).toBeChecked();
  const title = page.getByLabel("Titel der Gesamtpunktzahl");
  await expect(title).toHaveValue("Gesamtpunktzahl");
  await page.keyboard.press("Tab");
  await expect(title).toBeFocused();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("PHQ-2 Summe");
  await page.keyboard.press("Tab");
  await expect(page.getByTestId("score-title-save-state")).toHaveText(/gespeichert/i);
  await expectNoSeriousViolations(page, "the start tab with the total score on");

  const saved = await api<Saved>(page, "GET", `/surveys/${survey.Id}`);
  expect(saved.ScoreTitle).toBe("PHQ-2 Summe");
  const [first, second] = saved.Categories[0]!.Questions;
  expect(first!.Hint).toBe(HINT);
  expect(first!.AnswerOptions.map((o) => o.Score)).toEqual([0, 1, 2, 3]);
  expect(second!.AnswerOptions.map((o) => o.Score)).toEqual([0, 1, 2, 3]);
  await api(page, "POST", `/surveys/${survey.Id}/approve`);

  // Two cases: 3 + 1 and 0 + 2. The hint stands under its question and describes its answers.
  const context = await browser.newContext({ baseURL: appUrl(), locale: "de-DE" });
  const user = await context.newPage();
  await signIn(user, "user");
  for (const [patientId, answers] of [
    [`PHQ_A_${Date.now()}`, [ANSWERS[3], ANSWERS[1]]],
    [`PHQ_B_${Date.now()}`, [ANSWERS[0], ANSWERS[2]]],
  ] as const) {
    await openCase(user, survey.Id, patientId);
    const asked = question(user, INTEREST);
    await expect(asked.getByTestId("question-hint")).toHaveText(HINT);
    await expect(asked.getByRole("radiogroup", { name: INTEREST })).toHaveAccessibleDescription(HINT);
    await expect(question(user, MOOD).getByTestId("question-hint")).toHaveCount(0);
    await asked.getByLabel(answers[0], { exact: true }).check();
    await question(user, MOOD).getByLabel(answers[1], { exact: true }).check();
    await expect(user.getByTestId("submit-survey")).toHaveClass(/btn--primary/);
    await user.getByTestId("submit-survey").click();
    await expect(user.getByText("Ihre Angaben wurden gespeichert.")).toBeVisible();
  }
  await context.close();

  // The analyst: the total's block before the categories, with the figures of the two cases.
  await page.goto(`/survey/${survey.Id}/statistics`);
  const total = page.getByRole("region", { name: "PHQ-2 Summe" });
  await expect(total).toBeVisible();
  await expect(total).toContainText("2 Fälle mit Gesamtpunktzahl");
  await expect(total.getByTestId("total-mean")).toHaveText("3");
  await expect(total.getByTestId("total-median")).toHaveText("3");
  await expect(total.getByTestId("total-min")).toHaveText("2");
  await expect(total.getByTestId("total-max")).toHaveText("4");
  const bars = total.getByRole("table", { name: "Verteilung: PHQ-2 Summe" });
  await expect(bars.getByRole("row", { name: /^2\b/ })).toContainText("50 %");
  await expect(bars.getByRole("row", { name: /^4\b/ })).toContainText("1");
  // It comes before the first category's figures.
  const order = await page.evaluate(() => {
    const block = document.querySelector('[data-testid="score-total"]');
    const category = document.getElementById("results-category");
    return block && category ? block.compareDocumentPosition(category) & Node.DOCUMENT_POSITION_FOLLOWING : 0;
  });
  expect(order).toBeTruthy();
  await expectNoSeriousViolations(page, "the results tab with a total score");
});

test("offline, a survey kept on the device shows a question's hint under it, as online", async () => {
  test.setTimeout(180_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "admin");
    const title = `Hinweis offline ${Date.now()}`;
    const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: title });
    const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Befinden" });
    await api(page, "POST", "/questions", {
      SurveyId: survey.Id,
      CategoryId: category.Id,
      Title: INTEREST,
      Type: "SingleSelection",
      Hint: HINT,
      AnswerOptions: ANSWERS.map((Text, Score) => ({ Text, Score })),
    });
    await api(page, "PUT", `/surveys/${survey.Id}`, { ScoreTitle: "PHQ-1" });
    await api(page, "POST", `/surveys/${survey.Id}/approve`);
    await page.goto(rig.url("/surveys"));
    await download(page, title);

    await goOffline(context, rig.gate);
    const row = page.getByTestId("survey-row").filter({ hasText: title });
    await row.locator("summary").click();
    await row.getByRole("link", { name: "Umfrage ausfüllen" }).click();
    await startCase(page, "HINT_OFF_1");
    await expect(page.getByTestId("fill-offline-notice")).toBeVisible();
    const asked = question(page, INTEREST);
    await expect(asked.getByTestId("question-hint")).toHaveText(HINT);
    await expect(asked.getByRole("radiogroup", { name: INTEREST })).toHaveAccessibleDescription(HINT);
    await asked.getByLabel(ANSWERS[2], { exact: true }).check();
    await expect(asked.getByLabel(ANSWERS[2], { exact: true })).toBeChecked();
    await goOnline(context, rig.gate);
  } finally {
    await rig.dispose(context);
  }
});
