import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { png } from "./images";
import { chooseLanguage, signIn } from "./support";

/**
 * Every screen at a phone's width (390 px) and at a desktop's (1366 px), in German and English: no page is
 * wider than the screen, so nothing has to be scrolled sideways to be read or reached.
 */

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
];

async function fitsTheScreen(page: Page, where: string) {
  await page.waitForLoadState("networkidle");
  const { scroll, view, widest } = await page.evaluate(() => {
    const root = document.documentElement;
    // The element that sticks out furthest, to name it when the page is too wide.
    let widest = "";
    let right = root.clientWidth;
    for (const el of Array.from(document.body.querySelectorAll<HTMLElement>("*"))) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > right + 1 && getComputedStyle(el).position !== "fixed") {
        right = r.right;
        widest = `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 80);
      }
    }
    return { scroll: root.scrollWidth, view: root.clientWidth, widest };
  });
  expect(scroll, `${where} is ${scroll - view} px wider than the screen (${widest})`).toBeLessThanOrEqual(view);
}

/** A survey with a question of every kind (an image too), published, with one case started. */
async function everyKind(page: Page) {
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Breiten ${Date.now()}` });
  const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Alles" });
  const ask = (body: Record<string, unknown>) =>
    api(page, "POST", "/questions", { SurveyId: survey.Id, CategoryId: category.Id, ...body });
  await ask({
    Title:
      "Eine sehr lange Frage, die auf einem Telefon über mehrere Zeilen laufen muss, ohne die Seite zu verbreitern?",
    Type: "SingleSelection",
    AnswerOptions: [{ Text: "Ja" }, { Text: "Nein" }],
  });
  await ask({ Title: "Mehrfach", Type: "MultipleSelection", AnswerOptions: [{ Text: "Kopf" }, { Text: "Bauch" }] });
  await ask({ Title: "Zahl", Type: "Numerical", Unit: "kg" });
  await ask({ Title: "Zeitpunkt", Type: "DateTime" });
  await ask({ Title: "Text", Type: "FreeText", AllowFileAttachments: true });
  await ask({
    Title: "Körperstelle",
    Type: "Image",
    ImageSrc: `data:image/png;base64,${png(600, 400).toString("base64")}`,
    AnswerOptions: [
      { Text: "Knie links außen", X: 0.95, Y: 0.6 },
      { Text: "Schulter", X: 0.05, Y: 0.2 },
    ],
  });
  await api(page, "POST", `/surveys/${survey.Id}/approve`);
  await api(page, "POST", `/patients/add?patientId=WIDE_1&surveyId=${survey.Id}`);
  return survey.Id;
}

for (const language of ["de-DE", "en-US"] as const) {
  test(`no screen is wider than the screen at 390 and 1366 px [${language}]`, async ({ page }) => {
    test.setTimeout(240_000);
    await signIn(page, "admin");
    const id = await everyKind(page);
    const draft = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Entwurf ${Date.now()}` });
    if (language === "en-US") {
      await chooseLanguage(page, "English");
    }
    const screens = [
      "/surveys",
      "/survey-archives",
      `/survey/${id}`,
      `/survey/${id}/fill/WIDE_1`,
      `/survey/${id}/fill/WIDE_1?page=questionnaire`,
      `/survey/${draft.Id}/edit#start`,
      `/survey/${draft.Id}/edit#intro`,
      `/survey/${draft.Id}/edit#preliminary`,
      `/survey/${id}/edit#questionnaire`,
      `/survey/${draft.Id}/edit#outro`,
      "/survey/1/statistics#results",
      "/survey/1/statistics#graphs",
      // The audit screens: the trail's changes hold visually hidden words ("wird zu") that must stay in its table.
      `/survey/${id}/trail`,
      `/survey/${id}/history?patientId=WIDE_1`,
      `/survey/${id}/data?patientId=WIDE_1`,
      "/403",
      "/nowhere",
    ];
    try {
      for (const viewport of WIDTHS) {
        await page.setViewportSize(viewport);
        for (const screen of screens) {
          await page.goto(screen);
          await fitsTheScreen(page, `${screen} at ${viewport.width} px`);
        }
        // Menus and modals open.
        await page.goto("/surveys");
        await page.getByTestId("survey-row").first().locator("summary").click();
        await fitsTheScreen(page, `the list's row menu at ${viewport.width} px`);
        await page.goto(`/survey/${id}/edit?confirm=unpublish`);
        await fitsTheScreen(page, `the status dialog at ${viewport.width} px`);
      }
    } finally {
      // The language is the account's: the tests after this one sign in as this person in German.
      if (language === "en-US") {
        await page.goto("/surveys");
        await chooseLanguage(page, "Deutsch");
      }
    }
    // Last: the page of an ended session ends this one.
    await page.goto("/401");
    await fitsTheScreen(page, "/401 at 1366 px");
    await page.setViewportSize(WIDTHS[0]!);
    await fitsTheScreen(page, "/401 at 390 px");
  });
}

/** The words of an element's text that the layout cut across two lines. */
function cutWords(page: Page, selector: string) {
  return page.locator(selector).evaluateAll((elements) => {
    const cut: string[] = [];
    for (const el of elements) {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of (node.textContent ?? "").matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const lines = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
          if (lines.size > 1) cut.push(word[0]);
        }
      }
    }
    return cut;
  });
}

for (const language of ["de-DE", "en-US"] as const) {
  test(`a survey's title in the list keeps its words whole at 390 px [${language}]`, async ({ page }) => {
    await signIn(page, "admin");
    // Long German words that no other test searches for; the survey is deleted again at the end.
    const title = `Entlassungsmanagement Rückmeldeformular ${Date.now()}`;
    const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: title });
    if (language === "en-US") {
      await chooseLanguage(page, "English");
    }
    try {
      await page.setViewportSize(WIDTHS[0]!);
      await page.goto(`/surveys?q=${encodeURIComponent(title)}`);
      const row = page.getByTestId("survey-row").filter({ hasText: title });
      await expect(row).toHaveCount(1);
      expect(await cutWords(page, '[data-testid="survey-row"] [data-testid="row-title"]')).toEqual([]);
      // The status stays in the row, under the title, and the row's menu beside it.
      const [titleBox, statusBox, menuBox] = await Promise.all(
        [row.getByTestId("row-title"), row.locator(".status"), row.locator("summary")].map((l) => l.boundingBox()),
      );
      expect(statusBox!.y).toBeGreaterThanOrEqual(titleBox!.y + titleBox!.height - 1);
      expect(menuBox!.x).toBeGreaterThanOrEqual(titleBox!.x + titleBox!.width - 1);
      await fitsTheScreen(page, "the list with a long title at 390 px");
    } finally {
      if (language === "en-US") {
        await page.setViewportSize(WIDTHS[1]!);
        await page.goto("/surveys");
        await chooseLanguage(page, "Deutsch");
      }
      await api(page, "POST", `/surveys/${survey.Id}/archive`);
      await api(page, "DELETE", `/surveys/${survey.Id}/archive`);
    }
  });
}
