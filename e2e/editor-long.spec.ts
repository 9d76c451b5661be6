import { expect, test } from "./test";
import { api } from "./api";
import { signIn } from "./support";

/**
 * A long survey reads well in the editor: questions numbered per category (sub-questions go on from their
 * question), a rule's badge names the answers it depends on, categories fold, titles line up whether or
 * not a move arrow shows, and a dragged card keeps its size.
 */

test("numbers, named rules, folding categories, aligned titles and a drag that keeps the card's size", async ({
  page,
}) => {
  await signIn(page, "admin");
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Lang ${Date.now()}` });
  const gender = await api<{ AnswerOptions: { Id: number; Text: string }[] }>(page, "POST", "/patient-attributes/", {
    SurveyId: survey.Id,
    Title: "Geschlecht",
    AnswerOptions: [{ Text: "weiblich" }, { Text: "divers" }, { Text: "männlich" }],
  });
  const [female, diverse] = gender.AnswerOptions;
  const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Anamnese" });
  const ask = (body: Record<string, unknown>) =>
    api<{ Id: number; AnswerOptions: { Id: number }[] }>(page, "POST", "/questions", {
      SurveyId: survey.Id,
      CategoryId: category.Id,
      ...body,
    });
  await ask({ Title: "Alter", Type: "Numerical" });
  const smoke = await ask({
    Title: "Rauchen Sie?",
    Type: "SingleSelection",
    AnswerOptions: [{ Text: "ja" }, { Text: "nein" }, { Text: "früher" }],
  });
  await api(page, "POST", `/answer-options/${smoke.AnswerOptions[0]!.Id}/sub-question`, {
    SurveyId: survey.Id,
    Title: "Wie viel?",
    Type: "Numerical",
  });
  await api(page, "POST", `/answer-options/${smoke.AnswerOptions[2]!.Id}/sub-question`, {
    SurveyId: survey.Id,
    Title: "Seit wann nicht mehr?",
    Type: "DateTime",
  });
  await ask({
    Title: "Schwangerschaft?",
    Type: "FreeText",
    Dependence: { Type: "SHOW", PreliminaryAnswerOptions: [female!.Id, diverse!.Id] },
  });

  await page.goto(`/survey/${survey.Id}/edit#questionnaire`);
  const card = page.getByTestId("category").filter({ hasText: "Anamnese" });
  const rows = card.locator(".question__row");
  await expect(rows.locator(".question__number")).toHaveText(["1", "2", "2.1", "2.2", "3"]);
  await expect(card.getByTestId("rule-badge")).toHaveText(
    "nur sichtbar bei Antworten der Vorabfragen: weiblich, divers",
  );

  // Titles of the top-level questions line up, the first and the last lacking one arrow each.
  const top = card.locator(":scope > .sortable > li > .question > .question__row .question__title");
  const lefts = await top.evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().left)));
  expect(lefts).toHaveLength(3);
  expect(new Set(lefts).size).toBe(1);

  // A dragged card (a tall one over short ones) keeps its size.
  const tall = card.locator(":scope > .sortable > li").nth(1);
  const before = (await tall.boundingBox())!;
  const handle = tall.getByRole("button", { name: /Rauchen Sie\? verschieben/ });
  const grip = (await handle.boundingBox())!;
  await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
  await page.mouse.down();
  await page.mouse.move(grip.x + grip.width / 2, grip.y - 60, { steps: 8 });
  await expect(tall).toHaveClass(/sortable__item--dragging/);
  const during = (await tall.boundingBox())!;
  expect(Math.abs(during.height - before.height)).toBeLessThanOrEqual(1);
  expect(Math.abs(during.width - before.width)).toBeLessThanOrEqual(1);
  await page.keyboard.press("Escape");
  await page.mouse.up();
  // The drag library swallows clicks until 50 ms after a drag ended (the click a drop would make): a timer
  // of the page's own, set after the library's and longer, has run only once clicks count again.
  await expect(tall).not.toHaveClass(/sortable__item--dragging/);
  await page.evaluate(() => new Promise((clicksCount) => setTimeout(clicksCount, 60)));

  // The category folds away and comes back.
  const fold = card.getByRole("button", { name: "Kategorie „Anamnese“ einklappen" });
  await expect(fold).toHaveAttribute("aria-expanded", "true");
  await fold.click();
  await expect(card.getByTestId("question")).toHaveCount(0);
  await expect(card).toContainText("3 Fragen");
  await card.getByRole("button", { name: "Kategorie „Anamnese“ ausklappen" }).click();
  await expect(card.getByTestId("question")).toHaveCount(5);
});
