import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { expectNoOverflow, openCase, question, serverAnswers, surveyWith } from "./fill-support";
import { png } from "./images";
import { signIn } from "./support";

/** A signed-in page with JavaScript, to set up surveys and check what reached the server. */
async function adminPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, "admin");
  return page;
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  for (const { width, height } of [
    { width: 1366, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test(`the preliminary page cannot be passed until every preliminary question is answered (${width} px)`, async ({
      page,
      browser,
    }) => {
      await page.setViewportSize({ width, height });
      const admin = await adminPage(browser);
      const id = await surveyWith(admin, `Vorab ohne JS ${width} ${Date.now()}`, {
        preliminary: [
          { Title: "Geschlecht", answers: ["weiblich", "männlich"] },
          { Title: "Altersgruppe", answers: ["unter 65", "65 und älter"] },
        ],
        categories: [
          { Title: "Teil 1", questions: [{ Title: "Befinden", Type: "SingleSelection", answers: ["gut"] }] },
        ],
      });
      await signIn(page, "user");
      const patientId = `PRE_NOJS_${width}`;
      await openCase(page, id, patientId);
      const reason = page.getByRole("alert").filter({ hasText: "Bitte beantworten Sie alle Fragen, um fortzufahren." });

      // An address that names a later page lands on this one while nothing is answered.
      await page.goto(`/survey/${id}/fill/${patientId}?page=questionnaire`);
      await expect(page.getByRole("group", { name: "Geschlecht" })).toBeVisible();
      await expect(question(page, "Befinden")).toHaveCount(0);

      // Nothing answered: the page stays, with the reason.
      await page.getByRole("button", { name: "Weiter" }).click();
      await expect(page.getByRole("group", { name: "Geschlecht" })).toBeVisible();
      await expect(reason).toBeVisible();
      await expect(question(page, "Befinden")).toHaveCount(0);
      await expectNoOverflow(page);

      // One of two: the answer given is kept, the page still stays.
      await page.getByRole("group", { name: "Geschlecht" }).getByLabel("weiblich").check();
      await page.getByRole("button", { name: "Weiter" }).click();
      await expect(reason).toBeVisible();
      await expect(page.getByRole("group", { name: "Geschlecht" }).getByLabel("weiblich")).toBeChecked();
      await expect(page.getByRole("group", { name: "Altersgruppe" })).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByRole("group", { name: "Geschlecht" })).not.toHaveAttribute("aria-invalid", "true");

      // Every one answered: on to the questionnaire.
      await page.getByRole("group", { name: "Altersgruppe" }).getByLabel("65 und älter").check();
      await page.getByRole("button", { name: "Weiter" }).click();
      await expect(question(page, "Befinden")).toBeVisible();
      const kept = await api<unknown[]>(admin, "GET", `/attribute-responses/?surveyId=${id}&patientId=${patientId}`);
      expect(kept).toHaveLength(2);
      await admin.context().close();
    });

    test(`a chosen file is uploaded through the page's form; refused files show their reason (${width} px)`, async ({
      page,
      browser,
    }) => {
      await page.setViewportSize({ width, height });
      const admin = await adminPage(browser);
      const id = await surveyWith(admin, `Anhang ohne JS ${width} ${Date.now()}`, {
        categories: [{ Title: "Teil 1", questions: [{ Title: "Befund", Type: "FreeText", attachments: true }] }],
      });
      await signIn(page, "user");
      const patientId = `FILE_NOJS_${width}`;
      await openCase(page, id, patientId);
      const box = question(page, "Befund");

      // A file and an answer, sent with the page's save.
      await box.getByRole("textbox").fill("mit Bild");
      await box.getByLabel("Anhänge").setInputFiles({ name: "roentgen.png", mimeType: "image/png", buffer: png() });
      await page.getByRole("button", { name: "Speichern" }).click();
      await expect(box.getByRole("listitem").filter({ hasText: "roentgen.png" })).toBeVisible();
      await expect(box.getByRole("textbox")).toHaveValue("mit Bild");
      expect((await serverAnswers(admin, id, patientId)).map((a) => a.TextResponse)).toEqual(["mit Bild"]);

      // Refusals keep the API's rules and messages: the type, the size. A name already there is freed instead,
      // as a camera names every photo alike: the second roentgen.png is kept as "roentgen (2).png".
      await box.getByLabel("Anhänge").setInputFiles([
        { name: "virus.exe", mimeType: "application/octet-stream", buffer: Buffer.from("MZ") },
        { name: "gross.png", mimeType: "image/png", buffer: Buffer.alloc(4_000_001, 1) },
        { name: "roentgen.png", mimeType: "image/png", buffer: png() },
      ]);
      await page.getByRole("button", { name: "Speichern" }).click();
      const failed = box.getByTestId("attachment-failed");
      await expect(box.getByText("2 Dateien nicht hochgeladen", { exact: true })).toBeVisible();
      await expect(failed.filter({ hasText: "virus.exe" })).toContainText("Dieser Dateityp ist nicht erlaubt.");
      await expect(failed.filter({ hasText: "gross.png" })).toContainText("4 MB");
      await expect(failed).toHaveCount(2);
      await expect(box.getByRole("listitem").filter({ hasText: "roentgen.png" })).toBeVisible();
      await expect(box.getByRole("listitem").filter({ hasText: "roentgen (2).png" })).toBeVisible();
      await expectNoOverflow(page);

      const state = await api<{ PatientDataId: number }>(
        admin,
        "GET",
        `/patients?patientId=${patientId}&surveyId=${id}`,
      );
      const counts = await api<{ NumberOfFileAttachment: number }[]>(
        admin,
        "GET",
        `/file-attachments/count?patientDataId=${state.PatientDataId}`,
      );
      expect(counts.map((c) => c.NumberOfFileAttachment)).toEqual([2]);
      await admin.context().close();
    });
  }
});
