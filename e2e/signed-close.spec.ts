import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { expectNoSeriousViolations as check } from "./axe";
import { openCase, question, surveyWith } from "./fill-support";
import { accounts, signIn } from "./support";

/**
 * Signed close (docs/decisions/029-signed-close.md): a survey that requires a signature is submitted on its
 * signing page; the person chooses the meaning, meets the provider's password page again although signed
 * in, and lands on the confirmation; the case's history shows the signature. With and without JavaScript.
 */

/** A published survey of one choice question whose cases are submitted with a signature. */
async function signedSurvey(page: Page, title: string) {
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: title });
  const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Teil 1" });
  const created = await api<{ Id: number }>(page, "POST", "/questions", {
    SurveyId: survey.Id,
    CategoryId: category.Id,
    Title: "Befinden",
    Type: "SingleSelection",
  });
  for (const Text of ["gut", "schlecht"]) {
    await api(page, "POST", "/answer-options", { SurveyId: survey.Id, QuestionId: created.Id, Text });
  }
  await api(page, "PUT", `/surveys/${survey.Id}`, { RequiresSignature: true });
  await api(page, "POST", `/surveys/${survey.Id}/approve`);
  return survey.Id;
}

async function signedInPage(browser: Browser, who: "admin" | "approver" | "user", javaScriptEnabled = true) {
  const context = await browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  await signIn(page, who);
  return page;
}

