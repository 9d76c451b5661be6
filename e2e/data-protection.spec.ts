import { expect, test } from "./test";
import { api, publishedSurvey } from "./api";
import { expectNoSeriousViolations as check } from "./axe";
import { openCase, question } from "./fill-support";
import { chooseLanguage, openDatabase, signIn } from "./support";

/**
 * Retention and erasure as people use them (docs/decisions/042-retention-and-erasure.md): the retention period
 * set on the start tab and said on the start page; a patient id's data shown, printable and downloaded; its
 * erasure confirmed in a dialog that names what goes, by keyboard; a second erasure refused with a message.
 */

test("retention on the start tab and the start page; a patient's data shown, downloaded and erased", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await signIn(page, "admin");
  const title = `Datenschutz ${Date.now()}`;
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: title });
  const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Teil 1" });
  const created = await api<{ Id: number }>(page, "POST", "/questions", {
    SurveyId: survey.Id,
    CategoryId: category.Id,
    Title: "Befinden",
    Type: "SingleSelection",
  });
  for (const Text of ["gut", "schlecht"]) {
    await api(page, "POST", "/answer-options", { SurveyId: survey.Id, QuestionId: created.Id, Text, IsExitAnswer: false });
  }

  // The start tab: ten years after closing.
  await page.goto(`/survey/${survey.Id}/edit`);
  const unit = page.getByLabel("Fälle aufbewahren");
  await unit.selectOption("years");
  const amount = page.getByLabel("Anzahl", { exact: true });
  await amount.fill("10");
  await amount.blur();
  await expect.poll(async () => (await api<{ RetentionMonths: number }>(page, "GET", `/surveys/${survey.Id}`)).RetentionMonths).toBe(120);
  await api(page, "POST", `/surveys/${survey.Id}/approve`);
  await page.goto(`/survey/${survey.Id}`);
  await expect(page.getByTestId("start-retention")).toHaveText(
    "Abgeschlossene Fälle dieser Umfrage werden 10 Jahre nach dem Abschluss gelöscht.",
  );

  // A case, answered on the fill page.
  const user = await browser.newPage();
  await signIn(user, "user");
  await openCase(user, survey.Id, "DSGVO_1");
  await question(user, "Befinden").getByLabel("schlecht").check();
  await expect(user.getByTestId("fill")).not.toHaveAttribute("aria-busy", "true");

  // The data page, from the case history's link.
  await page.goto(`/survey/${survey.Id}/history`);
  await page.getByRole("link", { name: "Daten einer Patienten-ID zeigen oder löschen" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Gespeicherte Daten einer Patienten-ID");
  await page.getByRole("textbox", { name: "Patienten-ID" }).fill("DSGVO_1");
  await page.getByRole("button", { name: "Daten anzeigen" }).click();
  await expect(page).toHaveURL(/data\?patientId=DSGVO_1$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Gespeicherte Daten zur Patienten-ID DSGVO_1");
  await expect(page.getByTestId("data-answers")).toContainText("schlecht");
  await check(page, "patient data");
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Herunterladen (JSON)" }).click()]);
  const text = await (await file.createReadStream()).toArray();
  const downloaded = JSON.parse(Buffer.concat(text).toString("utf8")) as { PatientId: string; Answers: unknown[] };
  expect(downloaded.PatientId).toBe("DSGVO_1");
  expect(downloaded.Answers).toHaveLength(1);
  // Printed on A4 without the page's controls.
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("button", { name: "Drucken" })).toBeHidden();
  await expect(page.getByTestId("data-answers")).toBeVisible();
  await page.emulateMedia({ media: "screen" });

  // The erasure, by keyboard: the reason, then the dialog naming what goes, starting on the safe choice.
  await page.getByLabel("Einwilligung widerrufen").check();
  await page.getByTestId("erase-open").focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Daten zur Patienten-ID DSGVO_1 löschen?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("erase-what")).toContainText("1 Antwort");
  await expect(dialog.getByRole("link", { name: "Abbrechen" })).toBeFocused();
  await check(page, "erase dialog");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("data-answers")).toBeVisible();

  await page.getByTestId("erase-open").click();
  await dialog.getByRole("button", { name: "Endgültig löschen" }).click();
  await expect(page.getByText("Die Daten zur Patienten-ID DSGVO_1 wurden gelöscht.")).toBeVisible();
  // The page stays on the patient id and says, in the page, when and why its data went.
  await expect(page).toHaveURL(new RegExp(`/survey/${survey.Id}/data\\?patientId=DSGVO_1$`));
  const erasedNote =
    /^Die Daten zur Patienten-ID DSGVO_1 wurden am \d{2}\.\d{2}\.\d{4} \d{2}:\d{2}(:\d{2})? gelöscht\. Grund: Einwilligung widerrufen\.$/;
  await expect(page.getByTestId("erased-note")).toHaveText(erasedNote);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Gespeicherte Daten zur Patienten-ID DSGVO_1");
  await expect(page.getByTestId("data-answers")).toHaveCount(0);

  // Asked again: nothing there, and said so in the page, not in a passing message over an empty form.
  await page.goto(`/survey/${survey.Id}/data`);
  await page.getByRole("textbox", { name: "Patienten-ID" }).fill("DSGVO_1");
  await page.getByRole("button", { name: "Daten anzeigen" }).click();
  await expect(page).toHaveURL(/data\?patientId=DSGVO_1$/);
  await expect(page.getByTestId("erased-note")).toHaveText(erasedNote);
  await expect(page.getByRole("textbox", { name: "Patienten-ID" })).toHaveValue("DSGVO_1");
  await expect(page.getByTestId("toast")).toHaveCount(0);
  await check(page, "patient data, erased");
  // The case history says the same.
  await page.goto(`/survey/${survey.Id}/history?patientId=DSGVO_1`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Verlauf des Falls DSGVO_1");
  await expect(page.getByTestId("erased-note")).toHaveText(erasedNote);
  await expect(page.getByTestId("toast")).toHaveCount(0);
  // And in English.
  await chooseLanguage(page, "English");
  await expect(page.getByTestId("erased-note")).toHaveText(
    /^The data of patient id DSGVO_1 was erased on \d{2}\.\d{2}\.\d{4} \d{2}:\d{2}(:\d{2})?\. Reason: consent withdrawn\.$/,
  );
  await page.goto(`/survey/${survey.Id}/data?patientId=DSGVO_1`);
  await expect(page.getByTestId("erased-note")).toContainText("Reason: consent withdrawn.");
  await chooseLanguage(page, "Deutsch");
  const verdict = await api<{ Ok: boolean; Erased?: number }>(page, "GET", `/audit-log/verify?surveyId=${survey.Id}`);
  expect(verdict.Ok).toBe(true);
  expect(verdict.Erased).toBeGreaterThan(0);
});

