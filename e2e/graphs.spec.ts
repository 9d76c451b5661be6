import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { api, publishedSurvey } from "./api";
import { demoSurveys, everyChart } from "./statistics-support";
import { chooseLanguage, expectAnnounced, pickUp, scriptsStarted, signIn } from "./support";

const names = [
  "Antworten im Zeitverlauf",
  "Einzelne Punktzahlen",
  "Punktzahlen im Zeitverlauf",
  "Anzahl je Vorabfrage",
  "Punktzahlen je Vorabfrage",
  "Kategorie-Punktzahlen",
  "Zahlenbereich",
  "Datumsbereich",
];

/** A survey with two numerical questions and three closed cases answering both. */
async function surveyWithNumbers(page: Page, title: string) {
  const id = await publishedSurvey(page, title, [
    { Title: "Gewicht", Type: "Numerical" },
    { Title: "Größe", Type: "Numerical" },
  ]);
  const survey = await api<{ Categories: { Questions: { Id: number; Title: string }[] }[] }>(
    page,
    "GET",
    `/surveys/${id}`,
  );
  const q = (t: string) => survey.Categories[0].Questions.find((x) => x.Title === t)!.Id;
  for (const i of [1, 2, 3]) {
    const base = { SurveyId: id, PatientId: `G${id}_${i}` };
    await api(page, "POST", `/patients/add?patientId=${base.PatientId}&surveyId=${id}`);
    for (const [title, value] of [
      ["Gewicht", 60 + i * 10],
      ["Größe", 150 + i * 10],
    ] as const)
      await api(page, "POST", "/question-responses/numerical", {
        ...base,
        QuestionId: q(title),
        NumericalResponse: value,
      });
    await api(page, "POST", `/patients/close?patientId=${base.PatientId}&surveyId=${id}`);
  }
  return id;
}

const headings = (page: Page) => page.locator(".graph__head h3").allInnerTexts();

