import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./test";
import { api } from "./api";
import { expectNoSeriousViolations } from "./axe";
import { chooseLanguage, signIn } from "./support";

/**
 * The survey list's Import dialog (docs/decisions/040-fhir.md): a FHIR Questionnaire is checked, what cannot
 * be kept is listed, the Draft survey is made and, with that list said once more, opens in the editor. By
 * keyboard, in German and English, and without JavaScript; a file the browser calls application/fhir+json
 * (the product's own export) is taken, a Questionnaire without a question is refused.
 */

// One editor account: its language is switched in one test and back at its end.
test.describe.configure({ mode: "serial" });

const vitals = path.join(import.meta.dirname, "..", "tests", "api", "fhir-questionnaires", "vitals.json");
const patient = path.join(import.meta.dirname, "..", "tests", "api", "fhir-questionnaires", "not-a-questionnaire.json");

test("an editor imports a Questionnaire by keyboard, reading what is not kept first", async ({ page }) => {
  await signIn(page, "editor");
  await page.getByRole("link", { name: "Importieren" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "FHIR-Fragebogen importieren" });
  await expect(dialog).toBeVisible();
  // A Patient resource is refused with a message, and nothing is created.
  await dialog.getByLabel("Fragebogen-Datei (FHIR R4, JSON)").setInputFiles(patient);
  await dialog.getByRole("button", { name: "Datei prüfen" }).click();
  await expect(dialog.getByRole("alert")).toHaveText(
    "Die Datei enthält eine Ressource vom Typ Patient, keinen Fragebogen (Questionnaire).",
  );
  await expectNoSeriousViolations(page, "the import dialog with its error");
  await dialog.getByLabel("Fragebogen-Datei (FHIR R4, JSON)").setInputFiles(vitals);
  await dialog.getByRole("button", { name: "Datei prüfen" }).click();
  await expect(dialog.getByText("„Vital signs follow-up“ wird eine Entwurfsumfrage")).toBeVisible();
  await expect(dialog.getByTestId("import-not-kept").getByRole("listitem")).toHaveCount(5);
  await expectNoSeriousViolations(page, "the import dialog's preview");
  // Focus starts on the button that creates the survey.
  await expect(dialog.getByRole("button", { name: "Entwurfsumfrage anlegen" })).toBeFocused();
  await page.keyboard.press("Enter");
  // Made: what was not kept is said once more, and the survey opens from there.
  await expect(dialog.getByText("„Vital signs follow-up“ ist als Entwurfsumfrage angelegt.")).toBeVisible();
  await expect(dialog.getByRole("heading", { name: "5 Angaben wurden nicht übernommen" })).toBeVisible();
  await expect(dialog.getByTestId("import-not-kept").getByRole("listitem")).toHaveCount(5);
  await expect(dialog.getByText("Diese Liste bleibt im Änderungsprotokoll der Umfrage erhalten.")).toBeVisible();
  await expectNoSeriousViolations(page, "the import dialog after the survey was made");
  await expect(dialog.getByRole("link", { name: "Entwurfsumfrage öffnen" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/survey\/\d+\/edit#start$/);
  await expect(page.getByTestId("survey-title")).toHaveText("Vital signs follow-up");
});

test("a file of the product's own export (application/fhir+json) opens as a survey at once; an empty one is refused", async ({
  page,
}) => {
  await signIn(page, "editor");
  const list = await page.request.get("/api/surveys?filterString=Herzinsuffizienz");
  const heart = ((await list.json()) as { Data: { Id: number }[] }).Data[0]!.Id;
  const exported = await page.request.get(`/api/surveys/${heart}/fhir/questionnaire`);
  expect(exported.headers()["content-type"]).toContain("application/fhir+json");
  // Under a title of its own: other tests find the demo survey by its title.
  const questionnaire = { ...((await exported.json()) as object), title: `Aus dem Export ${Date.now()}` };
  await page.getByRole("link", { name: "Importieren" }).click();
  const dialog = page.getByRole("dialog", { name: "FHIR-Fragebogen importieren" });
  const input = dialog.getByLabel("Fragebogen-Datei (FHIR R4, JSON)");
  await input.setInputFiles({
    name: "leer.fhir.json",
    mimeType: "application/fhir+json",
    buffer: Buffer.from(JSON.stringify({ resourceType: "Questionnaire", status: "draft", title: "Leer" })),
  });
  await dialog.getByRole("button", { name: "Datei prüfen" }).click();
  await expect(dialog.getByRole("alert")).toContainText(
    "Der Fragebogen enthält keine Frage, die eine Umfrage aufnehmen kann; es wird nichts angelegt.",
  );
  await input.setInputFiles({
    name: "herz.fhir.json",
    mimeType: "application/fhir+json",
    buffer: Buffer.from(JSON.stringify(questionnaire)),
  });
  await dialog.getByRole("button", { name: "Datei prüfen" }).click();
  await expect(dialog.getByText("Alles aus der Datei kann übernommen werden.")).toBeVisible();
  await dialog.getByRole("button", { name: "Entwurfsumfrage anlegen" }).click();
  // Nothing lost: the survey opens at once.
  await expect(page).toHaveURL(/\/survey\/\d+\/edit#start$/);
  await expect(page.getByTestId("survey-title")).toHaveText(questionnaire.title);
});

test("what an import did not keep is read later in the survey's change log, line by line", async ({ page }) => {
  await signIn(page, "admin");
  const vitalsJson = JSON.parse(fs.readFileSync(vitals, "utf8")) as object;
  const made = await api<{ SurveyId: number; NotKept: string[] }>(page, "POST", "/surveys/fhir-import", vitalsJson);
  expect(made.NotKept).toHaveLength(5);
  await page.goto(`/survey/${made.SurveyId}/trail`);
  const entry = page
    .getByRole("table", { name: /Änderungen an Aufbau/ })
    .locator("tbody tr")
    .last();
  await expect(entry).toContainText("Umfrage aus einem FHIR-Fragebogen importiert");
  // Each line whole, as an item of its own (not cut to a summary).
  const lines = entry.getByRole("listitem");
  for (const line of made.NotKept) await expect(lines.getByText(line, { exact: true })).toBeVisible();
});

test("in English, the dialog and its list speak English", async ({ page }) => {
  await signIn(page, "editor");
  await chooseLanguage(page, "English");
  await page.getByRole("link", { name: "Import", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Import a FHIR Questionnaire" });
  await dialog.getByLabel("Questionnaire file (FHIR R4, JSON)").setInputFiles(vitals);
  await dialog.getByRole("button", { name: "Check file" }).click();
  await expect(dialog.getByRole("heading", { name: "5 things cannot be kept" })).toBeVisible();
  await expect(dialog.getByText("1 item of type boolean is left out: “Do you smoke?”")).toBeVisible();
  // Escape closes it and nothing was created.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await chooseLanguage(page, "Deutsch");
  await expect(page.getByRole("link", { name: "Importieren" })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the same steps as plain form posts", async ({ page }) => {
    await signIn(page, "editor");
    await page.getByRole("link", { name: "Importieren" }).click();
    await page.getByLabel("Fragebogen-Datei (FHIR R4, JSON)").setInputFiles(vitals);
    await page.getByRole("button", { name: "Datei prüfen" }).click();
    await page.getByRole("button", { name: "Entwurfsumfrage anlegen" }).click();
    await expect(page.getByText("„Vital signs follow-up“ ist als Entwurfsumfrage angelegt.")).toBeVisible();
    await page.getByRole("link", { name: "Entwurfsumfrage öffnen" }).click();
    await expect(page).toHaveURL(/\/survey\/\d+\/edit/);
  });
});

test("the statistics screen exports the cases as FHIR NDJSON", async ({ page }) => {
  await signIn(page, "editor");
  const list = await page.request.get("/api/surveys?filterString=Herzinsuffizienz");
  const heart = ((await list.json()) as { Data: { Id: number }[] }).Data[0].Id;
  await page.goto(`/survey/${heart}/statistics`);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export (FHIR NDJSON)" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`survey-${heart}-responses.ndjson`);
  const lines = fs
    .readFileSync(await file.path(), "utf8")
    .trim()
    .split("\n");
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) {
    const resource = JSON.parse(line) as { resourceType: string; status: string };
    expect(resource.resourceType).toBe("QuestionnaireResponse");
    expect(resource.status).toBe("completed");
  }
});
