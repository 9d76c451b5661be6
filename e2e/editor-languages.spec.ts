import fs from "node:fs/promises";
import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { expectNoSeriousViolations } from "./axe";
import { chooseLanguage, scriptsStarted, signIn } from "./support";

/**
 * The editor's languages tab by keyboard alone, in both interface languages (docs/decisions/054): offer
 * Turkish, translate texts as they are typed (Tab from field to field), see the progress move, see a changed
 * source marked for review and confirm it, export XLIFF and import it back with one more translation.
 */

const words = {
  "de-DE": {
    language: "Deutsch",
    tab: "Sprachen",
    turkish: "Türkisch (Türkçe)",
    target: (field: string) => `${field} – Übersetzung (Türkisch)`,
    title: "Titel",
    review: "zu prüfen",
    confirm: "Als geprüft bestätigen",
    exportXliff: "XLIFF exportieren",
    importFile: "Datei importieren (XLIFF oder CSV)",
    preview: "Vorschau des Imports",
    apply: "Übernehmen",
    applied: "1 Übersetzung übernommen.",
    count: (n: number, review = 0) => `${n}/5${review ? `, ${review} prüfen` : ""}`,
    onlyOpen: "Nur fehlende und zu prüfende Texte zeigen",
    exportCsv: "CSV exportieren",
    otherSurvey: (file: number, own: number) =>
      `Die Datei wird nicht übernommen: Sie gehört zu einer anderen Umfrage (Nr. ${file}), nicht zu dieser (Nr. ${own}).`,
  },
  "en-US": {
    language: "English",
    tab: "Languages",
    turkish: "Turkish (Türkçe)",
    target: (field: string) => `${field} – translation (Turkish)`,
    title: "Title",
    review: "to review",
    confirm: "Confirm as reviewed",
    exportXliff: "Export XLIFF",
    importFile: "Import a file (XLIFF or CSV)",
    preview: "Import preview",
    apply: "Apply",
    applied: "1 translation applied.",
    count: (n: number, review = 0) => `${n}/5${review ? `, ${review} to review` : ""}`,
    onlyOpen: "Show only missing texts and those to review",
    exportCsv: "Export CSV",
    otherSurvey: (file: number, own: number) =>
      `The file is not taken: It belongs to another survey (no. ${file}), not to this one (no. ${own}).`,
  },
} as const;

async function draft(page: Page, title: string) {
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: title });
  const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Teil 1" });
  const question = await api<{ Id: number }>(page, "POST", "/questions", {
    SurveyId: survey.Id,
    CategoryId: category.Id,
    Title: "Wie geht es Ihnen?",
    Type: "SingleSelection",
    AnswerOptions: [{ Text: "gut" }, { Text: "schlecht" }],
  });
  return { id: survey.Id, questionId: question.Id };
}