test("an analyst adds, edits, reorders and deletes charts, and benchmarking locks them", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const id = await surveyWithNumbers(page, "Diagramm-Test");
  await page.goto(`/survey/${id}/statistics#graphs`);
  await expect(page.getByText("Noch keine Diagramme.")).toBeVisible();

  // The modal searches the chart types; confirming needs one.
  await page.getByRole("button", { name: "Diagramm hinzufügen" }).click();
  const modal = page.getByRole("dialog", { name: "Diagramme hinzufügen" });
  await expect(modal.getByRole("button", { name: "Hinzufügen" })).toBeDisabled();
  await modal.getByLabel("Diagrammtypen suchen").fill("bereich");
  await expect(modal.getByRole("checkbox")).toHaveCount(2);
  await modal.getByLabel("Diagrammtypen suchen").fill("");
  for (const box of await modal.getByRole("checkbox").all()) await box.check();
  await modal.getByRole("button", { name: "Hinzufügen" }).click();
  await expect(page.locator(".graph__head h3")).toHaveCount(8);
  expect(await headings(page)).toEqual(names);

  // Every chart is drawn with its figures, or says why not.
  const card = (name: string) => page.getByRole("article", { name, exact: true });
  await expect(card("Antworten im Zeitverlauf").getByRole("img")).toBeVisible();
  await card("Antworten im Zeitverlauf").getByText("Zahlen anzeigen").click();
  await expect(card("Antworten im Zeitverlauf").getByRole("table")).toContainText("3");
  await expect(card("Datumsbereich")).toContainText("Noch keine Daten");
  await expect(card("Anzahl je Vorabfrage")).toContainText("Noch keine Daten");

  // The range chart starts in edit mode, without cancel, until two different questions are chosen.
  const range = card("Zahlenbereich");
  await expect(range.getByRole("button", { name: "Abbrechen" })).toHaveCount(0);
  await range.getByLabel("Erste Frage").selectOption({ label: "Gewicht" });
  await range.getByLabel("Zweite Frage").selectOption({ label: "Gewicht" });
  await expect(range.getByRole("button", { name: "Speichern" })).toBeDisabled();
  await range.getByLabel("Zweite Frage").selectOption({ label: "Größe" });
  await range.getByRole("button", { name: "Speichern" }).click();
  await expect(range.getByLabel("Erste Frage")).toHaveCount(0);
  await expect(range.getByRole("img")).toBeVisible();

  // Editing and cancelling keeps the previous questions.
  await range.getByRole("button", { name: "Zahlenbereich bearbeiten" }).click();
  await range.getByLabel("Erste Frage").selectOption({ label: "Größe" });
  await range.getByLabel("Zweite Frage").selectOption({ label: "Gewicht" });
  await range.getByRole("button", { name: "Abbrechen" }).click();
  await range.getByRole("button", { name: "Zahlenbereich bearbeiten" }).click();
  await expect(range.getByLabel("Erste Frage")).toHaveValue(/\d+/);
  await expect(range.getByLabel("Erste Frage").locator("option:checked")).toHaveText("Gewicht");
  await expect(range.getByLabel("Zweite Frage").locator("option:checked")).toHaveText("Größe");
  await range.getByRole("button", { name: "Abbrechen" }).click();

  // Reorder by keyboard: pick up the first chart, move it down one place, drop it; the order is kept.
  await pickUp(page, page.getByRole("button", { name: /^Antworten im Zeitverlauf verschieben/ }));
  await page.keyboard.press("ArrowDown");
  await expectAnnounced(page, "Antworten im Zeitverlauf über Position 2.");
  // The list shows the drop at once; the reload comes once the server has the new order.
  const saved = page.waitForResponse((r) => /\/charts\/reorder\//.test(r.url()));
  await page.keyboard.press("Space");
  await expect.poll(() => headings(page)).toEqual([names[1], names[0], ...names.slice(2)]);
  expect((await saved).ok()).toBe(true);
  await page.reload();
  await expect.poll(() => headings(page)).toEqual([names[1], names[0], ...names.slice(2)]);
  // The reloaded page comes alive before the next click, as every page opened by address does (e2e/test.ts).
  await scriptsStarted(page);

  // Reorder with the move button (the same path the mouse-free page uses).
  await page.getByRole("button", { name: "Datumsbereich nach oben" }).click();
  await expect.poll(() => headings(page)).toEqual([names[1], names[0], ...names.slice(2, 6), names[7], names[6]]);

  // Delete, after a confirmation.
  await card("Kategorie-Punktzahlen").getByRole("button", { name: "Kategorie-Punktzahlen löschen" }).click();
  await page.getByRole("dialog", { name: "Diagramm löschen?" }).getByRole("button", { name: "Löschen" }).click();
  await expect(page.locator(".graph__head h3")).toHaveCount(7);

  // Benchmarking draws the other survey's charts beside them and locks add, edit, delete and reorder.
  const clone = await api<{ Id: number }>(page, "POST", `/surveys/${id}/clone`);
  await api(page, "POST", `/surveys/${clone.Id}/approve`);
  await page.goto(`/survey/${id}/statistics?benchmark=${clone.Id}#graphs`);
  await expect(page.getByRole("button", { name: "Diagramm hinzufügen" })).toBeDisabled();
  await expect(range.getByRole("button", { name: "Zahlenbereich bearbeiten" })).toBeDisabled();
  await expect(range.getByRole("button", { name: "Zahlenbereich löschen" })).toBeDisabled();
  await expect(page.getByRole("button", { name: /verschieben/ })).toHaveCount(0);
  await expect(range.getByRole("region", { name: "Vergleich" })).toContainText("Noch keine Daten");
});

