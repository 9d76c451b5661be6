import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { expectNoSeriousViolations } from "./axe";
import { signIn } from "./support";

/**
 * Removing a preliminary entry, or a whole preliminary question, takes the show/hide rules that used it with
 * it. The editor names those questions and asks before it happens.
 */

async function surveyWithRule(page: Page) {
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Regeln ${Date.now()}` });
  const gender = await api<{ Id: number; AnswerOptions: { Id: number; Text: string }[] }>(
    page,
    "POST",
    "/patient-attributes/",
    {
      SurveyId: survey.Id,
      Title: "Geschlecht",
      AnswerOptions: [{ Text: "weiblich" }, { Text: "männlich" }],
    },
  );
  const female = gender.AnswerOptions.find((o) => o.Text === "weiblich")!.Id;
  const male = gender.AnswerOptions.find((o) => o.Text === "männlich")!.Id;
  const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Teil 1" });
  const ask = (Title: string, ids: number[]) =>
    api<{ Id: number }>(page, "POST", "/questions", {
      SurveyId: survey.Id,
      CategoryId: category.Id,
      Title,
      Type: "FreeText",
      Dependence: { Type: "SHOW", PreliminaryAnswerOptions: ids },
    });
  const pregnant = await ask("Schwangerschaft?", [female]);
  const both = await ask("Beide", [female, male]);
  return { id: survey.Id, gender, pregnant: pregnant.Id, both: both.Id };
}

const dependence = async (page: Page, surveyId: number, questionId: number) => {
  const survey = await api<{
    Categories: { Questions: { Id: number; Dependence: { PreliminaryAnswerOptions: number[] } | null }[] }[];
  }>(page, "GET", `/surveys/${surveyId}`);
  return survey.Categories.flatMap((c) => c.Questions).find((q) => q.Id === questionId)!.Dependence;
};

test("removing a preliminary entry names the questions that lose their rule and saves only after a yes", async ({
  page,
}) => {
  await signIn(page, "admin");
  const s = await surveyWithRule(page);
  await page.goto(`/survey/${s.id}/edit#preliminary`);
  const row = page.getByTestId("preliminary-question").filter({ hasText: "Geschlecht" });
  await row.getByRole("button", { name: "Bearbeiten" }).click();
  const modal = page.getByRole("dialog", { name: /bearbeiten/ });
  await modal.getByRole("button", { name: "Eintrag 1 entfernen" }).click();
  await modal.getByRole("button", { name: "Speichern" }).click();

  const ask = page.getByRole("dialog", { name: "Anzeigeregeln ändern sich" });
  await expect(ask).toBeVisible();
  await expect(ask.getByTestId("rules-lost")).toContainText("2 Fragen hängen von diesen Einträgen ab:");
  await expectNoSeriousViolations(page, "rules that change, before saving");
  await expect(ask.getByRole("listitem")).toHaveText([
    "„Schwangerschaft?“ verliert ihre Regel und wird dann immer angezeigt.",
    "„Beide“ behält ihre Regel ohne die entfernten Einträge.",
  ]);
  // Back: nothing is saved yet.
  await ask.getByRole("button", { name: "Zurück zur Bearbeitung" }).click();
  await expect(ask).toBeHidden();
  expect(await dependence(page, s.id, s.pregnant)).not.toBeNull();

  await modal.getByRole("button", { name: "Speichern" }).click();
  await ask.getByRole("button", { name: "Trotzdem speichern" }).click();
  await expect(modal).toBeHidden();
  await expect.poll(() => dependence(page, s.id, s.pregnant)).toBeNull();
  const male = s.gender.AnswerOptions.find((o) => o.Text === "männlich")!.Id;
  expect((await dependence(page, s.id, s.both))?.PreliminaryAnswerOptions).toEqual([male]);
});

test("deleting a preliminary question names the rules it takes with it", async ({ page }) => {
  await signIn(page, "admin");
  const s = await surveyWithRule(page);
  await page.goto(`/survey/${s.id}/edit#preliminary`);
  await page
    .getByTestId("preliminary-question")
    .filter({ hasText: "Geschlecht" })
    .getByRole("button", { name: "Löschen" })
    .click();
  const ask = page.getByRole("dialog", { name: /löschen/ });
  await expect(ask.getByRole("listitem")).toHaveText([
    "„Schwangerschaft?“ verliert ihre Regel und wird dann immer angezeigt.",
    "„Beide“ verliert ihre Regel und wird dann immer angezeigt.",
  ]);
});
