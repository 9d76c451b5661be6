import type { Browser, Page } from "@playwright/test";
import jsQR from "jsqr";
import { expect, test } from "./test";
import { api } from "./api";
import { expectNoSeriousViolations } from "./axe";
import { expectNoOverflow, question, serverAnswers } from "./fill-support";
import { arabic, german, translatedSurvey, turkish } from "./language-support";
import { openDatabase, signIn } from "./support";
import { readPdf } from "./pdf-qr";

/**
 * Patients answer for themselves (docs/decisions/057-patient-links.md): staff make a link on its page, the
 * patient opens it on a phone without any cookie of staff's, answers in German or Turkish and submits; the
 * letter's QR code is the link; expired, used, revoked and wrong links each have their page.
 */

/** Staff make a link for a case on the link page; its address and code, as the page shows them once. */
async function makeLink(page: Page, surveyId: number, patientId: string, language: string) {
  await page.goto(`/survey/${surveyId}`);
  await page.getByTestId("start-patient-link").click();
  const dialog = page.getByRole("region", { name: "Neuen Link erstellen" });
  await dialog.getByLabel("Patienten-ID").fill(patientId);
  await expect(dialog.getByLabel("Gültig für Tage")).toHaveValue("7");
  await dialog.getByLabel("Sprache").selectOption(language);
  // The fields' boxes and the button on one line, whatever hint a field has below its box.
  const tops = await Promise.all(
    [dialog.getByLabel("Patienten-ID"), dialog.getByLabel("Gültig für Tage"), dialog.getByLabel("Sprache")]
      .concat(dialog.getByTestId("link-create"))
      .map(async (control) => (await control.boundingBox())!.y),
  );
  for (const top of tops) expect(Math.abs(top - tops[0]!)).toBeLessThanOrEqual(1);
  await dialog.getByTestId("link-create").click();
  const made = page.getByTestId("made-link");
  await expect(made.getByRole("heading", { level: 2 })).toBeFocused();
  // The card says whose link it is; the form for the next one no longer holds this patient's id.
  await expect(page.getByTestId("made-link-patient")).toHaveText(patientId);
  await expect(dialog.getByLabel("Patienten-ID")).toHaveValue("");
  // A page for no patient in particular keeps an address without an empty `?patientId=`.
  expect(new URL(page.url()).search).toBe("");
  const url = await page.getByTestId("made-link-url").inputValue();
  const code = (await page.getByTestId("made-link-code").textContent())!.trim();
  expect(url).toMatch(/\/l\/[A-Za-z0-9_-]{43}$/);
  expect(code).toMatch(/^[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/);
  return { url, code };
}

/** A phone of the patient's: a new browser context, 390 × 844, no cookies. */
async function phone(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "de-DE" });
  return { context, page: await context.newPage() };
}

/** The QR codes in a screenshot of the page, decoded: its pixels read by the page's own canvas. */
async function qrInScreenshot(page: Page): Promise<string | null> {
  const png = (await page.screenshot({ fullPage: true })).toString("base64");
  const image = await page.evaluate(async (data) => {
    const img = new Image();
    img.src = `data:image/png;base64,${data}`;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = img.width;
    canvas.height = img.height;
    const g = canvas.getContext("2d")!;
    g.drawImage(img, 0, 0);
    return { width: img.width, height: img.height, rgba: Array.from(g.getImageData(0, 0, img.width, img.height).data) };
  }, png);
  return jsQR(Uint8ClampedArray.from(image.rgba), image.width, image.height)?.data ?? null;
}

