import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { question } from "./fill-support";
import { translatedSurvey, turkish } from "./language-support";
import { accounts, signIn } from "./support";

/** A staff device handed to the patient (docs/decisions/058-hand-over.md). */

const bar = (page: Page) => page.getByTestId("handover-bar");

async function typePin(page: Page, pin: string) {
  await page.getByTestId("handover-return").click();
  await page.getByLabel("PIN", { exact: true }).fill(pin);
  await page.getByTestId("handover-pin-submit").click();
}

test("a hand-over online: the patient answers in Turkish, the page stays theirs until the PIN", async ({ page }) => {
  test.setTimeout(150_000);
  await signIn(page, "admin");
  const tag = `handover ${Date.now()}`;
  const id = await translatedSurvey(page, tag);
  const patientId = `HO_${Date.now()}`;
  const fill = `/survey/${id}/fill/${patientId}`;

  // Staff start the case in Turkish and answer the preliminary page themselves.
  await page.goto(`/survey/${id}`);
  await page.getByTestId("case-language").selectOption("tr");
  await page
    .getByLabel(/Patienten|Patient ID/)
    .first()
    .fill(patientId);
  await page.getByRole("button", { name: /Neue Umfrage starten|Start new survey/ }).click();
  await page.getByRole("link", { name: "Kaydet ve devam et" }).click();
  await page.getByRole("group", { name: turkish.preliminary }).getByLabel(turkish.entries[0], { exact: true }).check();
  await page.getByRole("button", { name: "Devam" }).click();
  await expect(page.getByRole("heading", { name: turkish.category })).toBeVisible();

  // The hand-over: a PIN typed twice; a mismatch is refused first.
  await page.getByTestId("handover-open").click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel(/^PIN$/).fill("2468");
  await dialog.getByLabel(/PIN wiederholen|Repeat the PIN/).fill("2469");
  await page.getByTestId("handover-start").click();
  await expect(dialog.getByRole("alert")).toHaveText(/stimmen nicht|do not match/);
  await dialog.getByLabel(/PIN wiederholen|Repeat the PIN/).fill("2468");
  await page.getByTestId("handover-start").click();
  await expect(bar(page)).toBeVisible();
  await expect(page.getByTestId("handover-open")).toHaveCount(0);
  await expect(page.getByRole("banner")).toHaveCount(0);

  // The patient answers in Turkish, with a larger text: the sizes are the patient's, named in Turkish; the
  // way back is staff's, in staff's words.
  const sizes = bar(page).getByRole("group", { name: "Yazı boyutu" });
  await expect(bar(page).locator(".handover-bar__patient")).toHaveAttribute("lang", "tr");
  await expect(sizes.getByRole("button")).toHaveText(["A", "A+", "A++"]);
  await expect(page.getByTestId("handover-return")).toHaveText(/Zurück an das Personal|Back to staff/);
  await sizes.getByRole("button", { name: "A+: Büyük yazı", exact: true }).click();
  await expect(page.locator("#main")).toHaveAttribute("data-text-size", "1");
  await question(page, turkish.free).getByRole("textbox").fill("Baş ağrısı");
  await question(page, turkish.free).getByRole("textbox").blur();
  await expect(question(page, turkish.free).getByText("Kaydedildi")).toBeVisible();

  // A typed address, back and reload all keep the patient's page; staff's API is refused.
  await page.goto("/surveys");
  await expect(page).toHaveURL(new RegExp(`${fill}$`));
  await expect(bar(page)).toBeVisible();
  await page.goBack();
  await expect(bar(page)).toBeVisible();
  await page.reload();
  await expect(bar(page)).toBeVisible();
  await expect(page.locator("#main")).toHaveAttribute("data-text-size", "1");
  // Nothing of the staff member's in the patient's page, its data for the scripts included.
  const html = await page.content();
  expect(html).not.toContain(accounts.admin.fullName);
  expect(html).not.toContain("Kardiologie");
  const refused = await page.evaluate(async () => (await fetch("/api/surveys?take=5&skip=0")).status);
  expect(refused).toBe(403);

  // Five wrong PINs, then a wait that a reload does not reset; the right PIN is not tried while it runs.
  for (let i = 0; i < 4; i++) {
    await typePin(page, "0000");
    await expect(page.getByTestId("handover-pin-problem")).toHaveText(/falsch|wrong/);
    await page.keyboard.press("Escape");
  }
  await typePin(page, "1111");
  await expect(page.getByTestId("handover-pin-problem")).toHaveText(/warten Sie|wait/);
  await page.reload();
  await typePin(page, "2468");
  await expect(page.getByTestId("handover-pin-problem")).toHaveText(/warten Sie|wait/);
  await page.keyboard.press("Escape");
  await page.waitForTimeout(31_000);

  // The right PIN gives the device back to staff.
  await typePin(page, "2468");
  await expect(page.getByTestId("handover-open")).toBeVisible();
  await expect(bar(page)).toHaveCount(0);
  const record = await api<{ Respondent?: string }>(page, "GET", `/patients?patientId=${patientId}&surveyId=${id}`);
  expect(record.Respondent).toBe("handover");
  await api(page, "GET", "/surveys?take=5&skip=0");
});

