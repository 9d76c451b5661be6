import { expect, test } from "@playwright/test";
import { api } from "./api";
import { signIn } from "./support";

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
  await page.getByRole("link", { name: "Veröffentlichen" }).click();
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
