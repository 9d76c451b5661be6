import { expect, test } from "./test";
import { api, publishedSurvey } from "./api";
import { expectNoSeriousViolations } from "./axe";
import { accounts, signIn } from "./support";

/**
 * The patient named in staff's pages (docs/decisions/057-patient-links.md): a link's case, answered and
 * submitted by the link's caller through /l/api, waits on the start page as "submitted by the patient – to
 * review"; the fill page's header says so; staff close it there; the history names the patient as the author
 * of the answer and of the submit.
 */

test("a case the patient submitted waits for review, staff close it, the history names the patient", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const surveyId = await publishedSurvey(
    page,
    `Prüfung ${Date.now()}`,
    [{ Title: "Befinden", Type: "SingleSelection", answers: ["gut", "schlecht"] }],
    { PatientSubmitReview: true },
  );
  const patientId = `REVIEW_${Date.now()}`;
  const made = await api<{ Link: { Id: number }; Token: string }>(page, "POST", "/patient-links", {
    SurveyId: surveyId,
    PatientId: patientId,
  });
  const survey = await api<{
    Categories: { Questions: { Id: number; AnswerOptions: { Id: number; Text: string }[] }[] }[];
  }>(page, "GET", `/surveys/${surveyId}`);
  const befinden = survey.Categories[0].Questions[0];
  const schlecht = befinden.AnswerOptions.find((o) => o.Text === "schlecht")!;

  // The patient's phone: opening the link sets its cookie; the answer and the submit go through /l/api.
  const context = await browser.newContext({ locale: "de-DE" });
  const patient = await context.newPage();
  await patient.goto(`/l/${made.Token}`);
  await expect(patient).toHaveURL(/\/l\/fill$/);
  const statuses = await patient.evaluate(
    async ([sid, pid, qid, oid]) => {
      const saved = await fetch("/l/api/question-responses/single-selection", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ SurveyId: sid, PatientId: pid, QuestionId: qid, AnswerOptionId: oid }),
      });
      const closed = await fetch(`/l/api/patients/close?surveyId=${sid}&patientId=${encodeURIComponent(pid)}`, {
        method: "POST",
      });
      return [saved.status, closed.status];
    },
    [surveyId, patientId, befinden.Id, schlecht.Id] as const,
  );
  expect(statuses).toEqual([200, 204]);
  await context.close();

  // The start page lists the case as submitted by the patient, to review; the words are in its link's name.
  await page.goto(`/survey/${surveyId}`);
  const entry = page.getByTestId("latest-response").filter({ hasText: patientId });
  await expect(entry.getByTestId("latest-to-review")).toHaveText("Von Patient:in abgeschickt – zur Prüfung");
  const open = entry.getByRole("link", { name: new RegExp(`${patientId}.*Von Patient:in abgeschickt – zur Prüfung`) });
  await expect(open).toBeVisible();
  await expectNoSeriousViolations(page, "start page with a case to review");

  // By keyboard to the case: its header says the same; staff close it as any open case.
  await open.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/fill/${patientId}`));
  await expect(page.getByTestId("fill-to-review")).toContainText("Von Patient:in abgeschickt – zur Prüfung");
  await expectNoSeriousViolations(page, "fill page of a case to review");
  await page.goto(`/survey/${surveyId}/fill/${patientId}?page=questionnaire`);
  await expect(page.getByLabel("schlecht")).toBeChecked();
  await page.getByTestId("submit-survey").click();
  await expect(page.getByText("Ihre Angaben wurden gespeichert.")).toBeVisible();
  const record = await api<{ State: string }>(page, "GET", `/patients?patientId=${patientId}&surveyId=${surveyId}`);
  expect(record.State).toBe("Closed");
  await page.goto(`/survey/${surveyId}`);
  await expect(page.getByTestId("latest-response").filter({ hasText: patientId })).toHaveCount(0);

  // The history: the patient answered and submitted, staff closed.
  await page.goto(`/survey/${surveyId}/history?patientId=${patientId}`);
  const patientName = `Patient:in (Link ${made.Link.Id})`;
  const answers = page.getByRole("table", { name: "Befinden" }).locator("tbody tr");
  await expect(answers).toHaveCount(1);
  await expect(answers.first().locator("td").nth(1)).toHaveText("schlecht");
  await expect(answers.first().locator("td").nth(2)).toHaveText(patientName);
  const events = page
    .getByRole("table", { name: "Wer den Fall abgeschickt und abgeschlossen hat" })
    .locator("tbody tr");
  await expect(events).toHaveCount(2);
  await expect(events.nth(0).locator("td").nth(1)).toHaveText("Von Patient:in abgeschickt – zur Prüfung");
  await expect(events.nth(0).locator("td").nth(2)).toHaveText(patientName);
  await expect(events.nth(1).locator("td").nth(1)).toHaveText("Abgeschlossen");
  await expect(events.nth(1).locator("td").nth(2)).toHaveText(accounts.admin.fullName);
  await expectNoSeriousViolations(page, "history naming the patient");
});
