import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { expectNoSeriousViolations } from "./axe";
import { openCase, question, serverAnswers, surveyWith } from "./fill-support";
import { signIn } from "./support";

/**
 * The patient's link page follows staff's rules (docs/decisions/057-patient-links.md, issue 46): a question's
 * exit answer asks first and, confirmed, ends the case; the preliminary questions, with their exit answers,
 * stay with staff, and a case staff ended by one refuses its link as used. Without JavaScript a form whose
 * files together pass the server's limit comes back to the page, which says in the patient's words that
 * nothing of it was kept.
 */

const parts = {
  preliminary: [{ Title: "Einwilligung", answers: ["erteilt", "verweigert"], exit: "verweigert" }],
  categories: [
    {
      Title: "Ihr Befinden",
      questions: [
        {
          Title: "Möchten Sie weitermachen?",
          Type: "SingleSelection",
          answers: ["ja", "nein, abbrechen"],
          exit: "nein, abbrechen",
        },
        { Title: "Was möchten Sie uns mitteilen?", Type: "FreeText" },
        { Title: "Fotos der Wunde", Type: "FreeText", attachments: true },
      ],
    },
  ],
};

/** A survey with exit answers and a link for a new case, made by staff. */
async function linkedCase(page: Page, tag: string) {
  const id = await surveyWith(page, `${tag} ${Date.now()}`, parts);
  const patientId = `${tag.replace(/\W/g, "_").toUpperCase()}_${Date.now()}`;
  const made = await api<{ Token: string }>(page, "POST", "/patient-links", { SurveyId: id, PatientId: patientId });
  return { id, patientId, url: `/l/${made.Token}` };
}

async function phone(browser: Browser, javaScriptEnabled = true) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    locale: "de-DE",
    javaScriptEnabled,
  });
  return { context, page: await context.newPage() };
}

const stateOf = async (page: Page, id: number, patientId: string) =>
  (await api<{ State: string }>(page, "GET", `/patients?patientId=${patientId}&surveyId=${id}`)).State;

test("a question's exit answer asks the patient first; confirmed, it ends the case and the link is used", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const { id, patientId, url } = await linkedCase(page, "link exit");
  const { context, page: patient } = await phone(browser);
  await patient.goto(url);
  await expect(patient).toHaveURL(/\/l\/fill$/);
  // The preliminary questions, and their exit answer, stay with staff.
  await expect(question(patient, "Möchten Sie weitermachen?")).toBeVisible();
  await expect(patient.getByText("Einwilligung")).toHaveCount(0);
  await expect(patient.getByText("verweigert")).toHaveCount(0);

  const exit = question(patient, "Möchten Sie weitermachen?").getByLabel("nein, abbrechen");
  await expect(question(patient, "Möchten Sie weitermachen?").getByText("(beendet die Umfrage)")).toBeVisible();
  const dialog = patient.getByRole("dialog", { name: "Umfrage beenden?" });
  await exit.click();
  await expect(dialog).toContainText("Mit der Antwort „nein, abbrechen“ wird die Umfrage beendet.");
  await expect(dialog.getByRole("button", { name: "Nein, zurück" })).toBeFocused();
  await expectNoSeriousViolations(patient, "patient link exit confirmation");
  // Rejected: nothing taken, the case stays open.
  await dialog.getByRole("button", { name: "Nein, zurück" }).click();
  await expect(dialog).toBeHidden();
  await expect(exit).not.toBeChecked();
  expect(await serverAnswers(page, id, patientId)).toEqual([]);
  expect(await stateOf(page, id, patientId)).toBe("Open");

  // Confirmed: the answer is recorded and the case ends, as the patient's submit ends it.
  await exit.click();
  await dialog.getByRole("button", { name: "Ja, beenden" }).click();
  await expect(patient.getByRole("heading", { name: "Vielen Dank!" })).toBeVisible();
  await expect(patient).toHaveURL(/page=done&lang=de/);
  expect(await stateOf(page, id, patientId)).toBe("Closed");
  expect((await serverAnswers(page, id, patientId)).length).toBe(1);
  await patient.goto(url);
  await expect(patient.getByRole("heading", { name: "Dieser Fragebogen ist bereits abgeschickt" })).toBeVisible();
  await context.close();
});

test("a case staff ended by a preliminary exit answer refuses its link as used", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const { id, patientId, url } = await linkedCase(page, "link staff exit");
  // Staff open the case the link made, choose the exit answer among the preliminary questions and confirm it.
  await page.goto(`/survey/${id}/fill/${patientId}?page=preliminary`);
  await page.getByRole("group", { name: "Einwilligung" }).getByLabel("verweigert").click();
  await page.getByRole("dialog", { name: "Umfrage beenden?" }).getByRole("button", { name: "Ja, beenden" }).click();
  await expect(page).toHaveURL(/page=done/);
  expect(await stateOf(page, id, patientId)).toBe("Closed");

  const { context, page: patient } = await phone(browser, false);
  const opened = await patient.goto(url);
  expect(opened?.status()).toBe(410);
  await expect(patient.getByRole("heading", { name: "Dieser Fragebogen ist bereits abgeschickt" })).toBeVisible();
  // The page the link would have led to stands for nothing: no cookie was set.
  await patient.goto("/l/fill");
  await expect(patient.getByTestId("fill")).toHaveCount(0);
  await context.close();
});

