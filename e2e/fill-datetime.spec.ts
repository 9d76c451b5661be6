import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { expectNoSeriousViolations } from "./axe";
import { expectNoOverflow, openCase, question, serverAnswers, surveyWith } from "./fill-support";
import { download, fillOffline, goOffline, offlineRig, signInAt } from "./offline-support";
import { signIn } from "./support";

const questions = [
  { Title: "Zeitpunkt", Type: "DateTime" },
  { Title: "Notiz", Type: "FreeText" },
];

const texts = {
  de: {
    placeholder: "TT.MM.JJJJ hh:mm",
    format: "Format: TT.MM.JJJJ hh:mm, z. B. 24.12.2026 18:30",
    pick: "Datum und Uhrzeit für „Zeitpunkt“ wählen",
    invalid:
      "Kein gültiges Datum mit Uhrzeit: Bitte als TT.MM.JJJJ hh:mm angeben. Die Eingabe wurde nicht gespeichert.",
  },
  en: {
    placeholder: "DD.MM.YYYY hh:mm",
    format: "Format: DD.MM.YYYY hh:mm, e.g. 24.12.2026 18:30",
    pick: "Choose date and time for “Zeitpunkt”",
    invalid: "Not a valid date and time: enter it as DD.MM.YYYY hh:mm. This entry was not saved.",
  },
};

/** Switches the language; on a phone the selector sits in the header's menu. */
async function language(page: Page, name: "English" | "Deutsch") {
  await expect(page.locator("header")).toBeVisible();
  await page.waitForLoadState("load");
  const button = page.getByRole("button", { name }).filter({ visible: true }).first();
  if (!(await button.isVisible())) await page.locator(".header__menu summary").click();
  await button.click();
  await expect(page.locator("html")).toHaveAttribute("lang", name === "English" ? "en-US" : "de-DE");
}

