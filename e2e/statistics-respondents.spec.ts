import { expect, test, appUrl } from "./test";
import { strFromU8, unzipSync } from "fflate";
import fs from "node:fs";
import { api } from "./api";
import { expectNoSeriousViolations as check } from "./axe";
import { surveyWithCases } from "./statistics-support";
import { chooseLanguage, signIn } from "./support";

/**
 * The statistics filtered by who answered (docs/decisions/057-patient-links.md): three cases filled by staff and
 * one the patient answered through a one-time link in a browser of their own; the filter chosen by keyboard,
 * kept in the address, the figures and the export following it; in German and in English.
 */

test("the figures and the export filtered by who answered: staff or the patient by link", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const id = await surveyWithCases(page, `Wer antwortet ${Date.now()}`, ["Ja", "Ja", "Ja"]);
  const survey = await api<{
    Categories: { Questions: { Id: number; Title: string; AnswerOptions: { Id: number; Text: string }[] }[] }[];
  }>(page, "GET", `/surveys/${id}`);
  const satisfied = survey.Categories[0].Questions.find((q) => q.Title === "Zufrieden?")!;
  const patientId = `L${id}`;
  const made = await api<{ Token: string; Link: { Id: number } }>(page, "POST", "/patient-links", {
    SurveyId: id,
    PatientId: patientId,
  });

  // The patient, in a browser of their own: the link sets its cookie; they answer "Nein" and submit.
  const patient = await browser.newContext({ baseURL: appUrl() });
  try {
    const opened = await patient.request.get(`/l/${made.Token}`, { maxRedirects: 0 });
    expect(opened.status()).toBe(302);
    const headers = { origin: appUrl() };
    const saved = await patient.request.post("/l/api/question-responses/single-selection", {
      headers,
      data: {
        SurveyId: id,
        PatientId: patientId,
        QuestionId: satisfied.Id,
        AnswerOptionId: satisfied.AnswerOptions.find((o) => o.Text === "Nein")!.Id,
      },
    });
    expect(saved.ok(), await saved.text()).toBe(true);
    const submitted = await patient.request.post(`/l/api/patients/close?surveyId=${id}&patientId=${patientId}`, {
      headers,
    });
    expect(submitted.status()).toBe(204);
  } finally {
    await patient.close();
  }

  await page.goto(`/survey/${id}/statistics`);
  await expect(page.getByText("4 abgeschlossen von 0 angestrebten")).toBeVisible();
  const choices = page.getByRole("table", { name: "Antworten auf Zufrieden?" });
  await expect(choices.getByRole("row", { name: /Nein/ })).toContainText("25,00 %");

  // By keyboard: the filters open, the selector opened with Enter, the link's box ticked with Space, closed again.
  await page.getByText("Filter", { exact: true }).click();
  const selector = page.locator("summary", { hasText: "Beantwortet von" });
  await selector.focus();
  await page.keyboard.press("Enter");
  const byLink = page.getByRole("checkbox", { name: "Patient:in per Link", exact: true });
  await expect(page.getByRole("group", { name: "Beantwortet von" }).getByRole("checkbox")).toHaveCount(3);
  await page.keyboard.press("Tab");
  await expect(page.getByRole("checkbox", { name: "Personal", exact: true })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(byLink).toBeFocused();
  await page.keyboard.press("Space");
  await expect(byLink).toBeChecked();
  await check(page, "statistics, who-answered filter open");
  await selector.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/[?&]respondent=link(&|#|$)/);
  await expect(page.getByText("1 abgeschlossen von 0 angestrebten")).toBeVisible();
  await expect(choices.getByRole("row", { name: /Nein/ })).toContainText("100,00 %");
  // The selector says what it holds, to a screen reader too.
  await expect(selector).toHaveAccessibleDescription("1 gewählt");

  // The export follows the filter: one line, the patient by link, the link's number.
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export (CSV)" }).click();
  const files = unzipSync(new Uint8Array(fs.readFileSync(await (await download).path())));
  const [header, ...rows] = strFromU8(files["responses.csv"])
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n");
  const cells = header.split(";");
  expect(rows).toHaveLength(1);
  const row = rows[0].split(";");
  expect(row[0]).toBe(patientId);
  expect(row[cells.indexOf("Respondent")]).toBe("link");
  expect(row[cells.indexOf("RespondentLink")]).toBe(String(made.Link.Id));
  expect(strFromU8(files["codebook.csv"])).toContain("link = Patient:in per Link");

  // A bookmark of staff's cases only: the three cases staff filled.
  await page.goto(`/survey/${id}/statistics?respondent=staff`);
  await expect(page.getByText("3 abgeschlossen von 0 angestrebten")).toBeVisible();
  await expect(selector).toHaveAccessibleDescription("1 gewählt");
  await expect(page.getByRole("checkbox", { name: "Personal", exact: true, includeHidden: true })).toBeChecked();

  // In English: the same filter in English words.
  await chooseLanguage(page, "English");
  try {
    await page.goto(`/survey/${id}/statistics`);
    await page.getByText("Filters", { exact: true }).click();
    const english = page.locator("summary", { hasText: "Answered by" });
    await english.click();
    await page.getByLabel("The patient, by link", { exact: true }).check();
    await page.getByLabel("The patient, on a handed-over device", { exact: true }).check();
    await english.click();
    await expect(page).toHaveURL(/respondent=link&respondent=handover/);
    await expect(page.getByText("1 completed of 0 targeted")).toBeVisible();
  } finally {
    await chooseLanguage(page, "Deutsch");
  }
});
