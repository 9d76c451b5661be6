import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { publishedSurvey } from "./api";
import { chooseLanguage, signIn } from "./support";

/** Counts read as people say them, one and many, in German and English: the import's preview, refused files. */

// One account: its language is switched in each test and back at its end.
test.describe.configure({ mode: "serial" });

/** A Questionnaire of one group with one question. */
const oneOfEach = {
  name: "one.json",
  mimeType: "application/json",
  buffer: Buffer.from(
    JSON.stringify({
      resourceType: "Questionnaire",
      status: "active",
      title: "Einzeln",
      item: [{ linkId: "g", type: "group", text: "Teil", item: [{ linkId: "q", type: "string", text: "Notiz" }] }],
    }),
  ),
};

const refused = (name: string) => ({ name, mimeType: "application/octet-stream", buffer: Buffer.from("MZ") });

async function importPreview(page: Page, link: string, dialogName: string, file: string, check: string) {
  await page.getByRole("link", { name: link, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: dialogName });
  await dialog.getByLabel(file).setInputFiles(oneOfEach);
  await dialog.getByRole("button", { name: check }).click();
  return dialog;
}

test("the import's preview counts one category and one question as one, in German and English", async ({ page }) => {
  await signIn(page, "editor");
  await chooseLanguage(page, "Deutsch");
  const de = await importPreview(
    page,
    "Importieren",
    "FHIR-Fragebogen importieren",
    "Fragebogen-Datei (FHIR R4, JSON)",
    "Datei prüfen",
  );
  await expect(de.getByText("„Einzeln“ wird eine Entwurfsumfrage mit", { exact: false })).toHaveText(
    "„Einzeln“ wird eine Entwurfsumfrage mit 1 Kategorie, 1 Frage und 0 Vorabfragen.",
  );
  await page.keyboard.press("Escape");
  await chooseLanguage(page, "English");
  try {
    const en = await importPreview(
      page,
      "Import",
      "Import a FHIR Questionnaire",
      "Questionnaire file (FHIR R4, JSON)",
      "Check file",
    );
    await expect(en.getByText("“Einzeln” becomes a draft survey with", { exact: false })).toHaveText(
      "“Einzeln” becomes a draft survey with 1 category, 1 question and 0 preliminary questions.",
    );
    await page.keyboard.press("Escape");
  } finally {
    await chooseLanguage(page, "Deutsch");
  }
});

test("refused files are counted as one file or as files, in German and English", async ({ page }) => {
  await signIn(page, "admin");
  const id = await publishedSurvey(page, `Zählung ${Date.now()}`, [
    { Title: "Befund", Type: "FreeText", attachments: true },
  ]);
  const fill = async (patientId: string, start: string, label: string) => {
    await page.goto(`/survey/${id}`);
    await page
      .getByLabel(/Patient/)
      .first()
      .fill(patientId);
    await page.getByRole("button", { name: start }).click();
    await expect(page).toHaveURL(new RegExp(`/fill/${patientId}`));
    await page.waitForLoadState("networkidle");
    return page.getByTestId("attachments").getByLabel(label);
  };
  const box = page.getByTestId("attachments");
  const files = await fill(`ZAHL_DE_${Date.now()}`, "Neue Umfrage starten", "Anhänge");
  await files.setInputFiles([refused("a.exe")]);
  await expect(box.getByText("1 Datei nicht hochgeladen", { exact: true })).toBeVisible();
  await files.setInputFiles([refused("b.exe"), refused("c.exe")]);
  await expect(box.getByText("2 Dateien nicht hochgeladen", { exact: true })).toBeVisible();

  await chooseLanguage(page, "English");
  try {
    const english = await fill(`ZAHL_EN_${Date.now()}`, "Start new survey", "Attachments");
    await english.setInputFiles([refused("a.exe")]);
    await expect(box.getByText("1 file not uploaded", { exact: true })).toBeVisible();
    await english.setInputFiles([refused("b.exe"), refused("c.exe")]);
    await expect(box.getByText("2 files not uploaded", { exact: true })).toBeVisible();
  } finally {
    await chooseLanguage(page, "Deutsch");
  }
});