/** A survey whose dashboard holds the first three chart types, in the order of `names`. */
async function dashboardOfThree(page: Page, title: string) {
  const id = await surveyWithNumbers(page, title);
  const dashboard = await api<{ Id: number }>(page, "POST", `/statistics-dashboards/get-by-survey-id/${id}`, {
    Filters: {},
  });
  await api(page, "POST", `/statistics-dashboards/${dashboard.Id}/charts/add`, {
    ChartAddRequests: ["SurveyResponsesOverTime", "IndividualSurveyScores", "ScoreResultsOverTime"].map(
      (ChartType) => ({ ChartType }),
    ),
  });
  return id;
}

test("charts are reordered by dragging their handle with the mouse", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "admin");
  const id = await dashboardOfThree(page, "Diagramm-Ziehen");
  await page.goto(`/survey/${id}/statistics#graphs`);
  await expect.poll(() => headings(page)).toEqual(names.slice(0, 3));
  const from = page.getByRole("button", { name: /^Antworten im Zeitverlauf verschieben/ });
  const to = page.getByRole("button", { name: /^Einzelne Punktzahlen verschieben/ });
  await expect(page.locator(".graphs")).toHaveAttribute("aria-busy", "false");
  await from.scrollIntoViewIfNeeded();
  const a = (await from.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  // Past the 4 px activation distance first; once the drag has begun (and the page has settled, which on
  // a loaded machine takes a moment), onto the next chart's handle in small steps.
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2 + 10, { steps: 3 });
  await expect(page.locator(".sortable__item--dragging")).toHaveCount(1);
  // The dragged card's centre onto the next card's centre: the list sorts by the cards' centres, and the
  // charts differ in height.
  const card = (handle: typeof from) => handle.locator("xpath=ancestor::*[contains(@class, 'sortable__item')][1]");
  const middle = (box: { y: number; height: number }) => box.y + box.height / 2;
  const dragged = (await card(from).boundingBox())!;
  const target = (await card(to).boundingBox())!;
  const pointerY = a.y + a.height / 2 + (middle(target) - middle(dragged)) + 10;
  await page.mouse.move(a.x + a.width / 2, pointerY, { steps: 20 });
  await page.mouse.up();
  const moved = [names[1], names[0], names[2]];
  await expect.poll(() => headings(page)).toEqual(moved);
  await page.reload();
  await expect.poll(() => headings(page)).toEqual(moved);
});

test("without JavaScript the move buttons reorder the charts through the page", async ({ page, browser }) => {
  test.setTimeout(90_000);
  await signIn(page, "admin");
  const id = await dashboardOfThree(page, "Diagramm-ohne-Skript");
  const context = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  const plain = await context.newPage();
  await plain.goto(`/survey/${id}/statistics?raw=1#graphs`);
  // Drawn on the server: a chart is an SVG with its label, the figures a disclosure; the survey has no scored
  // question, so its two score charts say so instead of drawing every case at 0.
  await expect(plain.locator(".graph svg[role=img]")).toHaveCount(1);
  await expect(plain.getByText("Diese Umfrage hat keine Fragen mit Punktwertung.")).toHaveCount(2);
  await plain.getByRole("button", { name: "Einzelne Punktzahlen nach oben" }).click();
  await expect(plain).toHaveURL(new RegExp(`/survey/${id}/statistics\\?raw=1#graphs$`));
  await expect.poll(() => headings(plain)).toEqual([names[1], names[0], names[2]]);
  await plain.getByRole("button", { name: "Antworten im Zeitverlauf nach unten" }).click();
  await expect.poll(() => headings(plain)).toEqual([names[1], names[2], names[0]]);
  // The order is the dashboard's, not the page's: the API reads it back.
  await plain.close();
  await page.goto(`/survey/${id}/statistics#graphs`);
  await expect.poll(() => headings(page)).toEqual([names[1], names[2], names[0]]);
  await context.close();
});