test("a link made by staff is answered in German on a phone; its letter's QR code is the link; used after", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  await signIn(page, "admin");
  const tag = `link ${Date.now()}`;
  const id = await translatedSurvey(page, tag);
  const patientId = `LINK_DE_${Date.now()}`;
  const { url, code } = await makeLink(page, id, patientId, "de");

  // The letter, printed from the page that made the link: the QR code in its screenshot is the link.
  const [letter] = await Promise.all([
    page.context().waitForEvent("page"),
    page.getByTestId("made-link-letter").click(),
  ]);
  await letter.waitForLoadState();
  await expect(letter.getByTestId("link-letter")).toBeVisible();
  await expect(letter.getByTestId("letter-code")).toHaveText(code);
  await letter.setViewportSize({ width: 800, height: 1200 });
  expect(await qrInScreenshot(letter)).toBe(url);
  // Printed to PDF as the browser prints it (A4, print styles): one page, with its code and the QR code of
  // the link, read back from the PDF's own drawing.
  const printed = await readPdf(await letter.pdf({ format: "A4", preferCSSPageSize: true }));
  expect(printed.pages).toBe(1);
  expect(printed.text).toContain(code);
  expect(printed.qr).toBe(url);
  await letter.close();

  // The list names the link as made.
  await page.goto(`/survey/${id}/links?patientId=${patientId}`);
  await expect(page.getByTestId("link-state")).toHaveText("erstellt");

  const phoned = await phone(browser);
  const context = phoned.context;
  let patient = phoned.page;
  await patient.goto(url);
  await expect(patient).toHaveURL(/\/l\/fill$/);
  const region = patient.getByTestId("fill-region");
  await expect(region).toHaveAttribute("lang", "de");
  await expect(patient.getByText(german.intro)).toBeVisible();
  // Nothing of staff's: no header menu, no patient id, no sign-out.
  await expect(patient.getByTestId("fill-patient")).toHaveCount(0);
  await expect(patient.getByRole("banner")).toHaveCount(0);
  await expectNoSeriousViolations(patient, "patient link intro 390");
  await expectNoOverflow(patient);
  await patient.getByRole("link", { name: "Speichern und weiter" }).click();

  await expect(patient.getByRole("heading", { name: german.category })).toBeVisible();
  await question(patient, german.choice).getByLabel(german.answers[0], { exact: true }).check();
  await question(patient, german.free).getByRole("textbox").fill("Kopfweh seit gestern");
  await expectNoSeriousViolations(patient, "patient link questionnaire 390");
  await expectNoOverflow(patient);
  // Saved as typed: a reload keeps it.
  await expect.poll(async () => (await serverAnswers(page, id, patientId)).length, { timeout: 10_000 }).toBe(2);
  await patient.reload();
  await expect(question(patient, german.free).getByRole("textbox")).toHaveValue("Kopfweh seit gestern");
  // A tab closed right after typing: what was typed goes as the page goes, and the link opened again (it
  // stays usable until submitted) comes back to it.
  await question(patient, german.free).getByRole("textbox").fill("Kopfweh seit gestern, nachts");
  await patient.close({ runBeforeUnload: true });
  await expect
    .poll(async () => (await serverAnswers(page, id, patientId)).map((a) => a.TextResponse ?? null), {
      timeout: 10_000,
    })
    .toContain("Kopfweh seit gestern, nachts");
  patient = await context.newPage();
  await patient.goto(url);
  await expect(question(patient, german.free).getByRole("textbox")).toHaveValue("Kopfweh seit gestern, nachts");
  // Every control at least 44 px high. Before the page's script has run, the form's first button is a
  // hidden default for Enter (aria-hidden, out of the tab order): no one touches it, so it is not measured.
  const heights = await patient
    .locator(
      ".link-fill button:visible:not([aria-hidden='true']), .link-fill select:visible, .link-fill .choice:visible, .link-fill summary:visible",
    )
    .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
  for (const h of heights) expect(h).toBeGreaterThanOrEqual(44);

  await patient.getByTestId("submit-survey").click();
  await expect(patient.getByRole("heading", { name: "Vielen Dank!" })).toBeVisible();
  await expectNoSeriousViolations(patient, "patient link thanks 390");
  // The questionnaire's address again after sending (Back, then on): it was sent, not "the link is wrong".
  await patient.goto("/l/fill?page=questionnaire");
  await expect(patient.locator("[data-link-problem=used]")).toBeVisible();
  await expect(patient.getByRole("heading", { name: "Dieser Fragebogen ist bereits abgeschickt" })).toBeVisible();

  // Used: opened again, the link says so.
  await patient.goto(url);
  await expect(patient.locator("[data-link-problem=used]")).toBeVisible();
  await context.close();

  // Staff see the link submitted, and the case's answers.
  await page.goto(`/survey/${id}/links?patientId=${patientId}`);
  await expect(page.getByTestId("link-state")).toHaveText("abgeschickt");
  const record = await api<{ State: string; Respondent: string | null }>(
    page,
    "GET",
    `/patients?patientId=${patientId}&surveyId=${id}`,
  );
  expect(record.Respondent).toBe("link");
  // The patient's data names the patient, through the link, as the one who gave each answer: not "System".
  await page.goto(`/survey/${id}/data?patientId=${patientId}`);
  for (const title of [german.choice, german.free]) {
    const history = page.locator("table").filter({ has: page.locator("caption", { hasText: title }) });
    const given = history.locator("tbody td:nth-child(3)");
    await expect(given.first()).toBeVisible();
    for (const who of await given.allTextContents()) expect(who).toMatch(/^Patient:in \(Link \d+\)$/);
  }
});

