import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { openCase, surveyWith } from "./fill-support";
import { download, goOffline, goOnline, offlineRig, signInAt, startCase } from "./offline-support";
import { chooseLanguage, signIn } from "./support";

/**
 * A preliminary entry that ends the survey (section 4, exit answer) works as a question's does: choosing it asks
 * first; rejecting keeps what was chosen before; confirming records it and ends the case. Online, offline and
 * without JavaScript, in German and English.
 */

async function exitSurvey(page: Page, title: string) {
  return surveyWith(page, title, {
    preliminary: [
      { Title: "Einwilligung", answers: ["erteilt", "verweigert"], exit: "verweigert" },
      { Title: "Altersgruppe", answers: ["unter 65", "65 und älter"] },
    ],
    categories: [{ Title: "Teil 1", questions: [{ Title: "Befinden", Type: "SingleSelection", answers: ["gut"] }] }],
  });
}

const group = (page: Page, name: string) => page.getByRole("group", { name });

async function stateOf(page: Page, surveyId: number, patientId: string) {
  return (await api<{ State: string }>(page, "GET", `/patients?patientId=${patientId}&surveyId=${surveyId}`)).State;
}

/** The preliminary answers the server holds for a case, as entry texts. */
async function preliminaryOf(page: Page, surveyId: number, patientId: string) {
  const detail = await api<{ PatientForm: { AnswerOptions: { Id: number; Text: string }[] }[] }>(
    page,
    "GET",
    `/surveys/${surveyId}`,
  );
  const texts = new Map(detail.PatientForm.flatMap((a) => a.AnswerOptions.map((o) => [o.Id, o.Text] as const)));
  const given = await api<{ PatientFormAnswerOptionId: number }[]>(
    page,
    "GET",
    `/attribute-responses/?surveyId=${surveyId}&patientId=${patientId}`,
  );
  return given.map((a) => texts.get(a.PatientFormAnswerOptionId)).sort();
}

test("online: the exit entry asks first; rejecting keeps the answer before, confirming ends the case", async ({
  page,
}) => {
  await signIn(page, "admin");
  const id = await exitSurvey(page, `Vorab-Ausstieg ${Date.now()}`);
  await openCase(page, id, "PEX_1");
  const consent = group(page, "Einwilligung");
  await expect(consent.getByText("(beendet die Umfrage)")).toBeVisible();
  await consent.getByLabel("erteilt").check();
  await expect.poll(() => preliminaryOf(page, id, "PEX_1")).toEqual(["erteilt"]);

  // Chosen: it asks, starting on the safe choice; rejected, the answer before stays, on the page and the server.
  const dialog = page.getByRole("dialog", { name: "Umfrage beenden?" });
  await consent.getByLabel("verweigert").click();
  await expect(dialog).toContainText("Mit der Antwort „verweigert“ wird die Umfrage beendet.");
  await expect(dialog.getByRole("button", { name: "Nein, zurück" })).toBeFocused();
  await dialog.getByRole("button", { name: "Nein, zurück" }).click();
  await expect(dialog).toBeHidden();
  await expect(consent.getByLabel("erteilt")).toBeChecked();
  await expect(consent.getByLabel("verweigert")).not.toBeChecked();
  expect(await preliminaryOf(page, id, "PEX_1")).toEqual(["erteilt"]);
  expect(await stateOf(page, id, "PEX_1")).toBe("Open");

  // The arrow keys pass over it without asking; Space on it asks; confirmed, the case ends.
  await consent.getByLabel("erteilt").focus();
  await page.keyboard.press("ArrowDown");
  await expect(consent.getByLabel("verweigert")).toBeFocused();
  await expect(dialog).toBeHidden();
  await expect(consent.getByLabel("erteilt")).toBeChecked();
  await page.keyboard.press("Space");
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Ja, beenden" }).click();
  await expect(page).toHaveURL(/page=done/);
  await expect(page.getByText("Ihre Angaben wurden gespeichert.")).toBeVisible();
  expect(await stateOf(page, id, "PEX_1")).toBe("Closed");
  expect(await preliminaryOf(page, id, "PEX_1")).toEqual(["verweigert"]);

  // In English: the same question, in the page's language.
  await chooseLanguage(page, "English");
  await openCase(page, id, "PEX_EN");
  await expect(group(page, "Einwilligung").getByText("(ends the survey)")).toBeVisible();
  await group(page, "Einwilligung").getByLabel("verweigert").click();
  const english = page.getByRole("dialog", { name: "End the survey?" });
  await expect(english).toContainText("The answer “verweigert” ends the survey.");
  await english.getByRole("button", { name: "Yes, end it" }).click();
  await expect(page.getByText("Your answers have been saved.")).toBeVisible();
  expect(await stateOf(page, id, "PEX_EN")).toBe("Closed");
  await chooseLanguage(page, "Deutsch");
});

