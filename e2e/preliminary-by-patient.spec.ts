import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { expectNoSeriousViolations } from "./axe";
import { chooseLanguage, signIn } from "./support";

/**
 * The preliminary questions answered by the patient (docs/decisions/058-hand-over.md): the editor's setting,
 * switched by keyboard; then staff hand the device over before the preliminary page and the patient answers it
 * by keyboard; a patient's link starts with the preliminary page too. The hand-over's start and end are steps
 * of the case's history.
 */

interface Made {
  id: number;
  attribute: string;
}

/** A survey with one preliminary question and one question; the setting switched on in the editor by keyboard. */
async function surveyByPatient(page: Page, title: string): Promise<Made> {
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: title });
  const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Teil 1" });
  const question = await api<{ Id: number }>(page, "POST", "/questions", {
    SurveyId: survey.Id,
    CategoryId: category.Id,
    Title: "Befinden",
    Type: "SingleSelection",
  });
  for (const text of ["gut", "schlecht"])
    await api(page, "POST", "/answer-options", { SurveyId: survey.Id, QuestionId: question.Id, Text: text });
  const attribute = "Wohnsituation";
  await api(page, "POST", "/patient-attributes", {
    SurveyId: survey.Id,
    Title: attribute,
    AnswerOptions: [{ Text: "allein" }, { Text: "mit anderen" }],
  });
  await api(page, "PUT", `/surveys/${survey.Id}`, { IsPatientFormEnabled: true });

  await page.goto(`/survey/${survey.Id}/edit`);
  const setting = page.getByLabel("Vorbefragung durch Patient:in");
  await expect(setting).not.toBeChecked();
  await setting.focus();
  await page.keyboard.press("Space");
  await expect(setting).toBeChecked();
  await expect
    .poll(
      async () =>
        (await api<{ PreliminaryByPatient: boolean }>(page, "GET", `/surveys/${survey.Id}`)).PreliminaryByPatient,
    )
    .toBe(true);
  await api(page, "POST", `/surveys/${survey.Id}/approve`);
  return { id: survey.Id, attribute };
}

/** Answers the preliminary page by keyboard: the first answer, then "Weiter". */
async function answerPreliminary(page: Page, made: Made, answer: string) {
  const group = page.getByRole("group", { name: made.attribute });
  await expect(group).toBeVisible();
  await group.getByLabel(answer, { exact: true }).focus();
  await page.keyboard.press("Space");
  await expect(group.getByLabel(answer, { exact: true })).toBeChecked();
  const next = page.getByRole("button", { name: "Weiter" });
  await expect(next).toBeEnabled();
  await next.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("radiogroup", { name: "Befinden" })).toBeVisible();
}

const trailWords = {
  de: {
    table: /Änderungen an Aufbau/,
    start: "Gerät an Patient:in übergeben",
    end: "Gerät an das Personal zurückgegeben",
    entity: "Übergabe",
    way: /Zurückgegeben durch:.*PIN/,
  },
  en: {
    table: /Changes to the survey.s structure/,
    start: "Device handed to the patient",
    end: "Device returned to staff",
    entity: "Hand-over",
    way: /Returned by:.*PIN/,
  },
} as const;

async function readTrail(page: Page, surveyId: number, w: (typeof trailWords)[keyof typeof trailWords]) {
  await page.goto(`/survey/${surveyId}/trail`);
  const rows = page.getByRole("table", { name: w.table }).locator("tbody tr");
  const byAction = (action: string) =>
    rows.filter({ has: page.locator("td:nth-child(3)", { hasText: new RegExp(`^${action}$`) }) });
  await expect(byAction(w.start)).toHaveCount(1);
  await expect(byAction(w.start).locator("td:nth-child(4)")).toHaveText(w.entity);
  await expect(byAction(w.end)).toHaveCount(1);
  await expect(byAction(w.end).locator("td:nth-child(5)")).toContainText(w.way);
}

