import { expect, test } from "./test";
import { api } from "./api";
import { holdScripts, signIn } from "./support";

/**
 * Before the confirmation, the approver sees every problem and what is being released; a choice question
 * without answers keeps the survey from being published, with JavaScript and without.
 */

test("the publish dialog lists the problems, keeps its button off while one blocks, and sums up what is released", async ({
  page,
  browser,
}) => {
  await signIn(page, "admin");
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Vorabprüfung ${Date.now()}` });
  const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Teil 1" });
  await api(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Noch leer" });
  const choice = await api<{ Id: number }>(page, "POST", "/questions", {
    SurveyId: survey.Id,
    CategoryId: category.Id,
    Title: "Befinden",
    Type: "SingleSelection",
  });

  await page.goto(`/survey/${survey.Id}/edit`);
  await page.getByRole("link", { name: "Veröffentlichen", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Umfrage veröffentlichen" });
  await expect(dialog.getByTestId("publish-problems")).toHaveText("Die Auswahlfrage „Befinden“ hat keine Antworten.");
  await expect(dialog.getByTestId("publish-notes")).toContainText("Die Kategorie „Noch leer“ hat keine Frage");
  await expect(dialog.getByRole("button", { name: "Veröffentlichen" })).toBeDisabled();

  // Without JavaScript the same dialog comes from the server.
  const plain = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  const noScript = await plain.newPage();
  await noScript.goto(`/survey/${survey.Id}/edit?confirm=publish`);
  await expect(noScript.getByTestId("publish-problems")).toContainText("„Befinden“ hat keine Antworten");
  await expect(noScript.getByRole("button", { name: "Veröffentlichen" })).toBeDisabled();
  await plain.close();

  await api(page, "POST", "/answer-options", { SurveyId: survey.Id, QuestionId: choice.Id, Text: "gut" });
  await page.goto(`/survey/${survey.Id}/edit?confirm=publish`);
  await expect(dialog.getByTestId("publish-problems")).toHaveCount(0);
  await expect(dialog.getByTestId("publish-summary")).toHaveText(
    "Veröffentlicht werden 2 Kategorien, 1 Frage, 0 Anzeigeregeln und 0 Vorabfragen.",
  );
  await dialog.getByRole("button", { name: "Veröffentlichen" }).click();
  await expect(page).toHaveURL(/\/surveys$/);
  expect((await api<{ Status: string }>(page, "GET", `/surveys/${survey.Id}`)).Status).toBe("Active");
});

test("the editor sees each problem where it is while editing: on the question, on the tab, listed on the start tab", async ({
  page,
}) => {
  await signIn(page, "editor");
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Beim Bearbeiten ${Date.now()}` });
  const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Teil 1" });
  await api(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Noch leer" });
  const choice = await api<{ Id: number }>(page, "POST", "/questions", {
    SurveyId: survey.Id,
    CategoryId: category.Id,
    Title: "Befinden",
    Type: "SingleSelection",
  });

  await page.goto(`/survey/${survey.Id}/edit`);
  const check = page.getByTestId("draft-check");
  await expect(check.getByRole("heading", { name: "Vor dem Veröffentlichen" })).toBeVisible();
  await expect(check.getByTestId("draft-problems")).toHaveText("Die Auswahlfrage „Befinden“ hat keine Antworten.");
  await expect(check.getByTestId("draft-notes")).toContainText("Die Kategorie „Noch leer“ hat keine Frage");
  const questionnaireTab = page.getByRole("tab", { name: /Fragebogen/ });
  await expect(questionnaireTab).toHaveAccessibleName(/^Fragebogen\s*\*\s*Vor dem Veröffentlichen zu beheben$/);

  // The problem's link leads to the questionnaire, where the question wears its badge.
  await check.getByRole("link", { name: /„Befinden“ hat keine Antworten/ }).click();
  await expect(questionnaireTab).toHaveAttribute("aria-selected", "true");
  const question = page.locator(`[data-question-id="${choice.Id}"]`);
  await expect(question.getByTestId("problem-badge")).toHaveText("Keine Antworten");

  // Fixed: the badge goes, the tab's mark too, and the start tab says it can be published.
  await api(page, "POST", "/answer-options", { SurveyId: survey.Id, QuestionId: choice.Id, Text: "gut" });
  await page.reload();
  await expect(question.getByTestId("problem-badge")).toHaveCount(0);
  await page.getByRole("tab", { name: /Start/ }).click();
  await expect(check.getByTestId("draft-ready")).toHaveText("Die Umfrage kann so veröffentlicht werden.");
  await expect(page.getByRole("tab", { name: /Fragebogen/ })).toHaveAccessibleName("Fragebogen");
});

