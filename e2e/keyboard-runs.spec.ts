import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { chooseLanguage, signIn } from "./support";

// How many Tabs a person presses to reach their work: skip links past the list's filters and to each
// category's "+ Frage hinzufügen", one stop per row with the arrow keys within it (decision 039).

/** Presses Tab until `target` has focus and says how many it took (fails past `max`). */
async function tabsTo(page: Page, target: Locator, max = 120) {
  const handle = await target.elementHandle();
  for (let n = 1; n <= max; n++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((el) => el === document.activeElement, handle)) return n;
  }
  throw new Error(`not reached in ${max} Tabs`);
}

/** Tabs from the page's top: the address loaded afresh (not only its hash changed), nothing focused. */
async function fromTheTop(page: Page, url: string) {
  await page.goto("about:blank");
  await page.goto(url);
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

/** A Draft with categories of choice questions, each question with three answers. */
async function questionnaire(page: Page, title: string, categories: [string, number][]) {
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `${title} ${Date.now()}` });
  for (const [name, questions] of categories) {
    const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: name });
    for (let q = 1; q <= questions; q++) {
      const question = await api<{ Id: number }>(page, "POST", "/questions", {
        SurveyId: survey.Id,
        CategoryId: category.Id,
        Title: `${name}, Frage ${q}`,
        Type: "SingleSelection",
      });
      for (const Text of ["ja", "nein", "weiß nicht"])
        await api(page, "POST", "/answer-options", { SurveyId: survey.Id, QuestionId: question.Id, Text });
    }
  }
  return survey.Id;
}

test("the editor: the tabs to a category's '+ Frage hinzufügen', one stop per row", async ({ page }) => {
  await signIn(page, "editor");
  const id = await questionnaire(page, "Tabs", [
    ["Anamnese", 2],
    ["Befund", 1],
  ]);
  // Opened with a tab's hash, the Tab key starts at the page's top too, not in the tab's panel the address
  // named before the page ran: past the header's stops to the title's ✎.
  for (const tab of ["start", "questionnaire"]) {
    await fromTheTop(page, `/survey/${id}/edit#${tab}`);
    const toTitle = await tabsTo(page, page.getByRole("button", { name: "Titel bearbeiten" }));
    test.info().annotations.push({ type: `Tabs from the top to ✎ (#${tab})`, description: String(toTitle) });
    expect(toTitle).toBeLessThanOrEqual(8);
  }

  const categories = page.getByTestId("category");
  const add = (i: number) => categories.nth(i).locator("summary[title='Frage hinzufügen']");
  // From the tab, through the tabs after it ("Abschluss", "Sprachen") and the rows of the first category: the
  // category, each question, each answer, the field for a new answer: one Tab each.
  await page.getByRole("tab", { name: /Fragebogen/ }).focus();
  const through = await tabsTo(page, add(0));
  test.info().annotations.push({ type: "Tabs from the tab to '+ Frage hinzufügen'", description: String(through) });
  expect(through).toBe(3 + 1 + 1 + 2 * (1 + 3 + 1));

  // The category's skip link: one Tab past the tabs, Enter, and the menu's button has focus.
  await page.getByRole("tab", { name: /Fragebogen/ }).focus();
  const skip = categories.nth(0).getByRole("link", { name: "Weiter zu „Frage hinzufügen“ in „Anamnese“" });
  expect(await tabsTo(page, skip)).toBe(3);
  await page.keyboard.press("Enter");
  await expect(add(0)).toBeFocused();
  // The second category's link comes right after the first one's button.
  await page.keyboard.press("Tab");
  await expect(categories.nth(1).getByRole("link", { name: "Weiter zu „Frage hinzufügen“ in „Befund“" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(add(1)).toBeFocused();

  // Within a row the arrow keys move, and Tab goes on to the next row where the row was left.
  const answers = categories.nth(0).getByTestId("answer");
  const row = answers.nth(0).getByRole("toolbar", { name: "ja" });
  await row.getByRole("button", { name: /^ja verschieben/ }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(row.getByRole("button", { name: "ja nach unten" })).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(row.locator("summary[title='Aktionen für Antwort „ja“']")).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(row.getByRole("button", { name: /^ja verschieben/ })).toBeFocused();
  await page.keyboard.press("End");
  await expect(row.locator("summary[title='Aktionen für Antwort „ja“']")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(answers.nth(1).getByRole("button", { name: /^nein verschieben/ })).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(row.locator("summary[title='Aktionen für Antwort „ja“']")).toBeFocused();
  // The menu opens from there and its items are its own: Escape gives focus back to its button.
  await page.keyboard.press("Enter");
  await expect(row.getByRole("button", { name: "Bearbeiten" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(row.locator("summary[title='Aktionen für Antwort „ja“']")).toBeFocused();
});

test("the survey list: a skip link past the filters, one stop per survey", async ({ page }) => {
  await signIn(page, "editor");
  const stamp = `Reihe ${Date.now()}`;
  for (let i = 1; i <= 14; i++)
    await api(page, "POST", "/surveys", { Title: `${stamp} ${String(i).padStart(2, "0")}` });
  const url = `/surveys?q=${encodeURIComponent(stamp)}`;
  const rows = page.getByTestId("survey-row");
  const fourteenth = rows.nth(13).getByTestId("row-title");

  await fromTheTop(page, url);
  await expect(rows).toHaveCount(14);
  const plain = await tabsTo(page, fourteenth);
  test.info().annotations.push({ type: "Tabs from the top to the 14th survey", description: String(plain) });
  expect(plain).toBeLessThanOrEqual(28);

  await fromTheTop(page, url);
  const skip = page.getByRole("link", { name: "Weiter zur Liste der Umfragen" });
  const toSkip = await tabsTo(page, skip);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("list", { name: "14 Umfragen" })).toBeFocused();
  const skipped = toSkip + (await tabsTo(page, fourteenth));
  test.info().annotations.push({ type: "Tabs to the 14th survey by the skip link", description: String(skipped) });
  // The header's stops and the skip link, then one Tab per survey.
  expect(skipped).toBeLessThanOrEqual(7 + 14);

  // The row's menu is one arrow key away, and Tab leaves the row.
  await page.keyboard.press("ArrowRight");
  await expect(rows.nth(13).locator("summary")).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(fourteenth).toBeFocused();
});

test("in English: the skip links speak English", async ({ page }) => {
  await signIn(page, "editor");
  const id = await questionnaire(page, "Tabs en", [["History", 1]]);
  await chooseLanguage(page, "English");
  try {
    await page.getByRole("link", { name: "Skip to the list of surveys" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.locator("#survey-list")).toBeFocused();
    await page.goto(`/survey/${id}/edit#questionnaire`);
    await page.getByRole("link", { name: "Skip to “Add question” in “History”" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("category").locator("summary[title='Add question']")).toBeFocused();
  } finally {
    await page.goto("/surveys");
    await chooseLanguage(page, "Deutsch");
  }
});