for (const { width, height, lang } of [
  { width: 1366, height: 900, lang: "de" as const },
  { width: 390, height: 844, lang: "en" as const },
]) {
  test(`date and time at ${width} px (${lang}): a picker, the typed value kept with its own message when refused`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height });
    await signIn(page, "admin");
    await expect(page.getByTestId("greeting")).toBeVisible();
    if (lang === "en") await language(page, "English");
    try {
      const id = await surveyWith(page, `Zeitpunkt ${width} ${Date.now()}`, {
        categories: [{ Title: "Teil 1", questions }],
      });
      const patientId = `DT_${width}`;
      await openCase(page, id, patientId);
      const t = texts[lang];
      const box = question(page, "Zeitpunkt");
      const field = box.getByRole("textbox");
      const pick = box.getByRole("button", { name: t.pick });
      await expect(field).toHaveAttribute("placeholder", t.placeholder);
      await expect(box.getByText(t.format)).toBeVisible();
      await expect(pick).toBeVisible();
      await expectNoOverflow(page);
      // The field and the picker's button sit side by side inside the page.
      const [fieldBox, pickBox] = [await field.boundingBox(), await pick.boundingBox()];
      expect(pickBox!.x).toBeGreaterThan(fieldBox!.x + fieldBox!.width - 1);
      expect(pickBox!.x + pickBox!.width).toBeLessThanOrEqual(width);
      expect(pickBox!.height).toBeGreaterThanOrEqual(44);

      // The button opens the device's picker; what it sets is shown as DD.MM.YYYY HH:mm and saved.
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await field.focus();
      await page.keyboard.press("Tab");
      await expect(pick).toBeFocused();
      // The picker opens, and Escape closes it. (Pressed before the picker is up, Escape is lost and the open
      // picker takes the keys meant for the page.)
      const native = box.locator('input[type="datetime-local"]');
      const pickerOpen = () => native.evaluate((el) => el.matches(":open"));
      // On a busy machine the picker can report itself open a moment before its popup takes keys: Escape is
      // pressed again while it is still open, and must close it.
      await page.keyboard.press("Enter");
      await expect.poll(pickerOpen).toBe(true);
      await expect(async () => {
        if (await pickerOpen()) await page.keyboard.press("Escape");
        expect(await pickerOpen()).toBe(false);
      }).toPass({ timeout: 10_000 });
      expect(errors).toEqual([]);
      await native.fill("2026-12-24T18:30");
      await expect(field).toHaveValue("24.12.2026 18:30");
      await expect
        .poll(async () => (await serverAnswers(page, id, patientId)).map((a) => a.DateTimeResponse))
        .toEqual(["24.12.2026 18:30"]);

      // A typed value that is no date stays as typed, with its own message, and is not sent.
      await field.fill("31.02.2026 10:00");
      await field.press("Tab");
      await expect(field).toHaveValue("31.02.2026 10:00");
      await expect(field).toHaveAttribute("aria-invalid", "true");
      await expect(box.getByRole("alert")).toHaveText(t.invalid);
      await expect(page.getByTestId("toast")).toHaveCount(0);
      await expectNoOverflow(page);
      await expectNoSeriousViolations(page, `date-time refused (${width})`);
      expect((await serverAnswers(page, id, patientId)).map((a) => a.DateTimeResponse)).toEqual(["24.12.2026 18:30"]);

      // Typed by keyboard, loosely, and saved on Enter in the wire format.
      await field.fill("1.2.2027, 8:05");
      await field.press("Enter");
      await expect(field).toHaveValue("01.02.2027 08:05");
      await expect(box.getByRole("alert")).toHaveCount(0);
      await expect
        .poll(async () => (await serverAnswers(page, id, patientId)).map((a) => a.DateTimeResponse))
        .toEqual(["01.02.2027 08:05"]);
      await page.reload();
      await expect(question(page, "Zeitpunkt").getByRole("textbox")).toHaveValue("01.02.2027 08:05");
    } finally {
      if (lang === "en") await language(page, "Deutsch");
    }
  });
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  for (const { width, height } of [
    { width: 1366, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test(`date and time at ${width} px: a refused entry is shown as typed with its message, the rest is saved`, async ({
      page,
      browser,
    }) => {
      const setup = await browser.newContext();
      const admin = await setup.newPage();
      await signIn(admin, "admin");
      const id = await surveyWith(admin, `Zeitpunkt ohne JS ${width} ${Date.now()}`, {
        categories: [{ Title: "Teil 1", questions }],
      });
      await page.setViewportSize({ width, height });
      await signIn(page, "admin");
      const patientId = `DT_NOJS_${width}`;
      await openCase(page, id, patientId);
      const field = question(page, "Zeitpunkt").getByRole("textbox");
      await expect(question(page, "Zeitpunkt").getByRole("button")).toHaveCount(0);
      await field.fill("31.02.2026 10:00");
      await question(page, "Notiz").getByRole("textbox").fill("gesehen");
      // Enter in a field saves the page and stays.
      await field.press("Enter");
      await expect(question(page, "Zeitpunkt").getByRole("textbox")).toHaveValue("31.02.2026 10:00");
      await expect(question(page, "Zeitpunkt").getByRole("alert")).toHaveText(texts.de.invalid);
      await expect(question(page, "Zeitpunkt").getByRole("textbox")).toHaveAttribute("aria-invalid", "true");
      await expectNoOverflow(page);
      expect(await serverAnswers(admin, id, patientId)).toEqual([expect.objectContaining({ TextResponse: "gesehen" })]);

      await question(page, "Zeitpunkt").getByRole("textbox").fill("24.12.2026 18:30");
      await page.getByRole("button", { name: "Speichern" }).click();
      await expect(question(page, "Zeitpunkt").getByRole("textbox")).toHaveValue("24.12.2026 18:30");
      await expect(question(page, "Zeitpunkt").getByRole("alert")).toHaveCount(0);
      expect(
        (await serverAnswers(admin, id, patientId)).map((a) => a.DateTimeResponse ?? a.TextResponse).sort(),
      ).toEqual(["24.12.2026 18:30", "gesehen"]);
      await setup.close();
    });
  }
});

test("offline, a date and time is checked the same way and kept on the device", async () => {
  test.setTimeout(150_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "admin");
    const title = `Zeitpunkt offline ${Date.now()}`;
    const id = await surveyWith(page, title, {
      categories: [
        {
          Title: "Teil 1",
          questions: [{ Title: "Befinden", Type: "SingleSelection", answers: ["gut"] }, ...questions],
        },
      ],
    });
    await page.goto(rig.url("/surveys"));
    await download(page, title);
    await goOffline(context, rig.gate);
    await fillOffline(page, rig.url(`/survey/${id}`), "DT_OFF");
    const field = question(page, "Zeitpunkt").getByRole("textbox");
    await field.fill("24.13.2026 18:30");
    await field.press("Tab");
    await expect(question(page, "Zeitpunkt").getByRole("alert")).toHaveText(texts.de.invalid);
    await expect(field).toHaveValue("24.13.2026 18:30");
    await question(page, "Zeitpunkt").locator('input[type="datetime-local"]').fill("2026-12-24T18:30");
    await expect(field).toHaveValue("24.12.2026 18:30");
    await expect(page.getByTestId("fill")).not.toHaveAttribute("aria-busy", "true");
    await page.reload();
    await expect(question(page, "Zeitpunkt").getByRole("textbox")).toHaveValue("24.12.2026 18:30");
  } finally {
    await rig.dispose(context);
  }
});