test("the score charts of the demo wound survey say it has no scored questions, in German and English", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const wound = (await demoSurveys(page)).find((s) => s.Title === "Wundverlauf – Dokumentation")!;
  const charts = await everyChart(page, wound.Id);
  const card = (name: string) => page.getByRole("article", { name, exact: true });
  try {
    for (const [lang, counts, scores, none] of [
      [
        "Deutsch",
        "Antworten im Zeitverlauf",
        ["Einzelne Punktzahlen", "Punktzahlen im Zeitverlauf", "Punktzahlen je Vorabfrage", "Kategorie-Punktzahlen"],
        "Diese Umfrage hat keine Fragen mit Punktwertung.",
      ],
      [
        "English",
        "Responses over time",
        ["Individual survey scores", "Score results over time", "Scores per preliminary question", "Category scores"],
        "This survey has no scored questions.",
      ],
    ] as const) {
      await page.goto("/surveys");
      await chooseLanguage(page, lang);
      await page.goto(`/survey/${wound.Id}/statistics#graphs`);
      await expect(card(counts).getByRole("img")).toBeVisible();
      for (const name of scores) {
        await expect(card(name), name).toContainText(none);
        await expect(card(name).getByRole("img"), name).toHaveCount(0);
        // Nothing to choose for a chart that cannot be drawn.
        await expect(card(name).getByRole("combobox"), name).toHaveCount(0);
      }
    }
  } finally {
    await page.goto("/surveys");
    await chooseLanguage(page, "Deutsch");
    await charts.remove();
  }
});