test("a link in Turkish: the page speaks Turkish and thanks in Turkish", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const tag = `link tr ${Date.now()}`;
  const id = await translatedSurvey(page, tag);
  const patientId = `LINK_TR_${Date.now()}`;
  const { url } = await makeLink(page, id, patientId, "tr");

  const { context, page: patient } = await phone(browser);
  await patient.goto(url);
  await expect(patient.getByTestId("fill-region")).toHaveAttribute("lang", "tr");
  await expect(patient.getByText(turkish.intro)).toBeVisible();
  await patient.goto("/l/fill?page=questionnaire");
  await expect(patient.getByRole("heading", { name: turkish.category })).toBeVisible();
  // The patient's whole page speaks Turkish: the document's language, and the notifications' region.
  await expect(patient.locator("html")).toHaveAttribute("lang", "tr");
  await expect(patient.locator("section.toaster")).toHaveAttribute("aria-label", "Bildirimler");
  await question(patient, turkish.choice).getByLabel(turkish.answers[1], { exact: true }).check();
  await expectNoSeriousViolations(patient, "patient link Turkish 390");
  await expectNoOverflow(patient);
  await expect.poll(async () => (await serverAnswers(page, id, patientId)).length, { timeout: 10_000 }).toBe(1);
  // One question of two answered: sending is asked about first, in Turkish (decision 067).
  await patient.getByTestId("submit-survey").click();
  const asked = patient.getByRole("dialog", { name: "Henüz her şey yanıtlanmadı" });
  await expect(asked).toBeVisible();
  await asked.getByRole("button", { name: "Yine de gönder" }).click();
  await expect(patient.getByRole("heading", { name: "Çok teşekkür ederiz!" })).toBeVisible();
  // The questionnaire's address again after sending, and the link opened again: "already sent", in Turkish.
  await patient.goto("/l/fill?page=questionnaire");
  await expect(patient.locator("[data-link-problem=used]")).toBeVisible();
  await expect(patient.getByRole("heading", { name: "Bu anket zaten gönderildi" })).toBeVisible();
  await expect(patient.getByTestId("fill-region")).toHaveAttribute("lang", "tr");
  await patient.goto(url);
  await expect(patient.getByRole("heading", { name: "Bu anket zaten gönderildi" })).toBeVisible();
  await context.close();
});

test("a link opened by its code from the letter speaks the link's language from the first page", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const id = await translatedSurvey(page, `link code tr ${Date.now()}`);
  const { code } = await makeLink(page, id, `LINK_CODE_${Date.now()}`, "tr");

  const { context, page: patient } = await phone(browser);
  await patient.goto("/l");
  await patient.getByRole("textbox", { name: "Code" }).fill(code);
  await patient.getByRole("button", { name: "Fragebogen öffnen" }).click();
  await expect(patient.getByText(turkish.intro)).toBeVisible();
  await expect(patient.getByTestId("fill-region")).toHaveAttribute("lang", "tr");
  // The page's own words too, not only the survey's: the language switch says "Dili değiştir".
  await expect(patient.getByRole("button", { name: "Dili değiştir" })).toBeVisible();
  await expect(patient.getByRole("button", { name: "Sprache wechseln" })).toHaveCount(0);
  await context.close();
});

test("expired, revoked and wrong links each show their page; revoking is confirmed and focus comes back", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const id = await translatedSurvey(page, `link gone ${Date.now()}`);
  const made = (patientId: string) =>
    api<{ Link: { Id: number }; Token: string }>(page, "POST", "/patient-links", {
      SurveyId: id,
      PatientId: patientId,
    });
  const expiring = await made(`LINK_EXP_${Date.now()}`);
  const db = openDatabase();
  db.prepare("update patient_links set expires_at = ? where id = ?").run("2000-01-01T00:00:00.000Z", expiring.Link.Id);
  db.close();

  const revokedCase = `LINK_REV_${Date.now()}`;
  const { url } = await makeLink(page, id, revokedCase, "ar");
  await page.goto(`/survey/${id}/links?patientId=${revokedCase}`);
  await page.getByRole("link", { name: /zurückziehen/ }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Zurückziehen" }).click();
  await expect(page.getByTestId("link-state")).toHaveText("zurückgezogen");
  await expect(page.locator("h3[id^=link-]")).toBeFocused();

  const { context, page: patient } = await phone(browser);
  await patient.goto(`/l/${expiring.Token}`);
  await expect(patient.locator("[data-link-problem=expired]")).toBeVisible();
  await patient.goto(url);
  await expect(patient.locator("[data-link-problem=revoked]")).toBeVisible();
  // An Arabic link's page says it in Arabic, right to left; a wrong link cannot say whose it is.
  await expect(patient.getByRole("heading", { name: "تم سحب هذا الرابط" })).toBeVisible();
  await expect(patient.getByTestId("fill-region")).toHaveAttribute("dir", "rtl");
  await expectNoSeriousViolations(patient, "patient link revoked Arabic 390");
  await patient.goto(`/l/${"x".repeat(43)}`);
  await expect(patient.locator("[data-link-problem=invalid]")).toBeVisible();
  // Without a link's cookie the page itself says the same.
  await patient.goto("/l/fill");
  await expect(patient.locator("[data-link-problem=invalid]")).toBeVisible();
  await expectNoSeriousViolations(patient, "patient link invalid 390");
  await context.close();
});