for (const locale of ["de-DE", "en-US"] as const) {
  const w = words[locale];
  test(`${locale}: translating a survey by keyboard alone, with review marks, XLIFF and CSV`, async ({
    page,
  }, info) => {
    await signIn(page, "admin");
    if (locale === "en-US") await chooseLanguage(page, "English");
    try {
      const { id, questionId } = await draft(page, `Sprachen ${locale}`);
      await page.goto(`/survey/${id}/edit#languages`);
      await scriptsStarted(page);
      await expect(page.getByRole("tab", { name: w.tab })).toHaveAttribute("aria-selected", "true");

      // Offer Turkish: the checkbox by Space.
      await page.getByLabel(w.turkish).focus();
      await page.keyboard.press("Space");
      const progress = page.getByTestId("progress-tr").getByRole("cell").first();
      await expect(progress).toHaveText(w.count(0));

      // Translate three texts, Tab moving from field to field, each saved as it is typed and when left.
      const title = page.getByLabel(w.target(w.title), { exact: true });
      await expect(title).toHaveAttribute("lang", "tr");
      await expect(page.locator(`#${await title.getAttribute("id")}-source`)).toHaveAttribute("lang", "de");
      await title.focus();
      await page.keyboard.type("Dil testi");
      await page.keyboard.press("Tab");
      await page.keyboard.type("Bölüm 1");
      await page.keyboard.press("Tab");
      await page.keyboard.type("Nasılsınız?");
      await page.keyboard.press("Tab");
      await expect(progress).toHaveText(w.count(3));
      await expectNoSeriousViolations(page, `languages tab (${locale})`);

      // Only what is missing or to review: the two answers.
      await page.getByLabel(w.onlyOpen).focus();
      await page.keyboard.press("Space");
      await expect(page.locator("li.translation-row")).toHaveCount(2);
      await page.keyboard.press("Space");
      await expect(page.locator("li.translation-row")).toHaveCount(5);

      // A changed source marks its translation for review; confirming it takes the mark away.
      await api(page, "PUT", `/questions/${questionId}`, { Title: "Wie geht es Ihnen heute?" });
      await page.reload();
      await scriptsStarted(page);
      const row = page.getByTestId(`translation-question:${questionId}`);
      await expect(row.getByText(w.review, { exact: true })).toBeVisible();
      await expect(progress).toHaveText(w.count(3, 1));
      await row.getByRole("button", { name: w.confirm }).focus();
      await page.keyboard.press("Enter");
      await expect(progress).toHaveText(w.count(3));
      await expect(row.getByText(w.review, { exact: true })).toHaveCount(0);

      // Export XLIFF, add a translation as a translator would, and import it back.
      const downloading = page.waitForEvent("download");
      await page.getByRole("button", { name: w.exportXliff }).focus();
      await page.keyboard.press("Enter");
      const download = await downloading;
      expect(download.suggestedFilename()).toBe(`survey-${id}-tr.xlf`);
      const xml = await fs.readFile((await download.path())!, "utf8");
      expect(xml).toContain('srcLang="de" trgLang="tr"');
      expect(xml).toContain("<target>Nasılsınız?</target>");
      const edited = info.outputPath("translated.xlf");
      await fs.writeFile(
        edited,
        xml.replace("<source>gut</source>", "<source>gut</source>\n        <target>iyi</target>"),
      );
      await page.getByLabel(w.importFile).setInputFiles(edited);
      const preview = page.getByTestId("translation-import-preview");
      await expect(preview.getByRole("heading", { name: w.preview })).toBeFocused();
      await expect(preview.getByRole("listitem")).toHaveCount(1);
      await page.keyboard.press("Tab");
      await expect(preview.getByRole("button", { name: w.apply })).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(page.getByText(w.applied)).toBeVisible();
      await expect(progress).toHaveText(w.count(4));
      const saved = await api<{ Translations: Record<string, Record<string, { Text: string }>> }>(
        page,
        "GET",
        `/surveys/${id}`,
      );
      expect(
        Object.values(saved.Translations.tr!)
          .map((t) => t.Text)
          .sort(),
      ).toEqual(["Bölüm 1", "Dil testi", "Nasılsınız?", "iyi"].sort());

      // The CSV file says which survey and languages it holds; one for another survey is refused, saying which.
      const csvDownload = page.waitForEvent("download");
      await page.getByRole("button", { name: w.exportCsv }).focus();
      await page.keyboard.press("Enter");
      const csvFile = await csvDownload;
      expect(csvFile.suggestedFilename()).toBe(`survey-${id}-tr.csv`);
      const csv = await fs.readFile((await csvFile.path())!, "utf8");
      expect(csv.split("\r\n")[0]).toBe(`\uFEFFkey,de,tr,survey-${id}`);
      const other = info.outputPath("other.csv");
      await fs.writeFile(other, csv.replace(`survey-${id}`, `survey-${id + 1000}`).replace(",gut,iyi,", ",gut,iyi!,"));
      await page.getByLabel(w.importFile).setInputFiles(other);
      await expect(page.getByTestId("translation-import-refused")).toHaveText(w.otherSurvey(id + 1000, id));
      await expect(preview).toHaveCount(0);
    } finally {
      if (locale === "en-US") {
        await page.goto("/surveys");
        await chooseLanguage(page, "Deutsch");
      }
    }
  });
}

test("de-DE: the intro is translated in the rich-text editor beside its source as it reads", async ({ page }) => {
  await signIn(page, "admin");
  const { id } = await draft(page, "Sprachen Einleitung");
  await api(page, "PUT", `/surveys/${id}`, {
    IntroText: "<p>Willkommen <strong>bei uns</strong></p>",
    Languages: ["tr"],
  });
  await page.goto(`/survey/${id}/edit#languages`);
  await scriptsStarted(page);

  // The source reads as text with its formatting, not as markup.
  const row = page.getByTestId("translation-IntroText");
  const source = row.locator("#translation-tr-IntroText-source");
  await expect(source.locator("strong")).toHaveText("bei uns");
  await expect(source).not.toContainText("<p>");

  // The translation: a rich-text box in Turkish, named and described as the other fields, with the toolbar.
  const editor = row.getByRole("textbox", { name: "Einleitungstext – Übersetzung (Türkisch)" });
  await expect(editor).toHaveAttribute("lang", "tr");
  await expect(editor).toHaveAttribute("aria-multiline", "true");
  await expect(editor).toHaveAttribute("aria-describedby", "translation-tr-IntroText-source");
  await expect(
    row.getByRole("toolbar", { name: "Textformatierung: Einleitungstext – Übersetzung (Türkisch)" }),
  ).toBeVisible();
  await expect(row.locator("textarea")).toHaveCount(0);

  // Typed by keyboard, bold by its shortcut, saved when left.
  await editor.focus();
  await page.keyboard.type("Hoş ");
  await page.keyboard.press("Control+b");
  await page.keyboard.type("geldiniz");
  await page.keyboard.press("Control+b");
  await expect(page.getByTestId("translation-tr-IntroText-save-state")).not.toHaveText("");
  await page.keyboard.press("Tab");
  await expect(page.getByTestId("translation-tr-IntroText-save-state")).toHaveText("Gespeichert");
  await expectNoSeriousViolations(page, "languages tab with a rich text");
  const saved = await api<{ Translations: Record<string, Record<string, { Text: string }>> }>(
    page,
    "GET",
    `/surveys/${id}`,
  );
  expect(saved.Translations.tr!.IntroText!.Text).toBe("<p>Hoş <strong>geldiniz</strong></p>");

  // Read back formatted after a reload.
  await page.reload();
  await scriptsStarted(page);
  await expect(editor.locator("strong")).toHaveText("geldiniz");
  await expect(page.getByTestId("progress-tr").getByRole("cell").first()).toHaveText("1/6");
});