test("deleting a chart asks first, with the focus on keeping it", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "admin");
  const id = await dashboardOfThree(page, "Diagramm-Löschen");
  await page.goto(`/survey/${id}/statistics#graphs`);
  await expect.poll(() => headings(page)).toEqual(names.slice(0, 3));
  await expect(page.locator(".graphs")).toHaveAttribute("aria-busy", "false");
  const remove = page.getByRole("button", { name: "Einzelne Punktzahlen löschen" });
  const dialog = page.getByRole("dialog", { name: "Diagramm löschen?" });

  // By keyboard: the confirmation opens with the focus on "Abbrechen", so Enter keeps the chart.
  await remove.focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("„Einzelne Punktzahlen“");
  await expect(dialog.getByRole("button", { name: "Abbrechen" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(remove).toBeFocused();
  // Escape keeps it too.
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect.poll(() => headings(page)).toEqual(names.slice(0, 3));

  // Confirmed: the chart goes, the focus moves to the chart that takes its place.
  await expect(page.locator(".graphs")).toHaveAttribute("aria-busy", "false");
  await remove.click();
  await dialog.getByRole("button", { name: "Abbrechen" }).press("Tab");
  await expect(dialog.getByRole("button", { name: "Löschen" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect.poll(() => headings(page)).toEqual([names[0], names[2]]);
  await expect(page.getByRole("heading", { level: 3, name: names[2] })).toBeFocused();
  await expect(page.getByRole("status").filter({ hasText: "„Einzelne Punktzahlen“ wurde gelöscht." })).toHaveCount(1);
  await page.reload();
  await expect.poll(() => headings(page)).toEqual([names[0], names[2]]);
});

test("a benchmark started from the graphs tab stays on the graphs tab, and so does its reset", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "admin");
  const id = await dashboardOfThree(page, "Diagramm-Vergleich");
  const clone = await api<{ Id: number }>(page, "POST", `/surveys/${id}/clone`);
  await api(page, "POST", `/surveys/${clone.Id}/approve`);
  await page.goto(`/survey/${id}/statistics#graphs`);
  const graphsTab = page.getByRole("tab", { name: "Diagramme" });
  await expect(graphsTab).toHaveAttribute("aria-selected", "true");
  await page.getByRole("link", { name: "Benchmark" }).click();
  const bench = page.getByRole("dialog", { name: "Mit einer anderen Umfrage vergleichen" });
  // Cancelling goes back to the graphs.
  await bench.getByRole("link", { name: "Abbrechen" }).click();
  await expect(bench).toBeHidden();
  await expect(graphsTab).toHaveAttribute("aria-selected", "true");
  await page.getByRole("link", { name: "Benchmark" }).click();
  await bench.getByRole("radio").first().check();
  await bench.getByRole("button", { name: "Jetzt vergleichen" }).click();
  await expect(page).toHaveURL(new RegExp(`benchmark=${clone.Id}#graphs$`));
  await expect(graphsTab).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("region", { name: "Vergleich" }).first()).toBeVisible();
  await page.getByRole("link", { name: /Benchmark: .*zurücksetzen/ }).click();
  await expect(page.getByRole("region", { name: "Vergleich" })).toHaveCount(0);
  await expect(page).toHaveURL(/#graphs$/);
  await expect(graphsTab).toHaveAttribute("aria-selected", "true");
});

test("the demo wound survey's charts and figures say what they show, in German and English", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const wound = (await demoSurveys(page)).find((s) => s.Title === "Wundverlauf – Dokumentation")!;
  const charts = await everyChart(page, wound.Id);
  const card = (name: string) => page.getByRole("article", { name, exact: true });
  try {
    for (const lang of [
      {
        button: "Deutsch" as const,
        amount: "Anzahl je Vorabfrage",
        about: "Vorabfrage: Art der Wunde",
        completed: "Abgeschlossene Befragungen (Anzahl)",
        range: "Zahlenbereich",
        figures: "Zahlen anzeigen",
        half: /^\d+,5$/,
        answered: /^\d+ Antwort(en)?, \d+ nicht beantwortet$/,
      },
      {
        button: "English" as const,
        amount: "Amount per preliminary question",
        about: "Preliminary question: Art der Wunde",
        completed: "Completed surveys (count)",
        range: "Numerical range",
        figures: "Show figures",
        half: /^\d+\.5$/,
        answered: /^\d+ answers?, \d+ not answered$/,
      },
    ]) {
      await page.goto("/surveys");
      await chooseLanguage(page, lang.button);
      await page.goto(`/survey/${wound.Id}/statistics#graphs`);
      // The preliminary question's name under the title, on the axis and in the image's name.
      const amount = card(lang.amount);
      await expect(amount.getByText(lang.about, { exact: true })).toBeVisible();
      const bars = amount.getByRole("img");
      await expect(bars).toHaveAttribute(
        "aria-label",
        new RegExp(`${lang.about}.*${lang.completed.replace(/[()]/g, "\\$&")}`),
      );
      await expect(bars.locator("text", { hasText: lang.completed })).toHaveCount(1);
      await expect(bars.locator("text", { hasText: /^Art der Wunde$/ })).toHaveCount(1);
      // The range: a point per case, nothing joining them, its axes named after the questions with the unit.
      const range = card(lang.range).getByRole("img");
      await expect(range.locator("text", { hasText: "Wundfläche (cm²)" })).toHaveCount(1);
      await expect(range.locator("text", { hasText: "Schmerz beim Verbandwechsel (0–10)" })).toHaveCount(1);
      await expect(range.locator("path")).toHaveCount(0);
      expect(await range.locator("circle").count()).toBeGreaterThan(10);
      // Half square centimetres in the figures, written the language's way.
      await card(lang.range).getByText(lang.figures).click();
      const cells = await card(lang.range).getByRole("cell").allInnerTexts();
      expect(
        cells.some((c) => lang.half.test(c.trim())),
        cells.slice(0, 12).join(" | "),
      ).toBe(true);

      // The results: each question's answers with those who were asked and gave none.
      await page.goto(`/survey/${wound.Id}/statistics#results`);
      const totals = await page.locator(".qstat__total").allInnerTexts();
      expect(totals.length).toBeGreaterThan(0);
      for (const total of totals) expect(total.trim()).toMatch(lang.answered);
    }
  } finally {
    await page.goto("/surveys");
    await chooseLanguage(page, "Deutsch");
    await charts.remove();
  }
});