test.describe("without JavaScript", () => {
  test("a question's exit answer asks on a page of its own, on the patient's page as on staff's", async ({
    page,
    browser,
  }) => {
    test.setTimeout(150_000);
    await signIn(page, "admin");
    const { id, patientId, url } = await linkedCase(page, "link exit nojs");
    const { context, page: patient } = await phone(browser, false);
    await patient.goto(url);
    await expect(patient).toHaveURL(/\/l\/fill$/);
    const exit = () => question(patient, "Möchten Sie weitermachen?").getByLabel("nein, abbrechen");
    const dialog = patient.getByRole("dialog", { name: "Umfrage beenden?" });

    // Sent with another answer: that one is saved, the exit answer is asked about and not taken.
    await question(patient, "Was möchten Sie uns mitteilen?").getByRole("textbox").fill("Vor dem Ende");
    await exit().check();
    await patient.getByRole("button", { name: "Speichern" }).click();
    await expect(dialog).toContainText("Mit der Antwort „nein, abbrechen“ wird die Umfrage beendet.");
    expect((await serverAnswers(page, id, patientId)).map((a) => a.TextResponse)).toEqual(["Vor dem Ende"]);
    expect(await stateOf(page, id, patientId)).toBe("Open");

    // Rejected: back on the page as it was saved.
    await dialog.getByRole("link", { name: "Nein, zurück" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(exit()).not.toBeChecked();
    expect(await stateOf(page, id, patientId)).toBe("Open");

    // Chosen again and confirmed: recorded, the case ends, the thanks in the case's language, the link used.
    await exit().check();
    await patient.getByRole("button", { name: "Speichern" }).click();
    await dialog.getByRole("button", { name: "Ja, beenden" }).click();
    await expect(patient.getByRole("heading", { name: "Vielen Dank!" })).toBeVisible();
    expect(await stateOf(page, id, patientId)).toBe("Closed");
    expect((await serverAnswers(page, id, patientId)).length).toBe(2);
    await patient.goto(url);
    await expect(patient.getByRole("heading", { name: "Dieser Fragebogen ist bereits abgeschickt" })).toBeVisible();
    await context.close();

    // Staff's page without JavaScript asks the same, and ends the case the same.
    const staff = await browser.newContext({ javaScriptEnabled: false });
    const own = await staff.newPage();
    await signIn(own, "user");
    await openCase(own, id, `${patientId}_S`);
    await own.getByRole("group", { name: "Einwilligung" }).getByLabel("erteilt").check();
    await own.getByRole("button", { name: "Weiter" }).click();
    await question(own, "Möchten Sie weitermachen?").getByLabel("nein, abbrechen").check();
    await own.getByRole("button", { name: "Speichern" }).click();
    const staffDialog = own.getByRole("dialog", { name: "Umfrage beenden?" });
    await expect(staffDialog).toContainText("Mit der Antwort „nein, abbrechen“ wird die Umfrage beendet.");
    expect(await stateOf(page, id, `${patientId}_S`)).toBe("Open");
    await staffDialog.getByRole("button", { name: "Ja, beenden" }).click();
    await expect(own).toHaveURL(/page=done/);
    expect(await stateOf(page, id, `${patientId}_S`)).toBe("Closed");
    await staff.close();
  });

  test("files together over the server's limit bring the page back, saying nothing of the send was kept", async ({
    page,
    browser,
  }) => {
    test.setTimeout(150_000);
    await signIn(page, "admin");
    const { id, patientId, url } = await linkedCase(page, "link too large");
    const { context, page: patient } = await phone(browser, false);
    await patient.goto(url);
    await expect(patient).toHaveURL(/\/l\/fill$/);
    const text = question(patient, "Was möchten Sie uns mitteilen?").getByRole("textbox");
    await text.fill("Mit zu großen Fotos");
    // Six photos of 3.9 MB: each within its own limit, together above the 21 MB a form may carry.
    const photos = [1, 2, 3, 4, 5, 6].map((n) => ({
      name: `foto-${n}.jpg`,
      mimeType: "image/jpeg",
      buffer: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(3_900_000, n)]),
    }));
    const box = question(patient, "Fotos der Wunde");
    await box.getByLabel("Anhänge").setInputFiles(photos);
    await patient.getByRole("button", { name: "Speichern" }).click();

    // The link's page again, not the general error page: its alert in the case's language, the form usable.
    const alert = patient.getByTestId("link-form-too-large");
    await expect(alert).toHaveAttribute("role", "alert");
    await expect(alert).toContainText("Von diesem Absenden wurde nichts gespeichert");
    await expect(question(patient, "Was möchten Sie uns mitteilen?")).toBeVisible();
    expect(await serverAnswers(page, id, patientId)).toEqual([]);
    expect(await stateOf(page, id, patientId)).toBe("Open");

    // Sent again within the limit, the answer and a photo arrive; the notice is gone.
    await text.fill("Mit einem Foto");
    await box.getByLabel("Anhänge").setInputFiles(photos[0]!);
    await patient.getByRole("button", { name: "Speichern" }).click();
    await expect(box.getByRole("listitem").filter({ hasText: "foto-1.jpg" })).toBeVisible();
    await expect(alert).toHaveCount(0);
    const answers = await serverAnswers(page, id, patientId);
    expect(answers.map((a) => a.TextResponse)).toEqual(["Mit einem Foto"]);
    await context.close();
  });
});
