import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { expectNoSeriousViolations } from "./axe";
import { expectNoOverflow, question, serverAnswers, surveyWith } from "./fill-support";
import { arabic, german, translatedSurvey, turkish } from "./language-support";
import { signIn } from "./support";

/** The start page: the case's language chosen, then a new case started for the patient id. */
async function startIn(page: Page, surveyId: number, patientId: string, language: string) {
  await page.goto(`/survey/${surveyId}`);
  await page.getByTestId("case-language").selectOption(language);
  await page
    .getByLabel(/Patienten|Patient ID/)
    .first()
    .fill(patientId);
  await page.getByRole("button", { name: /Neue Umfrage starten|Start new survey/ }).click();
  await expect(page).toHaveURL(new RegExp(`/fill/${patientId}`));
}

const region = (page: Page) => page.getByTestId("fill-region");

async function switchTo(page: Page, language: string, button: string) {
  await page.getByTestId("fill-language").selectOption(language);
  await page.getByRole("button", { name: button }).click();
}

test("a case filled in Arabic: right to left, axe clean at 390 and 1366 px, switched midway keeping what is typed", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const tag = `ar ${Date.now()}`;
  const id = await translatedSurvey(page, tag);
  const patientId = `AR_${Date.now()}`;

  // The start page shows the title in the language chosen for the case.
  await page.goto(`/survey/${id}`);
  await page.getByTestId("case-language").selectOption("ar");
  await expect(page.getByTestId("start-title")).toHaveText(`${arabic.title} ${tag}`);
  await expect(page.getByTestId("start-title")).toHaveAttribute("dir", "rtl");
  await startIn(page, id, patientId, "ar");

  // The intro page: the region speaks Arabic, right to left; the patient id stays left to right.
  await expect(region(page)).toHaveAttribute("lang", "ar");
  await expect(region(page)).toHaveAttribute("dir", "rtl");
  await expect(page.getByText("الصفحة 1 من 4")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${arabic.title} ${tag}`);
  await expect(page.getByTestId("fill-patient").locator("bdi[dir=ltr]")).toHaveText(patientId);
  await expect(page.getByText(arabic.intro)).toBeVisible();
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSeriousViolations(page, `Arabic intro ${width}`);
    await expectNoOverflow(page);
  }
  await page.getByRole("link", { name: "حفظ ومتابعة" }).click();
  await page.getByRole("group", { name: arabic.preliminary }).getByLabel(arabic.entries[1], { exact: true }).check();
  await page.getByRole("button", { name: "متابعة" }).click();

  // The questionnaire in Arabic, axe clean at both widths.
  await expect(page.getByRole("heading", { name: arabic.category })).toBeVisible();
  await question(page, arabic.choice).getByLabel(arabic.answers[0], { exact: true }).check();
  const typed = question(page, arabic.free).getByRole("textbox");
  await typed.fill("صداع منذ يومين");
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSeriousViolations(page, `Arabic questionnaire ${width}`);
    await expectNoOverflow(page);
  }

  // A switch the server cannot take: the toast says so in Arabic, and says it is Arabic, right to left,
  // although the toasts are drawn outside the region.
  await page.route("**/api/patients/language*", (route) =>
    route.fulfill({ status: 503, contentType: "application/json", body: '{"Type":"UNAVAILABLE","Error":"down"}' }),
  );
  await switchTo(page, "de", "تغيير اللغة");
  const said = page.getByTestId("toast").last().locator("span").first();
  await expect(said).toHaveText(/[\u0600-\u06FF]/);
  await expect(said).toHaveAttribute("lang", "ar");
  await expect(said).toHaveAttribute("dir", "rtl");
  await expect(region(page)).toHaveAttribute("lang", "ar");
  await page.unroute("**/api/patients/language*");

  // Switched to German midway: the page stays, with what was typed and chosen; its words and texts change.
  await expect(page).toHaveTitle(`\u2068${arabic.title} ${tag}\u2069 ausfüllen · Umfragen`);
  await switchTo(page, "de", "تغيير اللغة");
  await expect(region(page)).toHaveAttribute("lang", "de");
  await expect(region(page)).toHaveAttribute("dir", "ltr");
  // The tab names the survey in the case's language now.
  await expect(page).toHaveTitle(`${german.title} ${tag} ausfüllen · Umfragen`);
  await expect(question(page, german.free).getByRole("textbox")).toHaveValue("صداع منذ يومين");
  await expect(question(page, german.choice).getByLabel(german.answers[0], { exact: true })).toBeChecked();
  await expect(page.getByText("Seite 3 von 4")).toBeVisible();
  const record = await api<{ Language: string }>(page, "GET", `/patients?patientId=${patientId}&surveyId=${id}`);
  expect(record.Language).toBe("de");

  // And back to Arabic; the answers are kept by their ids, the free text as typed.
  await switchTo(page, "ar", "Sprache wechseln");
  await expect(region(page)).toHaveAttribute("dir", "rtl");
  await expect(question(page, arabic.free).getByRole("textbox")).toHaveValue("صداع منذ يومين");
  await question(page, arabic.free).getByRole("textbox").blur();
  await expect
    .poll(async () => (await serverAnswers(page, id, patientId)).map((a) => a.TextResponse).filter(Boolean))
    .toEqual(["صداع منذ يومين"]);
  await page.getByTestId("submit-survey").click();
  await expect(page.getByText("تم حفظ إجاباتك.")).toBeVisible();
  await expectNoSeriousViolations(page, "Arabic end page");
});

test("a case filled in Turkish, from the start page to its end", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "admin");
  const tag = `tr ${Date.now()}`;
  const id = await translatedSurvey(page, tag);
  const patientId = `TR_${Date.now()}`;
  await startIn(page, id, patientId, "tr");
  await expect(region(page)).toHaveAttribute("lang", "tr");
  await expect(region(page)).toHaveAttribute("dir", "ltr");
  await expect(page.getByText("Sayfa 1 / 4")).toBeVisible();
  await expect(page.getByText(turkish.intro)).toBeVisible();
  await page.getByRole("link", { name: "Kaydet ve devam et" }).click();
  await page.getByRole("group", { name: turkish.preliminary }).getByLabel(turkish.entries[0], { exact: true }).check();
  await page.getByRole("button", { name: "Devam" }).click();
  await expect(page.getByRole("heading", { name: turkish.category })).toBeVisible();
  await question(page, turkish.choice).getByLabel(turkish.answers[1], { exact: true }).check();
  await question(page, turkish.free).getByRole("textbox").fill("Baş ağrısı");
  await question(page, turkish.free).getByRole("textbox").blur();
  await expect(question(page, turkish.free).getByText("Kaydedildi")).toBeVisible();
  await page.getByTestId("submit-survey").click();
  await expect(page.getByText("Yanıtlarınız kaydedildi.")).toBeVisible();
  // Closed, the case's language is settled: its last page offers no switch (one would only be refused),
  // neither right after the submit nor opened again.
  await expect(page.getByTestId("fill-language")).toHaveCount(0);
  await page.reload();
  await expect(page.getByText("Yanıtlarınız kaydedildi.")).toBeVisible();
  await expect(page.getByTestId("fill-language")).toHaveCount(0);
  // What comes next, and the note on the closed case, are staff's: in staff's language, marked so.
  for (const name of ["Neu beginnen", "Zurück zur Übersicht"]) {
    const link = page.getByRole("link", { name, exact: true });
    await expect(link).toBeVisible();
    expect(await link.evaluate((el) => el.closest("[lang]")!.getAttribute("lang"))).toBe("de-DE");
  }
  await expect(page.getByTestId("closed-note")).toContainText(new RegExp(`^Der Fall ${patientId} .*abgeschlossen`));
  expect(await page.getByTestId("closed-note").evaluate((el) => el.closest("[lang]")!.getAttribute("lang"))).toBe(
    "de-DE",
  );
  const record = await api<{ Language: string; State: string }>(
    page,
    "GET",
    `/patients?patientId=${patientId}&surveyId=${id}`,
  );
  expect(record).toMatchObject({ Language: "tr", State: "Closed" });
  // The chosen answer is kept by its id, the same in every language.
  const tree = await api<{ Categories: { Questions: { Id: number; AnswerOptions: { Id: number }[] }[] }[] }>(
    page,
    "GET",
    `/surveys/${id}`,
  );
  const choice = tree.Categories[0]!.Questions[0]!;
  const answers = await api<{ QuestionId: number; AnswerOptionId?: number }[]>(
    page,
    "GET",
    `/question-responses/?surveyId=${id}&patientId=${patientId}`,
  );
  expect(answers.find((a) => a.QuestionId === choice.Id)?.AnswerOptionId).toBe(choice.AnswerOptions[1]!.Id);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the switch is a button of the page's form: what is typed is sent with it", async ({ page, browser }) => {
    test.setTimeout(90_000);
    const admin = await (await browser.newContext()).newPage();
    await signIn(admin, "admin");
    const id = await translatedSurvey(admin, `nojs ${Date.now()}`);
    await signIn(page, "admin");
    const patientId = `NOJS_${Date.now()}`;
    await startIn(page, id, patientId, "ar");
    await expect(region(page)).toHaveAttribute("dir", "rtl");
    await page.goto(`/survey/${id}/fill/${patientId}?page=preliminary`);
    await page.getByRole("group", { name: arabic.preliminary }).getByLabel(arabic.entries[0], { exact: true }).check();
    await page.getByRole("button", { name: "متابعة" }).click();
    await question(page, arabic.free).getByRole("textbox").fill("ألم في الظهر");
    await switchTo(page, "tr", "تغيير اللغة");
    await expect(region(page)).toHaveAttribute("lang", "tr");
    await expect(question(page, turkish.free).getByRole("textbox")).toHaveValue("ألم في الظهر");
    expect((await serverAnswers(admin, id, patientId)).map((a) => a.TextResponse).filter(Boolean)).toEqual([
      "ألم في الظهر",
    ]);
    // On a page without answers the switch is a form of its own.
    await page.goto(`/survey/${id}/fill/${patientId}?page=intro`);
    await switchTo(page, "de", "Dili değiştir");
    await expect(region(page)).toHaveAttribute("lang", "de");
    await expect(page.getByText(german.intro)).toBeVisible();
  });
});

test("in Arabic at 390 px a date reads day first and takes Arabic digits, as a number does", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "admin");
  const id = await surveyWith(page, `Datum arabisch ${Date.now()}`, {
    categories: [
      {
        Title: "Messung",
        questions: [
          { Title: "Gemessen am", Type: "DateTime" },
          { Title: "Gewicht", Type: "Numerical" },
        ],
      },
    ],
    prepare: async (surveyId) => {
      await api(page, "PUT", `/surveys/${surveyId}`, { Languages: ["ar"] });
    },
  });
  const patientId = `AR_DATE_${Date.now()}`;
  await api(page, "POST", `/patients/add?patientId=${patientId}&surveyId=${id}&language=ar`);
  await page.goto(`/survey/${id}/fill/${patientId}?page=questionnaire`);
  const date = question(page, "Gemessen am").getByRole("textbox");
  await date.click();
  await date.pressSequentially("٣٠.١١.٢٠٢٦ ٠٨:١٥", { delay: 20 });
  await date.press("Tab");
  await expect(date).toHaveValue("30.11.2026 08:15");
  await expect(question(page, "Gemessen am").getByRole("alert")).toHaveCount(0);
  const weight = question(page, "Gewicht").getByRole("textbox");
  await weight.click();
  await weight.pressSequentially("٧٢٫٥", { delay: 20 });
  await weight.press("Tab");
  await expect
    .poll(async () =>
      (await serverAnswers(page, id, patientId)).map(
        (a) => a.DateTimeResponse ?? (a as { NumericalResponse?: number }).NumericalResponse,
      ),
    )
    .toEqual(["30.11.2026 08:15", 72.5]);

  // Day first on the screen: in the field and in the example under it ("24.12.2026 18:30", not "18:30 24.12.2026").
  const leftOf = (locator: ReturnType<typeof page.locator>, first: string, second: string) =>
    locator.evaluate(
      (el, [a, b]) => {
        const rectOf = (text: string) => {
          const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const at = node.textContent!.indexOf(text);
            if (at < 0) continue;
            const range = document.createRange();
            range.setStart(node, at);
            range.setEnd(node, at + text.length);
            return range.getBoundingClientRect();
          }
          throw new Error(`no ${text}`);
        };
        return rectOf(a!).right <= rectOf(b!).left;
      },
      [first, second],
    );
  const format = question(page, "Gemessen am").locator(".hint");
  expect(await leftOf(format, "24.12.2026", "18:30")).toBe(true);
  expect(await date.evaluate((el) => getComputedStyle(el).direction)).toBe("ltr");
  expect(await date.evaluate((el) => getComputedStyle(el).textAlign)).toBe("right");
  await expectNoOverflow(page);
});