/** A case of a translated survey, its preliminary page answered by staff, handed over with the PIN 1357. */
async function handedOver(page: Page, name: string) {
  await signIn(page, "admin");
  const id = await translatedSurvey(page, `${name} ${Date.now()}`);
  const patientId = `HS_${Date.now()}`;
  const fill = `/survey/${id}/fill/${patientId}`;
  await api(page, "POST", `/patients/add?patientId=${patientId}&surveyId=${id}`);
  // Staff answer the preliminary questions first: the survey leaves them to staff, the hand-over comes after.
  const survey = await api<{ PatientForm: { Id: number; AnswerOptions: { Id: number }[] }[] }>(
    page,
    "GET",
    `/surveys/${id}`,
  );
  for (const attribute of survey.PatientForm) {
    await api(page, "POST", "/attribute-responses", {
      SurveyId: id,
      PatientId: patientId,
      PatientFormAttributeId: attribute.Id,
      PatientFormAnswerOptionId: attribute.AnswerOptions[0].Id,
    });
  }
  await page.goto(`${fill}?page=questionnaire`);
  await page.getByTestId("handover-open").click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel(/^PIN$/).fill("1357");
  await dialog.getByLabel(/PIN wiederholen|Repeat the PIN/).fill("1357");
  await page.getByTestId("handover-start").click();
  await expect(bar(page)).toBeVisible();
  return { id, patientId, fill };
}

test("the PIN forgotten: staff sign in again at the provider and get the case back", async ({ page }) => {
  test.setTimeout(90_000);
  const { fill } = await handedOver(page, "handover sign-in");

  // In the return dialog, by keyboard: "PIN vergessen?" goes to the provider, which asks for the password of
  // the staff member who handed the device over, although their sign-in there lasts.
  await page.getByTestId("handover-return").click();
  const forgot = page.getByRole("button", { name: "PIN vergessen? Als Personal neu anmelden" });
  await forgot.focus();
  await page.keyboard.press("Enter");
  await expect(page.locator("#password")).toBeVisible();
  await expect(page.locator("#username")).toHaveValue(accounts.admin.username);
  await expect(page.locator("#username")).not.toBeEditable();
  await page.locator("#password").fill(accounts.admin.password);
  await page.locator("button[type=submit]").click();

  // Back with staff: the case's page without the patient's bar, staff's pages and API answer again.
  await expect(page).toHaveURL(new RegExp(`${fill}$`));
  await expect(page.getByTestId("handover-open")).toBeVisible();
  await expect(bar(page)).toHaveCount(0);
  await expect(page.getByRole("banner")).toBeVisible();
  await api(page, "GET", "/surveys?take=5&skip=0");
  // The device's record of the hand-over is gone too: a reload stays with staff.
  await page.reload();
  await expect(page.getByTestId("handover-open")).toBeVisible();
  await expect(bar(page)).toHaveCount(0);
});

test.describe("with the page's scripts held back", () => {
  test.use({ serviceWorkers: "block" });

  test("the hand-over bar is drawn once its buttons work, its place kept until then", async ({ page }) => {
    test.setTimeout(90_000);
    await handedOver(page, "handover slow");
    // A slow tablet: the bar's code is still on its way. A drawn button would take a tap and do nothing.
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/HandoverBar-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByTestId("handover-return")).toHaveCount(0);
    const place = page.locator(".handover-slot");
    await expect(place).toBeVisible();
    expect((await place.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    release();
    await page.getByTestId("handover-return").click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await expect(page.getByLabel("PIN", { exact: true })).toBeFocused();
  });
});

test("the patient closes the case, staff take the device back: the case's closing page, no error", async ({ page }) => {
  test.setTimeout(90_000);
  const { id, patientId } = await handedOver(page, "Übergabe bis zum Ende");
  // Nothing answered yet: the patient is asked before the case closes (decision 067).
  await page.getByRole("button", { name: "Absenden" }).click();
  await page.getByRole("dialog", { name: "Noch nicht alles beantwortet" }).getByTestId("submit-anyway").click();
  await expect(page.getByTestId("handover-thanks")).toBeVisible({ timeout: 15_000 });
  // The patient's thanks, without staff's note on the case (its id, when it closed).
  await expect(page.getByTestId("closed-note")).toHaveCount(0);
  await typePin(page, "1357");
  // The page drawn anew for staff: no patient's bar, staff's way on.
  await expect(bar(page)).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Zurück zur Übersicht" })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/survey/${id}/fill/${patientId}\\?page=done$`));
  await expect(page.getByTestId("closed-note")).toContainText(`Der Fall ${patientId} wurde am`);
  await expect(page.getByTestId("toast")).toHaveCount(0);
});

test("the patient stays on the questionnaire: no way back to staff's preliminary questions", async ({ page }) => {
  test.setTimeout(90_000);
  const { fill } = await handedOver(page, "Übergabe ohne Vorfragen");
  await expect(page.getByRole("heading", { level: 2 }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Zurück", exact: true })).toHaveCount(0);
  // Not by an address either (nor Back, which asks the same): the page stays the questionnaire.
  await page.goto(`${fill}?page=preliminary`);
  await expect(page).toHaveURL(new RegExp(`${fill}\\?page=questionnaire$`));
  await expect(bar(page)).toBeVisible();
  await page.goto(`${fill}?page=intro`);
  await expect(page).toHaveURL(new RegExp(`${fill}\\?page=questionnaire$`));
});
