import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./test";
import { api, publishedSurvey } from "./api";
import { expectNoSeriousViolations as check } from "./axe";
import { openCase, question } from "./fill-support";
import { download, fillOffline, goOffline, goOnline, offlineRig, oneQuestion, signInAt } from "./offline-support";
import { surveyWithCases } from "./statistics-support";
import { accounts, signIn } from "./support";

/**
 * A case's history and the survey's change log (docs/decisions/028-audit-reading.md): a value set online on
 * the fill page, then overwritten by an offline fill's sync, shows in order with its path and its person,
 * with and without JavaScript; the change log filters by action without JavaScript.
 */

async function historyRows(page: Page, surveyId: number, patientId: string) {
  await page.goto(`/survey/${surveyId}/history`);
  await page.getByLabel("Patienten-ID").fill(patientId);
  await page.getByRole("button", { name: "Verlauf anzeigen" }).click();
  await expect(page).toHaveURL(new RegExp(`history\\?patientId=${patientId}`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Verlauf des Falls ${patientId}`);
  const table = page.getByRole("table", { name: "Befinden" });
  await expect(table).toBeVisible();
  return table.locator("tbody tr");
}

async function noScriptPage(browser: Browser) {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, "approver");
  return page;
}

test("a value set online and overwritten by an offline sync shows in the case's history, with and without JavaScript", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, "admin");
  const title = `Verlauf ${Date.now()}`;
  const surveyId = await publishedSurvey(admin, title, oneQuestion);

  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "admin");
    await page.goto(rig.url("/surveys"));
    await download(page, title);

    // Online, on the fill page: the participant answers "schlecht".
    const user = await browser.newPage();
    await signIn(user, "user");
    await openCase(user, surveyId, "HIST_1");
    await question(user, "Befinden").getByLabel("schlecht").check();
    await expect(user.getByTestId("fill")).not.toHaveAttribute("aria-busy", "true");
    await expect.poll(async () => (await historyRows(admin, surveyId, "HIST_1")).count(), { timeout: 15_000 }).toBe(1);

    // Offline, the same patient id answered "gut"; the sync overwrites the server's case.
    await goOffline(context, rig.gate);
    await fillOffline(page, rig.url(`/survey/${surveyId}`), "HIST_1");
    await page.goto(rig.url("/surveys"));
    await goOnline(context, rig.gate);
    const modal = page.getByRole("dialog", { name: "Nicht synchronisierte Offline-Erfassungen" });
    await expect(modal).toBeVisible({ timeout: 20_000 });
    const row = modal.locator(`[data-testid=sync-row][data-patient-id="HIST_1"]`);
    await row.getByRole("button", { name: "Überschreiben" }).click();
    await expect(row).toHaveCount(0);

    const expected = [
      ["schlecht", accounts.user.fullName, "Online (Ausfüllen)"],
      ["gut", accounts.admin.fullName, "Offline-Synchronisierung"],
    ];
    // With JavaScript, from the statistics page's link.
    await admin.goto(`/survey/${surveyId}/statistics`);
    await admin.getByRole("link", { name: "Verlauf eines Falls" }).click();
    await expect(admin).toHaveURL(new RegExp(`/survey/${surveyId}/history$`));
    const rows = await historyRows(admin, surveyId, "HIST_1");
    await expect(rows).toHaveCount(2);
    for (const [i, cells] of expected.entries()) {
      const tds = rows.nth(i).locator("td");
      await expect(tds.nth(0)).toHaveText(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/);
      await expect(tds.nth(1)).toHaveText(cells[0]);
      await expect(tds.nth(2)).toHaveText(cells[1]);
      await expect(tds.nth(3)).toHaveText(cells[2]);
    }
    await expect(admin.getByRole("columnheader", { name: "Weg" })).toBeVisible();
    await check(admin, "case history");

    // Without JavaScript, as another approver.
    const plain = await noScriptPage(browser);
    const plainRows = await historyRows(plain, surveyId, "HIST_1");
    await expect(plainRows).toHaveCount(2);
    for (const [i, cells] of expected.entries()) {
      await expect(plainRows.nth(i).locator("td").nth(1)).toHaveText(cells[0]);
      await expect(plainRows.nth(i).locator("td").nth(2)).toHaveText(cells[1]);
      await expect(plainRows.nth(i).locator("td").nth(3)).toHaveText(cells[2]);
    }

    // The survey's change log, filtered by action through its plain GET form.
    await plain.goto(`/survey/${surveyId}/trail`);
    await plain.getByLabel("Aktion").selectOption({ label: "Umfrage veröffentlicht" });
    await plain.getByRole("button", { name: "Filter anwenden" }).click();
    await expect(plain).toHaveURL(/action=survey\.approve/);
    const trail = plain.getByRole("table", { name: /Änderungen an Aufbau/ });
    const trailRows = trail.locator("tbody tr");
    await expect(trailRows.first()).toBeVisible();
    // Each action once, by its name in the page's language, and what it changed in words.
    for (const text of await trailRows.locator("td:nth-child(3)").allTextContents()) {
      expect(text).toBe("Umfrage veröffentlicht");
    }
    await expect(trailRows.first().locator("td:nth-child(4)")).toHaveText("Umfrage");
    await expect(trailRows.first().locator("td:nth-child(5)")).toHaveText("Status: Entwurf → wird zu Aktiv");
    await expect(plain.getByLabel("Aktion")).toHaveValue("survey.approve");
    await plain.getByLabel("Von (Tag)").fill("2999-01-01");
    await plain.getByRole("button", { name: "Filter anwenden" }).click();
    await expect(trail).toContainText("Keine Einträge für diesen Filter.");
    await plain.context().close();

    // By keyboard, with JavaScript: the filter's fields in order, sent with Enter.
    await admin.goto(`/survey/${surveyId}/trail`);
    await admin.getByLabel("Person").focus();
    await admin.keyboard.press("Tab");
    await expect(admin.getByLabel("Aktion")).toBeFocused();
    await admin.getByLabel("Aktion").selectOption("survey.create");
    await admin.keyboard.press("Tab");
    await expect(admin.getByLabel("Von (Tag)")).toBeFocused();
    await admin.keyboard.press("Enter");
    await expect(admin).toHaveURL(/action=survey\.create/);
    await expect(admin.getByRole("table", { name: /Änderungen an Aufbau/ }).locator("tbody tr")).toHaveCount(1);
    await check(admin, "survey change log");
  } finally {
    await rig.dispose(context);
  }
});

test("the statistics' free-text list links each patient id to its case's history, without JavaScript", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, "admin");
  const id = await surveyWithCases(admin, `Verlauf Freitext ${Date.now()}`, ["Ja", "Nein"]);
  const survey = await api<{ Categories: { Questions: { Id: number; Title: string }[] }[] }>(
    admin,
    "GET",
    `/surveys/${id}`,
  );
  const note = survey.Categories[0].Questions.find((q) => q.Title === "Kommentar")!.Id;

  const plain = await noScriptPage(browser);
  await plain.goto(`/survey/${id}/statistics?modal=freetext&question=${note}`);
  await plain.getByRole("link", { name: `Verlauf des Falls S${id}_1` }).click();
  await expect(plain).toHaveURL(new RegExp(`/survey/${id}/history\\?patientId=S${id}_1$`));
  const rows = plain.getByRole("table", { name: "Kommentar" }).locator("tbody tr");
  await expect(rows).toHaveCount(1);
  await expect(rows.first().locator("td").nth(1)).toHaveText("lange gewartet");
  await expect(rows.first().locator("td").nth(2)).toHaveText(accounts.admin.fullName);
  await expect(rows.first().locator("td").nth(3)).toHaveText("Online (Ausfüllen)");
  await plain.context().close();
});

test("the change log says in words what changed, is linked from the editor, and tells others it is not theirs", async ({
  browser,
}) => {
  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, "admin");
  const survey = await api<{ Id: number }>(admin, "POST", "/surveys", { Title: `Protokoll ${Date.now()}` });
  const category = await api<{ Id: number }>(admin, "POST", "/categories", { SurveyId: survey.Id, Title: "Messung" });
  const created = await api<{ Id: number }>(admin, "POST", "/questions", {
    SurveyId: survey.Id,
    CategoryId: category.Id,
    Title: "Größe",
    Type: "Numerical",
  });
  await api(admin, "PUT", `/questions/${created.Id}`, { Title: "Körpergröße", Unit: "cm" });
  await api(admin, "PUT", `/surveys/${survey.Id}`, { RequiresSignature: true, StartDate: "01.03.2027" });

  await admin.goto(`/survey/${survey.Id}/edit`);
  await admin.getByTestId("editor-trail").click();
  await expect(admin).toHaveURL(new RegExp(`/survey/${survey.Id}/trail$`));
  const rows = admin.getByRole("table", { name: /Änderungen an Aufbau/ }).locator("tbody tr");
  const question = rows.filter({ has: admin.locator("td:nth-child(3)", { hasText: /^Frage geändert$/ }) });
  await expect(question.locator("td:nth-child(4)")).toHaveText(["Frage „Körpergröße“"]);
  await expect(question.locator("td:nth-child(5) li")).toHaveText([
    "Titel: „Größe“ → wird zu „Körpergröße“",
    "Einheit: leer → wird zu „cm“",
  ]);
  const settings = rows.filter({ has: admin.locator("td:nth-child(3)", { hasText: /^Umfrage geändert$/ }) }).first();
  await expect(settings.locator("td:nth-child(5)")).toContainText("Abschluss mit Unterschrift: nein → wird zu ja");
  // No ids, column names, raw JSON or ISO times anywhere in the log.
  const text = await admin.getByRole("table", { name: /Änderungen an Aufbau/ }).innerText();
  expect(text).not.toMatch(/[{}]|_id|is_exit|\d{4}-\d{2}-\d{2}T|survey\.update/);
  await check(admin, "change log in words");

  // An editor who may not publish it, and a user of a published survey, read that this page is not theirs,
  // with the way back.
  const published = await publishedSurvey(admin, `Protokoll aktiv ${Date.now()}`, oneQuestion);
  for (const [who, id, page, heading] of [
    ["editor", survey.Id, "trail", "Änderungsprotokoll nicht verfügbar"],
    ["user", published, "history", "Verlauf nicht verfügbar"],
  ] as const) {
    const other = await (await browser.newContext()).newPage();
    await signIn(other, who);
    const answer = await other.goto(`/survey/${id}/${page}`);
    expect(answer?.status()).toBe(403);
    await expect(other.getByRole("heading", { level: 1 })).toHaveText(heading);
    await expect(other.getByRole("link", { name: "Zur Umfrage" })).toBeVisible();
    await expect(other).toHaveURL(new RegExp(`/survey/${id}/${page}$`));
    await other.context().close();
  }
});