test("offline: the exit entry ends the case on the device, and the sync closes it on the server", async () => {
  test.setTimeout(180_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "admin");
    const title = `Vorab-Ausstieg offline ${Date.now()}`;
    const id = await exitSurvey(page, title);
    await page.goto(rig.url("/surveys"));
    await download(page, title);

    await goOffline(context, rig.gate);
    await page.goto(rig.url(`/survey/${id}`));
    await startCase(page, "PEX_OFF");
    await expect(page.getByTestId("fill-offline-notice")).toBeVisible();
    await group(page, "Altersgruppe").getByLabel("unter 65").check();
    await group(page, "Einwilligung").getByLabel("verweigert").click();
    const dialog = page.getByRole("dialog", { name: "Umfrage beenden?" });
    await dialog.getByRole("button", { name: "Ja, beenden" }).click();
    await expect(page).toHaveURL(/page=done/);
    await expect(page.getByText("Ihre Angaben wurden gespeichert.")).toBeVisible();

    await goOnline(context, rig.gate);
    await expect(page.getByText("1 Offline-Erfassung wurde synchronisiert.")).toBeVisible({ timeout: 30_000 });
    expect(await stateOf(page, id, "PEX_OFF")).toBe("Closed");
    expect(await preliminaryOf(page, id, "PEX_OFF")).toEqual(["unter 65", "verweigert"]);
  } finally {
    await rig.dispose(context);
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the exit entry asks on a page of its own; rejecting takes nothing, confirming ends the case", async ({
    page,
    browser,
  }) => {
    const admin = await (await browser.newContext()).newPage();
    await signIn(admin, "admin");
    const id = await exitSurvey(admin, `Vorab-Ausstieg ohne JS ${Date.now()}`);
    await signIn(page, "user");
    await openCase(page, id, "PEX_NOJS");
    const consent = group(page, "Einwilligung");
    const dialog = page.getByRole("dialog", { name: "Umfrage beenden?" });

    // Sent with another answer: the other answer is saved, the exit entry is asked about and not taken.
    await group(page, "Altersgruppe").getByLabel("unter 65").check();
    await consent.getByLabel("verweigert").check();
    await page.getByRole("button", { name: "Weiter" }).click();
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("Mit der Antwort „verweigert“ wird die Umfrage beendet.");
    expect(await preliminaryOf(admin, id, "PEX_NOJS")).toEqual(["unter 65"]);
    expect(await stateOf(admin, id, "PEX_NOJS")).toBe("Open");

    // Rejected: back on the page as it was saved.
    await dialog.getByRole("link", { name: "Nein, zurück" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(consent.getByLabel("verweigert")).not.toBeChecked();
    await expect(group(page, "Altersgruppe").getByLabel("unter 65")).toBeChecked();
    expect(await stateOf(admin, id, "PEX_NOJS")).toBe("Open");

    // Chosen again and confirmed, in English: the answer is recorded and the case ends.
    await chooseLanguage(page, "English");
    await group(page, "Einwilligung").getByLabel("verweigert").check();
    await page.getByRole("button", { name: "Save" }).click();
    const english = page.getByRole("dialog", { name: "End the survey?" });
    await expect(english).toContainText("The answer “verweigert” ends the survey.");
    await english.getByRole("button", { name: "Yes, end it" }).click();
    await expect(page).toHaveURL(/page=done/);
    expect(await stateOf(admin, id, "PEX_NOJS")).toBe("Closed");
    expect(await preliminaryOf(admin, id, "PEX_NOJS")).toEqual(["unter 65", "verweigert"]);
    await chooseLanguage(page, "Deutsch");
  });
});