test("the patient answers the preliminary questions on a handed-over device and through their link", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  await signIn(page, "admin");
  const made = await surveyByPatient(page, `Vorbefragung ${Date.now()}`);
  const patientId = `PBP_${Date.now()}`;
  await api(page, "POST", `/patients/add?patientId=${patientId}&surveyId=${made.id}`);

  // Staff hand the device over on the preliminary page, by keyboard.
  await page.goto(`/survey/${made.id}/fill/${patientId}?page=preliminary`);
  await expect(page.getByRole("group", { name: made.attribute })).toBeVisible();
  const open = page.getByTestId("handover-open");
  await open.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel(/^PIN$/).focus();
  await page.keyboard.type("4826");
  await page.keyboard.press("Tab");
  await expect(dialog.getByLabel("PIN wiederholen")).toBeFocused();
  await page.keyboard.type("4826");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("handover-bar")).toBeVisible();

  // The patient answers the preliminary question, by keyboard, and comes to the questionnaire.
  await expectNoSeriousViolations(page, "preliminary page handed to the patient");
  await answerPreliminary(page, made, "allein");
  const given = await page.evaluate(
    async ([sid, pid]) =>
      (await fetch(`/api/attribute-responses?surveyId=${sid}&patientId=${encodeURIComponent(pid)}`)).json(),
    [made.id, patientId] as const,
  );
  expect(given).toHaveLength(1);

  // Back to staff by the PIN; the case's history names the hand-over and who answered.
  await page.getByTestId("handover-return").click();
  await page.getByLabel("PIN", { exact: true }).fill("4826");
  await page.getByTestId("handover-pin-submit").click();
  await expect(page.getByTestId("handover-open")).toBeVisible();
  const record = await api<{ Respondent?: string }>(
    page,
    "GET",
    `/patients?patientId=${patientId}&surveyId=${made.id}`,
  );
  expect(record.Respondent).toBe("handover");
  await page.goto(`/survey/${made.id}/history?patientId=${patientId}`);
  const steps = page.getByTestId("history-events");
  await expect(steps).toContainText("Gerät an Patient:in übergeben");
  await expect(steps).toContainText("Gerät an das Personal zurückgegeben (PIN)");
  // The survey's trail names both steps and how the device came back, in German and in English.
  await readTrail(page, made.id, trailWords.de);
  await chooseLanguage(page, "English");
  try {
    await readTrail(page, made.id, trailWords.en);
  } finally {
    await chooseLanguage(page, "Deutsch");
  }

  // A link of the same survey starts with the preliminary page, answered by keyboard on the patient's phone.
  const linkCase = `PBL_${Date.now()}`;
  const link = await api<{ Token: string }>(page, "POST", "/patient-links", { SurveyId: made.id, PatientId: linkCase });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "de-DE" });
  const phone = await context.newPage();
  await phone.goto(`/l/${link.Token}`);
  await expect(phone).toHaveURL(/\/l\/fill$/);
  await expectNoSeriousViolations(phone, "link's preliminary page");
  await answerPreliminary(phone, made, "mit anderen");
  // Opened again, the link goes on past the preliminary page: it was saved.
  await phone.goto("/l/fill");
  await expect(phone.getByRole("radiogroup", { name: "Befinden" })).toBeVisible();
  await context.close();
  const saved = await api<{ PatientFormAnswerOptionId: number }[]>(
    page,
    "GET",
    `/attribute-responses?surveyId=${made.id}&patientId=${linkCase}`,
  );
  expect(saved).toHaveLength(1);
});

test("without JavaScript the link's preliminary page is a form, saved with the same rules", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await signIn(page, "admin");
  const made = await surveyByPatient(page, `Vorbefragung ohne Skript ${Date.now()}`);
  const patientId = `PBN_${Date.now()}`;
  const link = await api<{ Token: string }>(page, "POST", "/patient-links", {
    SurveyId: made.id,
    PatientId: patientId,
  });
  const context = await browser.newContext({ javaScriptEnabled: false, locale: "de-DE" });
  const phone = await context.newPage();
  await phone.goto(`/l/${link.Token}`);
  await expect(phone).toHaveURL(/\/l\/fill$/);
  const group = phone.getByRole("group", { name: made.attribute });
  await expect(group).toBeVisible();
  // Continuing with the question unanswered stays on the page and says why.
  await phone.getByRole("button", { name: "Weiter" }).click();
  await expect(phone.getByRole("alert")).toHaveText("Bitte beantworten Sie alle Fragen, um fortzufahren.");
  await expect(group).toBeVisible();
  // An address cannot skip it either.
  await phone.goto("/l/fill?page=questionnaire");
  await expect(group).toBeVisible();
  await group.getByLabel("mit anderen", { exact: true }).check();
  await phone.getByRole("button", { name: "Weiter" }).click();
  await expect(phone.getByRole("radiogroup", { name: "Befinden" })).toBeVisible();
  await context.close();
  const saved = await api<unknown[]>(page, "GET", `/attribute-responses?surveyId=${made.id}&patientId=${patientId}`);
  expect(saved).toHaveLength(1);
});
