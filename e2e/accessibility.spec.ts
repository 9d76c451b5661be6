import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./test";
import { api, publishedSurvey } from "./api";
import { expectNoSeriousViolations as check } from "./axe";
import { png } from "./images";
import {
  download,
  fillOffline,
  goOffline,
  goOnline,
  offlineRig,
  oneQuestion,
  signInAt,
  startCase,
} from "./offline-support";
import { surveyWithCases } from "./statistics-support";
import { chooseLanguage, openDatabase, signIn, surveyRow } from "./support";

// Every screen in its states (open menus, panels and modals), checked by axe-core against WCAG 2.1 A and AA.

// axe-core takes seconds per screen on the shared 2-core machine; the walks check dozens of screens.
test.describe.configure({ timeout: 900_000 });

const HEART = "Herzinsuffizienz – Verlaufsbogen";

const row = surveyRow;

async function surveyId(page: Page, title: string) {
  const list = await api<{ Data: { Id: number; Title: string }[] }>(
    page,
    "GET",
    `/surveys?filterString=${encodeURIComponent(title)}`,
  );
  return list.Data.find((s) => s.Title === title)!.Id;
}

/** A published survey with one question of every kind, an exit answer and a file field. */
async function everyKind(page: Page, title: string) {
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: title });
  const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Alles" });
  const base = { SurveyId: survey.Id, CategoryId: category.Id };
  const options: Record<string, string[]> = {
    SingleSelection: ["Ja", "Nein", "Abbrechen"],
    MultipleSelection: ["Kopf", "Bauch"],
    MultipleChoice: ["rot", "grün"],
  };
  for (const [Type, Title] of [
    ["SingleSelection", "Einzeln"],
    ["MultipleSelection", "Mehrfach"],
    ["MultipleChoice", "Auswahl"],
    ["Numerical", "Zahl"],
    ["DateTime", "Zeitpunkt"],
    ["FreeText", "Text"],
  ] as const) {
    const q = await api<{ Id: number }>(page, "POST", "/questions", {
      ...base,
      Title,
      Type,
      AllowFileAttachments: Type === "FreeText",
    });
    for (const text of options[Type] ?? [])
      await api(page, "POST", "/answer-options", {
        SurveyId: survey.Id,
        QuestionId: q.Id,
        Text: text,
        IsExitAnswer: text === "Abbrechen",
      });
  }
  await api(page, "POST", "/questions", {
    ...base,
    Title: "Körperstelle",
    Type: "Image",
    ImageSrc: `data:image/png;base64,${png().toString("base64")}`,
    AnswerOptions: [
      { Text: "Knie", X: 0.3, Y: 0.6 },
      { Text: "Schulter", X: 0.7, Y: 0.2 },
    ],
  });
  await api(page, "POST", `/surveys/${survey.Id}/approve`);
  return survey.Id;
}

test("the provider's sign-in and terms pages and the error pages", async ({ page, browser }) => {
  await page.goto("/surveys");
  await expect(page.locator("#username")).toBeVisible();
  await check(page, "sign-in page");
  await page.locator("#username").fill("user");
  await page.locator("#password").fill("falsch");
  await page.locator("button[type=submit]").click();
  await expect(page.locator("#username")).toBeVisible();
  await check(page, "sign-in page with an error");

  await page.goto("/no/such/page");
  await check(page, "404 signed out");
  await page.goto("/authentication/error");
  await check(page, "authentication error");

  for (const who of ["newcomer", "outsider"] as const) {
    const context = await browser.newContext();
    const other = await context.newPage();
    await signIn(other, who);
    if (who === "newcomer") await expect(other.getByRole("heading", { name: "Nutzungsbedingungen" })).toBeVisible();
    else await expect(other).toHaveURL(/\/403$/);
    await check(other, who === "newcomer" ? "terms page" : "403");
    await context.close();
  }

  await signIn(page, "approver");
  await page.goto("/no/such/page");
  await check(page, "404 signed in");
  const db = openDatabase();
  try {
    db.prepare("update sessions set expires_at = ?").run("2000-01-01T00:00:00.000Z");
  } finally {
    db.close();
  }
  await page.goto("/surveys");
  await expect(page).toHaveURL(/\/401$/);
  await check(page, "401");
});