test("without JavaScript, an approver erases a case through the confirmation the server renders", async ({ browser }) => {
  test.setTimeout(120_000);
  const admin = await browser.newPage();
  await signIn(admin, "admin");
  const title = `Löschen ohne Skript ${Date.now()}`;
  const survey = await api<{ Id: number }>(admin, "POST", "/surveys", { Title: title });
  const category = await api<{ Id: number }>(admin, "POST", "/categories", { SurveyId: survey.Id, Title: "Teil 1" });
  const created = await api<{ Id: number }>(admin, "POST", "/questions", {
    SurveyId: survey.Id,
    CategoryId: category.Id,
    Title: "Befinden",
    Type: "SingleSelection",
  });
  for (const Text of ["gut", "schlecht"]) {
    await api(admin, "POST", "/answer-options", { SurveyId: survey.Id, QuestionId: created.Id, Text, IsExitAnswer: false });
  }
  await api(admin, "POST", `/surveys/${survey.Id}/approve`);
  await openCase(admin, survey.Id, "NOJS_1");
  await question(admin, "Befinden").getByLabel("gut").check();
  await expect(admin.getByTestId("fill")).not.toHaveAttribute("aria-busy", "true");

  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, "approver");
  await page.goto(`/survey/${survey.Id}/data?patientId=NOJS_1`);
  await expect(page.getByTestId("data-answers")).toContainText("gut");
  await page.getByLabel("falsche Patientin / falscher Patient").check();
  await page.getByTestId("erase-open").click();
  await expect(page).toHaveURL(/erase=wrongPatient/);
  const dialog = page.getByRole("dialog", { name: "Daten zur Patienten-ID NOJS_1 löschen?" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("falsche Patientin / falscher Patient");
  await dialog.getByRole("button", { name: "Endgültig löschen" }).click();
  // Back on the patient id, which says when and why its data went; asked again, the same.
  await expect(page).toHaveURL(new RegExp(`/survey/${survey.Id}/data\\?patientId=NOJS_1$`));
  await expect(page.getByTestId("erased-note")).toContainText("Grund: falsche Patientin / falscher Patient.");
  await page.goto(`/survey/${survey.Id}/data?patientId=NOJS_1`);
  await expect(page.getByTestId("erased-note")).toContainText("Die Daten zur Patienten-ID NOJS_1 wurden am ");
  await expect(page.getByTestId("data-answers")).toHaveCount(0);
  await page.goto(`/survey/${survey.Id}/history?patientId=NOJS_1`);
  await expect(page.getByTestId("erased-note")).toContainText("Grund: falsche Patientin / falscher Patient.");
  const tombstones = await api<{ Ok: boolean; Erased?: number }>(admin, "GET", `/audit-log/verify?surveyId=${survey.Id}`);
  expect(tombstones).toMatchObject({ Ok: true });
  expect(tombstones.Erased).toBeGreaterThan(0);
  await context.close();
});

test("retention: another unit keeps the period or asks, and a shorter period first says how many closed cases go", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const id = await publishedSurvey(page, `Aufbewahrung ${Date.now()}`, [
    { Title: "Befinden", Type: "SingleSelection", answers: ["gut", "schlecht"] },
  ]);
  // Three closed cases, two of them closed about 26 months ago, one about 7 months ago; then back to Draft.
  for (const patientId of ["RET_A", "RET_B", "RET_C"]) {
    await api(page, "POST", `/patients/add?patientId=${patientId}&surveyId=${id}`);
    await api(page, "POST", `/patients/close?patientId=${patientId}&surveyId=${id}`);
  }
  const db = openDatabase();
  try {
    const setClosed = db.prepare("UPDATE patient_data SET closed_at = ? WHERE survey_id = ? AND patient_id = ?");
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    setClosed.run(daysAgo(800), id, "RET_A");
    setClosed.run(daysAgo(800), id, "RET_B");
    setClosed.run(daysAgo(215), id, "RET_C");
  } finally {
    db.close();
  }
  await api(page, "PUT", `/surveys/${id}/change-status?newStatusId=1`);
  const stored = async () => (await api<{ RetentionMonths: number }>(page, "GET", `/surveys/${id}`)).RetentionMonths;
  /** What the server holds a while after the last step: nothing saved behind the person's back. */
  const stillStored = async (months: number) => {
    await page.waitForTimeout(1_500);
    expect(await stored()).toBe(months);
  };

  await page.goto(`/survey/${id}/edit`);
  const unit = page.getByLabel("Fälle aufbewahren");
  const amount = page.getByLabel("Anzahl", { exact: true });
  const ask = page.getByTestId("retention-ask");
  const note = page.getByTestId("retention-amount-note");

  // A unit chosen after none fills in nothing and saves nothing, also once the select is left.
  await unit.selectOption("months");
  await expect(amount).toHaveValue("");
  await expect(note).toHaveText("Noch nicht gespeichert: Bitte die Anzahl eingeben.");
  await expect(page.getByTestId("retention-save-state")).toHaveText("Nicht gespeichert");
  await unit.blur();
  await stillStored(0);

  // 18 months, shorter than none: the page says first how many closed cases the next round erases.
  await amount.fill("18");
  await expect(ask).toContainText(
    "Mit dieser kürzeren Frist löscht der nächste tägliche Durchlauf 2 abgeschlossene Fälle dieser Umfrage (abgeschlossen vor dem ",
  );
  await stillStored(0);
  await ask.getByRole("button", { name: "Kürzere Frist speichern" }).click();
  await expect.poll(stored).toBe(18);
  await expect(ask).toHaveCount(0);
  await expect(amount).toBeFocused();

  // 18 months are no whole number of years: years ask for the number, and the 18 months stay.
  await unit.selectOption("years");
  await expect(amount).toHaveValue("");
  await expect(note).toHaveText(
    "18 Monate sind keine ganze Zahl von Jahren. Bitte die Anzahl der Jahre eingeben; bis dahin bleiben 18 Monate gespeichert.",
  );
  await unit.blur();
  await stillStored(18);
  // Two years are longer: saved as they are, without a question.
  await amount.fill("2");
  await amount.blur();
  await expect.poll(stored).toBe(24);
  await expect(ask).toHaveCount(0);
  // Back to months: the same period, said in months, nothing saved.
  await unit.selectOption("months");
  await expect(amount).toHaveValue("24");
  await stillStored(24);

  // Six months would erase all three; kept as it was, nothing changes.
  await amount.fill("6");
  await expect(ask).toContainText("löscht der nächste tägliche Durchlauf 3 abgeschlossene Fälle");
  await check(page, "retention, shorter period asked");
  await ask.getByRole("button", { name: "Frist nicht ändern" }).click();
  await expect(amount).toHaveValue("24");
  await expect(amount).toBeFocused();
  await stillStored(24);

  // In English alike.
  await chooseLanguage(page, "English");
  const number = page.getByLabel("Number", { exact: true });
  await page.getByLabel("Keep cases").selectOption("months");
  await expect(number).toHaveValue("24");
  await number.fill("12");
  await expect(ask).toContainText(
    "With this shorter period the next daily round erases 2 closed cases of this survey (closed before ",
  );
  await ask.getByRole("button", { name: "Keep the period" }).click();
  await expect(number).toHaveValue("24");
  await number.fill("30");
  await number.blur();
  await expect.poll(stored).toBe(30);
  await page.getByLabel("Keep cases").selectOption("years");
  await expect(note).toHaveText(
    "30 months are no whole number of years. Please enter the number of years; until then 30 months stay saved.",
  );
  await stillStored(30);
  await number.fill("3");
  await number.blur();
  await expect.poll(stored).toBe(36);
  await chooseLanguage(page, "Deutsch");
});