test("the code page and a wrong link speak the patient's language: their browser's, or the one they choose", async ({
  browser,
}) => {
  // A phone set to Arabic: the code page is Arabic, right to left, at 390 px.
  const arabic = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "ar" });
  const patient = await arabic.newPage();
  await patient.goto("/l");
  await expect(patient.getByRole("heading", { name: "أدخل الرمز" })).toBeVisible();
  await expect(patient.getByTestId("fill-region")).toHaveAttribute("dir", "rtl");
  await expect(patient.getByTestId("fill-region")).toHaveAttribute("lang", "ar");
  await expect(patient).toHaveTitle("أدخل الرمز");
  await expect(patient.getByRole("button", { name: "Fragebogen öffnen" })).toHaveCount(0);
  await expectNoOverflow(patient);
  await expectNoSeriousViolations(patient, "patient link code Arabic 390");
  // A code that opens nothing says so in Arabic too, and the field is there to try again.
  await patient.getByRole("textbox", { name: "الرمز" }).fill("ZZZZ-ZZZZ-ZZZZ-ZZZZ");
  await patient.getByRole("button", { name: "افتح الاستبيان" }).click();
  await expect(patient.getByRole("heading", { name: "هذا الرابط غير صالح" })).toBeVisible();
  await expect(patient.getByRole("textbox", { name: "الرمز" })).toBeFocused();
  // The patient chooses Turkish on the page, by keyboard: the page speaks it, left to right.
  await patient.getByRole("combobox", { name: "اللغة" }).selectOption("tr");
  await patient.getByRole("button", { name: "تغيير اللغة" }).press("Enter");
  await expect(patient.getByRole("heading", { name: "Kodunuzu girin" })).toBeVisible();
  await expect(patient.getByTestId("fill-region")).toHaveAttribute("dir", "ltr");
  await expect(patient.getByRole("combobox", { name: "Dil" })).toHaveValue("tr");
  await arabic.close();

  // A phone set to Turkish opens a wrong link: it is told in Turkish, and typing the code goes on in Turkish.
  const turkishPhone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "tr-TR" });
  const other = await turkishPhone.newPage();
  await other.goto(`/l/${"y".repeat(43)}`);
  await expect(other.getByRole("heading", { name: "Bu bağlantı geçerli değil" })).toBeVisible();
  await other.getByRole("link", { name: "Kodu elle girin" }).click();
  await expect(other.getByRole("heading", { name: "Kodunuzu girin" })).toBeVisible();
  await expect(other).toHaveURL(/\/l\?lang=tr$/);
  await turkishPhone.close();
});

test("an Arabic link's letter names the survey, the address and the code in Arabic too, on one printed page", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const tag = `link letter ar ${Date.now()}`;
  const id = await translatedSurvey(page, tag);
  const { code } = await makeLink(page, id, `LINK_LETTER_AR_${Date.now()}`, "ar");
  const [letter] = await Promise.all([
    page.context().waitForEvent("page"),
    page.getByTestId("made-link-letter").click(),
  ]);
  await letter.waitForLoadState();
  const facts = letter.getByTestId("link-letter").locator("dl");
  await expect(facts.locator('[data-letter-label="de"]')).toHaveText(["Adresse", "Code"]);
  await expect(facts.locator('[data-letter-label="ar"]')).toHaveText(["العنوان", "الرمز"]);
  await expect(facts.locator('[data-letter-label="ar"]').first()).toHaveAttribute("dir", "rtl");
  // Each part names the survey by its title in that part's language.
  const part = (lang: string) => letter.getByTestId("link-letter").locator(`section[lang="${lang}"]`);
  await expect(part("de").getByRole("heading")).toContainText(`${german.title} ${tag}`);
  await expect(part("ar").getByRole("heading")).toHaveText(`استبيانك: ${arabic.title} ${tag}`);
  await expect(letter.getByTestId("letter-code")).toHaveText(code);
  const printed = await readPdf(await letter.pdf({ format: "A4", preferCSSPageSize: true }));
  expect(printed.pages).toBe(1);
  await letter.close();
});