/** The signing page: who signs, the case, the meaning chosen, then the provider's password page again. */
async function sign(page: Page, surveyId: number, patientId: string, axe: boolean) {
  await expect(page).toHaveURL(new RegExp(`/survey/${surveyId}/sign/${patientId}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Fall ${patientId} unterschreiben`);
  await expect(page.getByTestId("sign-signer")).toHaveText(accounts.user.fullName);
  await expect(page.getByTestId("sign-patient")).toHaveText(patientId);
  const meanings = page.getByRole("group", { name: "Bedeutung der Unterschrift" });
  await expect(meanings.getByRole("radio")).toHaveCount(3);
  if (axe) await check(page, "signing page");
  await meanings.getByLabel("Verfasst: Ich habe diese Angaben gemacht.").check();
  await page.getByRole("button", { name: "Unterschreiben" }).click();
  // The provider asks for the password again although the person is signed in there; it names them, and says
  // that this is a signature, of which case and with which meaning.
  await expect(page.locator("#password")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Elektronische Unterschrift");
  await expect(page.locator("#signing-what")).toHaveText(
    new RegExp(
      `^Sie unterschreiben den Fall ${patientId} der Umfrage „[^“]+“ elektronisch, mit der Bedeutung: Verfasst$`,
    ),
  );
  await expect(page.locator("#username")).toHaveValue(accounts.user.username);
  await expect(page.locator("#username")).not.toBeEditable();
  await expect(page.locator("#password")).toBeFocused();
  await expect(page.getByRole("button", { name: "Mit Passwort unterschreiben" })).toBeVisible();
  if (axe) await check(page, "the provider's signing page");
  await page.locator("#password").fill(accounts.user.password);
  await page.locator("button[type=submit]").click();
  await expect(page).toHaveURL(new RegExp(`/survey/${surveyId}/fill/${patientId}\\?page=done$`));
  await expect(page.getByText("Ihre Angaben wurden gespeichert.")).toBeVisible();
  // Who signed, when and as what.
  await expect(page.getByTestId("signed-note")).toHaveText(
    new RegExp(
      `^Elektronisch unterschrieben von ${accounts.user.fullName} am \\d{2}\\.\\d{2}\\.\\d{4} \\d{2}:\\d{2} – verfasst$`,
    ),
  );
}

/** The case's history shows the signature: when (Berlin time), who, what it means. */
async function expectSignatureInHistory(page: Page, surveyId: number, patientId: string) {
  await page.goto(`/survey/${surveyId}/history?patientId=${patientId}`);
  const table = page.getByRole("table", { name: "Elektronische Unterschriften des Falls" });
  await expect(table).toBeVisible();
  const cells = table.locator("tbody tr").first().locator("td");
  await expect(table.locator("tbody tr")).toHaveCount(1);
  await expect(cells.nth(0)).toHaveText(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/);
  await expect(cells.nth(1)).toHaveText(accounts.user.fullName);
  await expect(cells.nth(2)).toHaveText("Verfasst");
}

test("a case of a survey that requires a signature is signed and submitted, with JavaScript", async ({ browser }) => {
  test.setTimeout(120_000);
  const admin = await signedInPage(browser, "admin");
  const surveyId = await signedSurvey(admin, `Unterschrift ${Date.now()}`);
  const user = await signedInPage(browser, "user");
  await openCase(user, surveyId, "SIGN_JS");
  await question(user, "Befinden").getByLabel("gut").check();
  await expect(user.getByTestId("fill")).not.toHaveAttribute("aria-busy", "true");
  // Without a connection, submitting says that signing needs one; the case stays as it is.
  await user.context().setOffline(true);
  await user.getByTestId("submit-survey").click();
  await expect(user.getByTestId("toast")).toContainText("Zum Unterschreiben wird eine Verbindung gebraucht.");
  await expect(user).toHaveURL(new RegExp(`/survey/${surveyId}/fill/SIGN_JS`));
  await user.context().setOffline(false);
  await user.getByTestId("submit-survey").click();
  await sign(user, surveyId, "SIGN_JS", true);
  const approver = await signedInPage(browser, "approver");
  await expectSignatureInHistory(approver, surveyId, "SIGN_JS");
  await check(approver, "case history with a signature");
});

test("a case of a survey that requires a signature is signed and submitted, without JavaScript", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const admin = await signedInPage(browser, "admin");
  const surveyId = await signedSurvey(admin, `Unterschrift ohne JS ${Date.now()}`);
  const user = await signedInPage(browser, "user", false);
  await openCase(user, surveyId, "SIGN_NOJS");
  await question(user, "Befinden").getByLabel("gut").check();
  await user.getByTestId("submit-survey").click();
  await sign(user, surveyId, "SIGN_NOJS", false);
  const approver = await signedInPage(browser, "approver", false);
  await expectSignatureInHistory(approver, surveyId, "SIGN_NOJS");
});

test("the signing page without a chosen meaning says so, and signing offline is not offered", async ({ browser }) => {
  const admin = await signedInPage(browser, "admin");
  const surveyId = await signedSurvey(admin, `Unterschrift Bedeutung ${Date.now()}`);
  const user = await signedInPage(browser, "user", false);
  await openCase(user, surveyId, "SIGN_MEANING");
  await user.goto(`/survey/${surveyId}/sign/SIGN_MEANING`);
  // The browser's own check (a required choice) bypassed: the form sent with no meaning is drawn again.
  const res = await user.request.post(`/survey/${surveyId}/sign/SIGN_MEANING`, {
    form: {},
    headers: { origin: new URL(user.url()).origin },
  });
  expect(res.status()).toBe(400);
  expect(await res.text()).toContain("Bitte wählen Sie die Bedeutung der Unterschrift.");
  // With JavaScript and no connection, the page says that signing needs one.
  const online = await signedInPage(browser, "user");
  await online.goto(`/survey/${surveyId}/sign/SIGN_MEANING`);
  await online.context().setOffline(true);
  await expect(online.getByTestId("sign-offline")).toHaveText(
    "Zum Unterschreiben wird eine Verbindung gebraucht. Die Antworten bleiben gespeichert.",
  );
  await expect(online.getByRole("button", { name: "Unterschreiben" })).toBeDisabled();
  await online.context().setOffline(false);
  await expect(online.getByRole("button", { name: "Unterschreiben" })).toBeEnabled();
});

test("the signing page and the provider's page name the survey in the case's language", async ({ browser }) => {
  const admin = await signedInPage(browser, "admin");
  const tag = Date.now();
  const surveyId = await surveyWith(admin, `Unterschrift Sprachen ${tag}`, {
    categories: [{ Title: "Teil 1", questions: [{ Title: "Befinden", Type: "FreeText" }] }],
    prepare: async (id) => {
      await api(admin, "PUT", `/surveys/${id}`, { RequiresSignature: true, Languages: ["ar"] });
      await api(admin, "PUT", `/surveys/${id}/translations/ar`, { Texts: [{ Key: "Title", Text: `التوقيع ${tag}` }] });
    },
  });
  const user = await signedInPage(browser, "user");
  await api(user, "POST", `/patients/add?patientId=SIGN_AR&surveyId=${surveyId}&language=ar`);
  await api(user, "POST", `/patients/add?patientId=SIGN_DE&surveyId=${surveyId}`);

  await user.goto(`/survey/${surveyId}/sign/SIGN_AR`);
  const title = user.getByTestId("sign-survey");
  await expect(title).toHaveText(`التوقيع ${tag}`);
  await expect(title).toHaveAttribute("lang", "ar");
  await expect(title).toHaveAttribute("dir", "rtl");
  await user.getByLabel("Verfasst: Ich habe diese Angaben gemacht.").check();
  await user.getByRole("button", { name: "Unterschreiben" }).click();
  await expect(user.locator("#signing-what")).toContainText(`„التوقيع ${tag}“`);
  const named = user.locator("#signing-what span");
  await expect(named).toHaveText(`التوقيع ${tag}`);
  await expect(named).toHaveAttribute("lang", "ar");
  await expect(named).toHaveAttribute("dir", "rtl");

  // A case in the source language shows the source title.
  await user.goto(`/survey/${surveyId}/sign/SIGN_DE`);
  await expect(user.getByTestId("sign-survey")).toHaveText(`Unterschrift Sprachen ${tag}`);
  await expect(user.getByTestId("sign-survey")).toHaveAttribute("lang", "de");
});

test("the editor turns the signature on in the start tab, by keyboard, and it is kept", async ({ page }) => {
  await signIn(page, "editor");
  await page.getByRole("button", { name: "Umfrage hinzufügen" }).click();
  await expect(page).toHaveURL(/\/survey\/\d+\/edit#start$/);
  const surveyId = Number(/\/survey\/(\d+)\//.exec(page.url())?.[1]);
  const box = page.getByRole("checkbox", { name: "Abschließen nur mit elektronischer Unterschrift" });
  await expect(box).not.toBeChecked();
  await expect(box).toHaveAccessibleDescription(/erneut anmeldet und die Bedeutung ihrer Unterschrift angibt/);
  const saved = page.waitForResponse((r) => /\/api\/surveys\/\d+$/.test(r.url()) && r.request().method() === "PUT");
  await box.focus();
  await page.keyboard.press("Space");
  const response = await saved;
  expect(response.status()).toBe(200);
  expect(response.request().postDataJSON()).toEqual({ RequiresSignature: true });
  await page.reload();
  await expect(box).toBeChecked();
  expect((await api<{ RequiresSignature: boolean }>(page, "GET", `/surveys/${surveyId}`)).RequiresSignature).toBe(true);
});
