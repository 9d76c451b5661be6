import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { chooseLanguage, signIn } from "./support";

/**
 * The change log reads each change by its fields (docs/decisions/028-audit-reading.md): a creation and a
 * deletion list what they held, not the fields they left empty; a deleted question's type by its name; the
 * switches of the start tab by theirs, in German and English.
 */

const words = {
  "de-DE": {
    language: "Deutsch",
    table: /Änderungen an Aufbau/,
    deleted: /^Frage gelöscht$/,
    created: /^Frage angelegt$/,
    changed: /^Umfrage geändert$/,
    type: "Fragetyp: Zahl → wird zu leer",
    unit: "Einheit: „cm“ → wird zu leer",
    preliminary: "Vorabfragen aktiviert: nein → wird zu ja",
    retention: "Aufbewahrung (Monate): leer → wird zu „18“",
    empty: /leer → wird zu leer/,
    more: "Weitere Angaben geändert.",
  },
  "en-US": {
    language: "English",
    table: /Changes to the survey.s structure/,
    deleted: /^Question deleted$/,
    created: /^Question added$/,
    changed: /^Survey changed$/,
    type: "Question type: Number → becomes empty",
    unit: "Unit: “cm” → becomes empty",
    preliminary: "Preliminary questions enabled: no → becomes yes",
    retention: "Retention (months): empty → becomes “18”",
    empty: /empty → becomes empty/,
    more: "Other details changed.",
  },
} as const;

async function readTrail(page: Page, surveyId: number, w: (typeof words)[keyof typeof words]) {
  await page.goto(`/survey/${surveyId}/trail`);
  const table = page.getByRole("table", { name: w.table });
  const rows = table.locator("tbody tr");
  const byAction = (action: RegExp) => rows.filter({ has: page.locator("td:nth-child(3)", { hasText: action }) });
  await expect(byAction(w.deleted).locator("td:nth-child(5) li")).toContainText([w.type, w.unit]);
  const changes = byAction(w.changed).locator("td:nth-child(5)");
  await expect(changes.filter({ hasText: w.preliminary })).toHaveCount(1);
  await expect(changes.filter({ hasText: w.retention })).toHaveCount(1);
  // A creation lists what it set; none of its fields reads empty before and after, none is only "more".
  await expect(byAction(w.created).first().locator("td:nth-child(5) li").first()).toBeVisible();
  await expect(table).not.toContainText(w.empty);
  await expect(table).not.toContainText(w.more);
}

test("the change log lists what a question held when it was made and deleted, and names every setting, in German and English", async ({
  page,
}) => {
  await signIn(page, "admin");
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Protokoll in Worten ${Date.now()}` });
  const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Messung" });
  const place = { SurveyId: survey.Id, CategoryId: category.Id };
  const height = await api<{ Id: number }>(page, "POST", "/questions", {
    ...place,
    Title: "Größe",
    Type: "Numerical",
    Unit: "cm",
  });
  await api(page, "POST", "/questions", { ...place, Title: "Notiz", Type: "FreeText" });
  await api(page, "DELETE", `/questions/${height.Id}?surveyId=${survey.Id}`);
  await api(page, "PUT", `/surveys/${survey.Id}`, { IsPatientFormEnabled: true });
  await api(page, "PUT", `/surveys/${survey.Id}`, { RetentionMonths: 18 });

  await chooseLanguage(page, "Deutsch");
  await readTrail(page, survey.Id, words["de-DE"]);
  await chooseLanguage(page, "English");
  try {
    await readTrail(page, survey.Id, words["en-US"]);
  } finally {
    await chooseLanguage(page, "Deutsch");
  }
});
