import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./test";
import { png } from "./images";
import { signIn } from "./support";

const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);

async function addQuestion(
  page: Page,
  where: Locator,
  kind: string,
  title: string,
  fill?: (dialog: Locator) => Promise<void>,
) {
  await where.locator("summary[title='Frage hinzufügen']").click();
  await page.getByRole("button", { name: kind, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: `Frage hinzufügen: ${kind}` });
  await dialog.getByLabel("Fragetext").fill(title);
  if (fill) await fill(dialog);
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(dialog).toBeHidden();
  return page
    .getByTestId("question")
    .filter({ has: page.locator(":scope > .question__row > .question__title", { hasText: exactly(title) }) });
}

/** Adds an answer on the question's card: typed, then Enter. */
async function addAnswer(page: Page, question: Locator, text: string) {
  const field = question.getByPlaceholder("Neue Antwort").first();
  await field.fill(text);
  await field.press("Enter");
  await expect(field).toHaveValue("");
  return question
    .getByTestId("answer")
    .filter({ has: page.locator(":scope > .answer__row > .answer__text", { hasText: exactly(text) }) })
    .first();
}

test("an editor builds a whole survey of every question kind and an approver publishes it", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  await page.getByRole("button", { name: "Umfrage hinzufügen" }).click();
  await expect(page).toHaveURL(/\/survey\/\d+\/edit#start$/);
  const surveyId = Number(/\/survey\/(\d+)\/edit/.exec(page.url())![1]);
  await page.getByRole("button", { name: "Titel bearbeiten" }).click();
  await page.getByLabel("Titel", { exact: true }).fill("Vollständige E2E-Umfrage");
  await page.getByLabel("Titel", { exact: true }).press("Enter");

  // Patient form with one preliminary question.
  await page.getByRole("tab", { name: "Vorabfragen" }).click();
  await page.getByRole("button", { name: "Vorabfrage hinzufügen" }).click();
  const pre = page.getByRole("dialog", { name: "Vorabfrage hinzufügen" });
  await pre.getByLabel("Titel", { exact: true }).fill("Geschlecht");
  await pre.getByLabel("Eintrag 1", { exact: true }).fill("weiblich");
  await pre.getByLabel("Eintrag 1", { exact: true }).press("Enter");
  await pre.getByLabel("Eintrag 2", { exact: true }).fill("männlich");
  await pre.getByRole("button", { name: "Speichern" }).click();
  await expect(pre).toBeHidden();

  await page.getByRole("tab", { name: /Fragebogen/ }).click();
  await page.getByRole("button", { name: "+ Kategorie hinzufügen" }).click();
  const cat = page.getByRole("dialog", { name: "Kategorie hinzufügen" });
  await cat.getByLabel("Titel der Kategorie").fill("Anamnese");
  await cat.getByRole("button", { name: "Speichern" }).click();
  const category = page.getByTestId("category").filter({ hasText: "Anamnese" });

  // Single selection with a sub-question two levels deep.
  const smoke = await addQuestion(page, category, "Einfachauswahl", "Rauchen Sie?");
  const yes = await addAnswer(page, smoke, "Ja");
  await addAnswer(page, smoke, "Nein");
  await yes.locator("summary[title='Aktionen für Antwort „Ja“']").first().click();
  await page
    .getByRole("group", { name: "Unterfrage hinzufügen" })
    .getByRole("button", { name: "Einfachauswahl" })
    .click();
  const sub = page.getByRole("dialog", { name: "Frage hinzufügen: Einfachauswahl" });
  await sub.getByLabel("Fragetext").fill("Seit wann?");
  await sub.getByRole("button", { name: "Speichern" }).click();
  await expect(sub).toBeHidden();
  const since = page
    .getByTestId("question")
    .filter({ has: page.locator(":scope > .question__row > .question__title", { hasText: /^Seit wann\?$/ }) });
  const long = await addAnswer(page, since, "mehr als 10 Jahre");
  await long.locator("summary[title='Aktionen für Antwort „mehr als 10 Jahre“']").first().click();
  await page.getByRole("group", { name: "Unterfrage hinzufügen" }).getByRole("button", { name: "Freitext" }).click();
  const subsub = page.getByRole("dialog", { name: "Frage hinzufügen: Freitext" });
  await subsub.getByLabel("Fragetext").fill("Welche Marke?");
  await subsub.getByRole("button", { name: "Speichern" }).click();
  await expect(subsub).toBeHidden();
  await expect(page.getByText("Welche Marke?")).toBeVisible();

  // The other kinds; the multiple selection depends on a preliminary answer.
  // Its answers are typed in the question's own modal: Enter goes on to the next.
  const multi = await addQuestion(page, category, "Mehrfachauswahl", "Welche Beschwerden?", async (d) => {
    await d.getByRole("checkbox", { name: "weiblich" }).check();
    await d.getByLabel("Eintrag 1", { exact: true }).fill("Husten");
    await d.getByLabel("Eintrag 1", { exact: true }).press("Enter");
    await d.getByLabel("Eintrag 2", { exact: true }).fill("Atemnot");
  });
  await expect(multi.getByText("nur sichtbar bei Antworten der Vorabfragen")).toBeVisible();
  await expect(multi.getByTestId("answer")).toHaveText([/Husten/, /Atemnot/]);
  await addQuestion(page, category, "Freitext", "Anmerkungen", async (d) => {
    await d.getByRole("checkbox", { name: /Anhänge|Dateianhänge/ }).check();
  });
  await addQuestion(page, category, "Datum und Uhrzeit", "Zeitpunkt der Aufnahme");
  await addQuestion(page, category, "Zahl", "Gewicht", async (d) => {
    await d.getByLabel("Einheit").fill("kg");
  });
  await addQuestion(page, category, "Bild", "Wo schmerzt es?", async (d) => {
    await d.getByLabel("Bild hochladen").setInputFiles({ name: "koerper.png", mimeType: "image/png", buffer: png() });
    await d.getByRole("button", { name: "+ Markierung hinzufügen" }).click();
    await d.getByLabel("Titel der Markierung 1").fill("Knie");
    const handle = d.getByTestId("marker-handle");
    await handle.focus();
    await page.keyboard.press("Shift+ArrowRight");
    await page.keyboard.press("Shift+ArrowDown");
    await d.getByRole("button", { name: "+ Markierung hinzufügen" }).click();
    await d.getByLabel("Titel der Markierung 2").fill("Hüfte");
  });
  await expect(page.getByTestId("question")).toHaveCount(8);
  await expect(page.getByRole("tab", { name: /Fragebogen/ })).not.toContainText("*");

  // Reorder questions (mouse and keyboard dragging are walked in editor-questionnaire.spec.ts).
  await page.waitForLoadState("networkidle");
  await page.getByRole("button", { name: "Gewicht nach oben" }).click();
  const topTitles = category.locator(".question:not(.subquestions .question) > .question__row .question__title");
  await expect(topTitles).toHaveText([
    "Rauchen Sie?",
    "Welche Beschwerden?",
    "Anmerkungen",
    "Gewicht",
    "Zeitpunkt der Aufnahme",
    "Wo schmerzt es?",
  ]);

  // Everything is stored: the API's tree has the sub-question two levels deep and the rule.
  const survey = await page.evaluate(async (id) => (await fetch(`/api/surveys/${id}`)).json(), surveyId);
  const rauchen = survey.Categories[0].Questions[0];
  expect(rauchen.AnswerOptions[0].SubQuestions[0].AnswerOptions[0].SubQuestions[0].Title).toBe("Welche Marke?");
  expect(survey.Categories[0].Questions[1].Dependence.Type).toBe("SHOW");
  const image = survey.Categories[0].Questions.find((q: { Type: string }) => q.Type === "Image");
  const [knie, huefte] = image.AnswerOptions as { Title: string; X: number; Y: number }[];
  expect([knie.Title, huefte.Title]).toEqual(["Knie", "Hüfte"]);
  // Moved by keyboard (Shift+arrows: 0.05 each way) from the default place; the second one was added on a
  // free spot, not on top of the first (the 240 x 160 px image is drawn at its size); both 9 px inside.
  // (0.05 across from 0.05; 0.05 down from 0.057, the top margin of a 160 px high image)
  expect([knie.X, knie.Y]).toEqual([0.1, 0.107]);
  expect(Math.hypot((knie.X - huefte.X) * 240, (knie.Y - huefte.Y) * 160)).toBeGreaterThanOrEqual(32);
  for (const v of [knie.X, knie.Y, huefte.X, huefte.Y]) {
    expect(v).toBeGreaterThan(0.03);
    expect(v).toBeLessThan(0.97);
    expect(Math.round(v * 1000) / 1000).toBe(v);
  }

  // Publish.
  await page.getByRole("link", { name: "Veröffentlichen" }).click();
  // The confirmation lives in the address: a failure here says the page never got there.
  await expect(page).toHaveURL(/\/edit\?confirm=publish$/);
  await page
    .getByRole("dialog", { name: "Umfrage veröffentlichen" })
    .getByRole("button", { name: "Veröffentlichen" })
    .click();
  await expect(page).toHaveURL(/\/surveys$/);
  const row = page.locator(`[data-testid="survey-row"][data-survey-id="${surveyId}"]`);
  await expect(row).toContainText("Vollständige E2E-Umfrage");
  await expect(row).toContainText("Aktiv");

  // Published: the editor is read-only now.
  await page.goto(`/survey/${surveyId}/edit#questionnaire`);
  await expect(page.getByText("Diese Umfrage ist schreibgeschützt")).toBeVisible();
  await expect(page.getByRole("button", { name: "+ Kategorie hinzufügen" })).toHaveCount(0);
});