/** The name and description Chromium's accessibility tree gives `control`: what a screen reader is told. */
async function browserNameAndDescription(page: Page, control: Locator) {
  const cdp = await page.context().newCDPSession(page);
  try {
    await control.evaluate((el) => el.setAttribute("data-ax-probe", ""));
    const { result } = await cdp.send("Runtime.evaluate", { expression: 'document.querySelector("[data-ax-probe]")' });
    const { nodes } = await cdp.send("Accessibility.getPartialAXTree", {
      objectId: result.objectId,
      fetchRelatives: false,
    });
    return { name: nodes[0]?.name?.value ?? "", description: nodes[0]?.description?.value ?? "" };
  } finally {
    await control.evaluate((el) => el.removeAttribute("data-ax-probe"));
    await cdp.detach();
  }
}

test("the survey list with its search, filters, menus and modals, and the archive", async ({ page }) => {
  await signIn(page, "admin");
  await expect(row(page, HEART)).toBeVisible();
  await check(page, "survey list");
  await page.getByRole("searchbox", { name: "Umfragen durchsuchen" }).fill("herz");
  await page.getByRole("button", { name: "Suchen" }).click();
  await expect(page).toHaveURL(/\?q=herz/);
  await check(page, "survey list, searched");
  await page.goto("/surveys?q=gibt+es+nicht");
  await check(page, "survey list, nothing found");
  await page.goto("/surveys");
  await page.getByTestId("ready-filter").check();
  await check(page, "survey list, ready-for-offline filter");
  await page.getByTestId("ready-filter").uncheck();

  // Icon controls are named by their tooltip, which the browser does not read a second time as their
  // description (as it did while they had the same text as aria-label too).
  for (const [control, name] of [
    [row(page, HEART).locator("summary"), `Aktionen für ${HEART}`],
    [page.getByRole("button", { name: "Suchen" }), "Suchen"],
  ] as const) {
    await expect(control).toHaveAttribute("title", name);
    expect(await browserNameAndDescription(page, control)).toEqual({ name, description: "" });
  }
  await row(page, HEART).locator("summary").click();
  await check(page, "survey list, row menu");
  await row(page, HEART).getByRole("link", { name: "Klonen" }).click();
  await expect(page.getByRole("dialog", { name: "Umfrage klonen" })).toBeVisible();
  await check(page, "clone modal");
  await page.keyboard.press("Escape");
  await row(page, HEART).locator("summary").click();
  await row(page, HEART).getByRole("link", { name: "Archivieren" }).click();
  await expect(page.getByRole("dialog", { name: "Umfrage archivieren" })).toBeVisible();
  await check(page, "archive modal");
  await page.keyboard.press("Escape");
  await page.locator('summary[title="Weitere Aktionen"]').click();
  await check(page, "survey list, more actions");

  // An archived survey of its own, so the archive lists something and its delete modal opens.
  const own = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Archiv A11y ${Date.now()}` });
  await api(page, "POST", `/surveys/${own.Id}/archive`);
  await page.goto("/survey-archives");
  await expect(page.getByTestId("archive-row").first()).toBeVisible();
  await check(page, "archive");
  await page.getByTestId("archive-row").first().locator("summary").click();
  await check(page, "archive, row menu");
  await page.getByTestId("archive-row").first().getByRole("link", { name: "Endgültig löschen" }).click();
  await expect(page.getByRole("dialog", { name: "Umfrage endgültig löschen" })).toBeVisible();
  await check(page, "delete modal");
});

test("the editor's tabs and modals", async ({ page }) => {
  await signIn(page, "admin");
  const draft = await api<{ Id: number }>(page, "POST", `/surveys/${await surveyId(page, HEART)}/clone`);
  // A title of its own: other specs find the demo survey by its title.
  await api(page, "PUT", `/surveys/${draft.Id}`, { Title: `A11y-Editor ${Date.now()}` });
  await page.goto(`/survey/${draft.Id}/edit#start`);
  await check(page, "editor, start tab");
  await page.getByRole("button", { name: "Titel bearbeiten" }).click();
  await check(page, "editor, title being edited");
  await page.keyboard.press("Escape");
  for (const tab of ["Einleitung", "Vorabfragen", "Abschluss"]) {
    await page.getByRole("tab", { name: tab }).click();
    await check(page, `editor, ${tab} tab`);
  }
  await page.getByRole("tab", { name: "Vorabfragen" }).click();
  await page.getByRole("button", { name: "Vorabfrage hinzufügen" }).click();
  await expect(page.getByRole("dialog", { name: "Vorabfrage hinzufügen" })).toBeVisible();
  await check(page, "add preliminary question modal");
  await page.keyboard.press("Escape");

  await page.getByRole("tab", { name: /Fragebogen/ }).click();
  await check(page, "editor, questionnaire tab");
  await page.getByRole("button", { name: "+ Kategorie hinzufügen" }).click();
  await expect(page.getByRole("dialog", { name: "Kategorie hinzufügen" })).toBeVisible();
  await check(page, "add category modal");
  await page.keyboard.press("Escape");
  const category = page.getByTestId("category").first();
  await category.locator("summary[title='Frage hinzufügen']").first().click();
  await check(page, "editor, question kind menu");
  await page.getByRole("button", { name: "Bild", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Frage hinzufügen: Bild" })).toBeVisible();
  await check(page, "add image question modal");
  await page.keyboard.press("Escape");
  await page.getByTestId("answer").first().locator("summary").first().click();
  await check(page, "editor, answer actions menu");
  await page.getByTestId("answer").first().getByRole("button", { name: "Bearbeiten" }).click();
  await expect(page.getByRole("dialog", { name: "Antwort bearbeiten" })).toBeVisible();
  await check(page, "edit answer modal");
  await page.keyboard.press("Escape");
  await category.getByRole("button", { name: "Löschen" }).first().click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await check(page, "delete confirmation");
  await page.keyboard.press("Escape");

  await page.getByRole("button", { name: "Vorschau" }).click();
  await expect(page.getByRole("dialog", { name: "Vorschau" })).toBeVisible();
  await check(page, "preview modal");
  await page.keyboard.press("Escape");
  await page.getByRole("link", { name: "Veröffentlichen" }).click();
  await expect(page.getByRole("dialog", { name: "Umfrage veröffentlichen" })).toBeVisible();
  await check(page, "publish modal");
});

test("the start page and the fill pages of every question kind", async ({ page }) => {
  await signIn(page, "admin");
  const heart = await surveyId(page, HEART);
  await page.goto(`/survey/${heart}`);
  await check(page, "start page");
  await page.getByLabel("Patienten-ID").fill("abc-1");
  await expect(page.getByTestId("patient-id-mark")).toHaveAttribute("data-state", "bad");
  await check(page, "start page, invalid id");
  await startCase(page, `A11Y_${Date.now()}`);
  await check(page, "fill, intro page");
  await page.getByRole("link", { name: "Speichern und weiter" }).click();
  await expect(page.getByText("Seite 2 von 4")).toBeVisible();
  await check(page, "fill, preliminary page");
  await page.getByRole("group", { name: "Geschlecht" }).getByLabel("weiblich").check();
  await page.getByRole("group", { name: "Altersgruppe" }).getByLabel("65 bis 79").check();
  await page.getByRole("button", { name: "Weiter" }).click();
  await expect(page.getByText("Seite 3 von 4")).toBeVisible();
  await check(page, "fill, questionnaire page");

  const id = await everyKind(page, `Alle Fragearten ${Date.now()}`);
  await page.goto(`/survey/${id}`);
  await startCase(page, "KINDS_1");
  await expect(page.getByTestId("fill-question")).toHaveCount(7);
  await check(page, "fill, every question kind");
  const box = page.getByTestId("attachments");
  await box.getByLabel("Anhänge").setInputFiles({ name: "bild.png", mimeType: "image/png", buffer: png() });
  await expect(box.getByText("bild.png")).toBeVisible();
  await box
    .getByLabel("Anhänge")
    .setInputFiles({ name: "virus.exe", mimeType: "application/octet-stream", buffer: Buffer.from("MZ") });
  await expect(box.getByTestId("attachment-failed")).toBeVisible();
  await check(page, "fill, attachments and a refused file");
  await page.getByLabel("Abbrechen").click();
  await expect(page.getByRole("dialog", { name: "Umfrage beenden?" })).toBeVisible();
  await check(page, "fill, exit confirmation");
  await page.getByRole("button", { name: "Ja, beenden" }).click();
  await expect(page.getByText("Ihre Angaben wurden gespeichert.")).toBeVisible();
  await check(page, "fill, finished");
});

test("statistics: results with filters and modals, graphs with their modal", async ({ page }) => {
  await signIn(page, "admin");
  const id = await surveyWithCases(page, `A11y-Statistik ${Date.now()}`, ["Ja", "Nein", "Ja"]);
  const clone = await api<{ Id: number }>(page, "POST", `/surveys/${id}/clone`);
  await api(page, "POST", `/surveys/${clone.Id}/approve`);
  await page.goto(`/survey/${id}/statistics`);
  await expect(page.getByText("3 abgeschlossen von 0 angestrebten")).toBeVisible();
  await check(page, "statistics, results");
  await page.getByText("Filter", { exact: true }).click();
  await page.locator("summary", { hasText: "Umfrage-IDs" }).click();
  await check(page, "statistics, filter panel");
  await page.goto(`/survey/${id}/statistics?pie=1&cloud=1`);
  await page.getByRole("switch", { name: "Kreisdiagramme" }).waitFor();
  await check(page, "statistics, pie charts and word cloud");
  await page.getByRole("link", { name: "Alle 3 Antworten zeigen" }).click();
  await expect(page.getByRole("dialog", { name: "Antworten auf Kommentar" })).toBeVisible();
  await check(page, "free-text modal");
  await page.keyboard.press("Escape");
  await page.getByRole("link", { name: "Anhänge (1)" }).click();
  await expect(page.getByRole("dialog", { name: "Anhänge zu Kommentar" })).toBeVisible();
  await check(page, "attachments modal");
  await page.keyboard.press("Escape");
  await page.getByRole("link", { name: "Benchmark" }).click();
  const bench = page.getByRole("dialog", { name: "Mit einer anderen Umfrage vergleichen" });
  await expect(bench).toBeVisible();
  await check(page, "benchmark modal");
  await bench.getByRole("radio").first().check();
  await bench.getByRole("button", { name: "Jetzt vergleichen" }).click();
  await expect(page.getByRole("columnheader", { name: "Anzahl Benchmark" }).first()).toBeVisible();
  await check(page, "statistics, benchmarked");

  await page.goto(`/survey/${id}/statistics#graphs`);
  await expect(page.getByText("Noch keine Diagramme.")).toBeVisible();
  await check(page, "graphs, empty");
  await page.getByRole("button", { name: "Diagramm hinzufügen" }).click();
  const modal = page.getByRole("dialog", { name: "Diagramme hinzufügen" });
  await check(page, "add charts modal");
  for (const box of await modal.getByRole("checkbox").all()) await box.check();
  await modal.getByRole("button", { name: "Hinzufügen" }).click();
  await expect(page.locator(".graph__head h3")).toHaveCount(8);
  await page.getByText("Zahlen anzeigen").first().click();
  await check(page, "graphs, every chart kind");
  await page.goto(`/survey/${id}/statistics?benchmark=${clone.Id}#graphs`);
  await expect(page.getByRole("button", { name: "Diagramm hinzufügen" })).toBeDisabled();
  await check(page, "graphs, benchmarked");
});

test("the sync modal with an unsynced offline fill", async () => {
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "admin");
    const title = `A11y-Offline ${Date.now()}`;
    const id = await publishedSurvey(page, title, oneQuestion);
    await page.goto(rig.url("/surveys"));
    await download(page, title);
    // The same case opened on the server meanwhile (after the download, so this device does not know it,
    // decision 038): the sync cannot place the offline fill, the modal opens.
    await api(page, "POST", `/patients/add?patientId=SYNC_1&surveyId=${id}`);
    await goOffline(context, rig.gate);
    await fillOffline(page, rig.url(`/survey/${id}`), "SYNC_1");
    await page.goto(rig.url("/surveys"));
    await expect(page.getByTestId("open-sync")).toBeVisible();
    await check(page, "survey list offline, one unsynced fill");
    await goOnline(context, rig.gate);
    await expect(page.getByRole("dialog", { name: "Nicht synchronisierte Offline-Erfassungen" })).toBeVisible({
      timeout: 20_000,
    });
    await check(page, "sync modal");
  } finally {
    await rig.dispose(context);
  }
});

test("in English: list, start, fill, statistics and graphs", async ({ page }) => {
  await signIn(page, "editor");
  await chooseLanguage(page, "English");
  try {
    await check(page, "survey list (en)");
    await row(page, HEART).locator("summary").click();
    await row(page, HEART).getByRole("link", { name: "Clone" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await check(page, "clone modal (en)");
    const heart = await surveyId(page, HEART);
    await page.goto(`/survey/${heart}`);
    await check(page, "start page (en)");
    await page
      .getByLabel(/patient/i)
      .first()
      .fill(`EN_${Date.now()}`);
    await page.getByTestId("start-button").click();
    await expect(page).toHaveURL(/\/fill\//);
    await check(page, "fill, intro page (en)");
    await page.goto(`/survey/${heart}/statistics`);
    await check(page, "statistics (en)");
    await page.goto(`/survey/${heart}/statistics#graphs`);
    await check(page, "graphs (en)");
    await page.goto(`/survey/${heart}/edit#questionnaire`);
    await check(page, "editor (en)");
  } finally {
    await page.goto("/surveys");
    await chooseLanguage(page, "Deutsch");
  }
});