test("the publish dialog of a survey that starts later says from when people can fill it", async ({ page }) => {
  await signIn(page, "admin");
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Später ${Date.now()}` });
  const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Teil 1" });
  await api(page, "POST", "/questions", {
    SurveyId: survey.Id,
    CategoryId: category.Id,
    Title: "Notiz",
    Type: "FreeText",
  });
  await api(page, "PUT", `/surveys/${survey.Id}`, { StartDate: "01.03.2099", EndDate: "31.12.2099" });
  await page.goto(`/survey/${survey.Id}/edit?confirm=publish`);
  const dialog = page.getByRole("dialog", { name: "Umfrage veröffentlichen" });
  await expect(dialog).toContainText("ab dem 01.03.2099 ausfüllen");
  await expect(dialog).not.toContainText("Nach der Veröffentlichung können Nutzende die Umfrage ausfüllen;");
});

test.describe("while the page's scripts load", () => {
  // The scripts are held back below; a worker would answer them from its cache instead.
  test.use({ serviceWorkers: "block" });

  test("the editor's header buttons stay where they are when the scripts arrive", async ({ page }) => {
    await signIn(page, "admin");
    const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Kopfzeile ${Date.now()}` });
    const release = await holdScripts(page, true);
    await page.goto(`/survey/${survey.Id}/edit`, { waitUntil: "commit" });
    // The page as drawn: read whole, its stylesheets and fonts in (a box read before is an unstyled one).
    await page.waitForFunction(
      () =>
        document.readyState !== "loading" &&
        [...document.querySelectorAll<HTMLLinkElement>("link[rel=stylesheet]")].every((link) => link.sheet) &&
        document.fonts.status === "loaded",
    );
    await expect(page.getByTestId("editor-trail")).toBeVisible();
    const before = await Promise.all(
      [page.getByTestId("editor-trail"), page.getByRole("link", { name: "Veröffentlichen", exact: true })].map((l) =>
        l.boundingBox(),
      ),
    );
    release();
    // The preview comes with the scripts; a pointer about to press the change log still finds it there.
    await expect(page.getByRole("button", { name: "Vorschau", exact: true })).toBeVisible();
    const after = await Promise.all(
      [page.getByTestId("editor-trail"), page.getByRole("link", { name: "Veröffentlichen", exact: true })].map((l) =>
        l.boundingBox(),
      ),
    );
    expect(after).toEqual(before);
  });

  test("a title typed before the scripts ran is kept, open for editing, and saved with Enter", async ({ page }) => {
    await signIn(page, "admin");
    const title = `Frühe Eingabe ${Date.now()}`;
    const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: title });
    const release = await holdScripts(page, true);
    await page.goto(`/survey/${survey.Id}/edit`, { waitUntil: "commit" });
    const early = page.getByLabel("Titel", { exact: true });
    await early.click();
    await early.press("End");
    await early.pressSequentially(" Station 4");
    release();
    await expect(page.getByRole("button", { name: "Vorschau", exact: true })).toBeVisible();
    // The heading that replaces the field opens with what was typed, the caret at its end.
    const field = page.getByRole("textbox", { name: "Titel" });
    await expect(field).toHaveValue(`${title} Station 4`);
    await expect(field).toBeFocused();
    await field.press("End");
    await field.pressSequentially("B");
    await field.press("Enter");
    await expect(page.getByTestId("survey-title")).toHaveText(`${title} Station 4B`);
    await expect
      .poll(async () => (await api<{ Title: string }>(page, "GET", `/surveys/${survey.Id}`)).Title)
      .toBe(`${title} Station 4B`);
  });
});
