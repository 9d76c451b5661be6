import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { DEMO_TITLES, demoSurveys, everyChart, wideSurvey } from "./statistics-support";
import { scriptsStarted, signIn } from "./support";

// The statistics screen at a phone's and a laptop's width, in German and English: nothing may be wider than
// the viewport, so that no statistics page scrolls sideways.

const sizes = [
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
];

/** Fails when the page is wider than the viewport, naming the elements that reach past its right edge. */
async function expectNoSidewaysScroll(page: Page, screen: string) {
  const found = await page.evaluate(() => {
    const width = window.innerWidth;
    const clipped = (e: Element) => {
      for (let p = e.parentElement; p; p = p.parentElement)
        if (getComputedStyle(p).overflowX !== "visible" && p !== document.body && p !== document.documentElement)
          return true;
      return false;
    };
    const reaches = (e: Element) => e.getBoundingClientRect().right > width + 0.5 && !clipped(e);
    // The innermost elements past the edge: what makes the page wide, rather than all it widens.
    const wide = [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((e) => reaches(e) && ![...e.children].some(reaches))
      .slice(0, 6)
      .map(
        (e) =>
          `${e.tagName.toLowerCase()}.${[...e.classList].join(".")} (${Math.round(e.getBoundingClientRect().right)})`,
      );
    return { scrollWidth: document.documentElement.scrollWidth, width, wide };
  });
  expect.soft(found.scrollWidth, `${screen}: ${found.wide.join(", ")}`).toBeLessThanOrEqual(found.width);
}

async function language(page: Page, name: "English" | "Deutsch") {
  await page.goto("/surveys");
  await page.setViewportSize(sizes[1]);
  await page.getByRole("button", { name }).first().click();
  await expect(page.locator("html")).toHaveAttribute("lang", name === "English" ? "en-US" : "de-DE");
}

test.use({ actionTimeout: 15_000 });

for (const lang of ["Deutsch", "English"] as const) {
  test(`no statistics tab scrolls sideways at 390 and 1366 px (${lang})`, async ({ page }) => {
    test.setTimeout(240_000);
    await signIn(page, "admin");
    const { id } = await wideSurvey(page, `Breite Statistik ${lang} ${Date.now()}`);
    const clone = await api<{ Id: number }>(page, "POST", `/surveys/${id}/clone`);
    await api(page, "POST", `/surveys/${clone.Id}/approve`);
    await language(page, lang);
    const en = lang === "English";
    try {
      for (const size of sizes) {
        await page.setViewportSize(size);
        const at = `${size.width} px, ${lang}`;
        await page.goto(`/survey/${id}/statistics?pie=1&cloud=1#results`);
        await expect(page.locator(".qstat").first()).toBeVisible();
        await expectNoSidewaysScroll(page, `results (${at})`);
        await page.locator(".stats-filters__summary").click();
        await expectNoSidewaysScroll(page, `results with the filters open (${at})`);

        await page.getByRole("navigation").getByRole("link", { name: "Verlauf", exact: true }).click();
        await expect(page.getByRole("heading", { level: 2, name: "Verlauf" })).toBeVisible();
        await expectNoSidewaysScroll(page, `results, second category (${at})`);
        await page.getByRole("link", { name: en ? "Show all 6 answers" : "Alle 6 Antworten zeigen" }).click();
        await expect(page.getByRole("dialog")).toContainText("Herzinsuffizienzverlaufskontrolldokumentationsbedarf");
        await expectNoSidewaysScroll(page, `free-text modal (${at})`);
        await page.keyboard.press("Escape");
        await expect(page.getByRole("dialog")).toBeHidden();

        await page.goto(`/survey/${id}/statistics?pie=1&benchmark=${clone.Id}#results`);
        await expect(page.locator(".qstat").first()).toBeVisible();
        await expectNoSidewaysScroll(page, `results, benchmarked (${at})`);

        await page.goto(`/survey/${id}/statistics#graphs`);
        await expect(page.locator(".graph__head h3")).toHaveCount(8);
        for (const details of await page.locator(".graph__figures summary").all()) await details.click();
        await expectNoSidewaysScroll(page, `graphs with their figures (${at})`);
        await page.getByRole("button", { name: en ? "Add chart" : "Diagramm hinzufügen" }).click();
        await expect(page.getByRole("dialog")).toBeVisible();
        await expectNoSidewaysScroll(page, `add-chart modal (${at})`);
        await page.keyboard.press("Escape");

        await page.goto(`/survey/${id}/statistics?benchmark=${clone.Id}#graphs`);
        await expect(page.locator(".graph__head h3")).toHaveCount(8);
        await expectNoSidewaysScroll(page, `graphs, benchmarked (${at})`);
      }
    } finally {
      await page.setViewportSize(sizes[1]);
      if (en) await language(page, "Deutsch");
    }
  });
}

test("every demo survey's statistics fit the screen at 390 and 1366 px, in German and English", async ({ page }) => {
  test.setTimeout(420_000);
  await signIn(page, "admin");
  const demos = await demoSurveys(page);
  expect(demos.map((s) => s.Title)).toEqual(DEMO_TITLES);
  const charts = [];
  for (const survey of demos) charts.push({ survey, ...(await everyChart(page, survey.Id)) });
  const wound = demos.find((s) => s.Title === "Wundverlauf – Dokumentation")!;
  const copy = demos.find((s) => s.Title === "Wundverlauf – Dokumentation (Station B)")!;
  try {
    for (const lang of ["Deutsch", "English"] as const) {
      await language(page, lang);
      for (const size of sizes) {
        await page.setViewportSize(size);
        const at = `${size.width} px, ${lang}`;
        for (const { survey, count } of charts) {
          await page.goto(`/survey/${survey.Id}/statistics?pie=1&cloud=1#results`);
          await expect(page.locator(".results")).toBeVisible();
          await expectNoSidewaysScroll(page, `${survey.Title}, results (${at})`);
          await page.goto(`/survey/${survey.Id}/statistics#graphs`);
          await expect(page.locator(".graph__head h3")).toHaveCount(count);
          await expectNoSidewaysScroll(page, `${survey.Title}, graphs (${at})`);
        }
        await page.goto(`/survey/${wound.Id}/statistics?pie=1&benchmark=${copy.Id}#results`);
        await expect(page.locator(".qstat").first()).toBeVisible();
        await expectNoSidewaysScroll(page, `${wound.Title}, results benchmarked (${at})`);
        await page.goto(`/survey/${wound.Id}/statistics?benchmark=${copy.Id}#graphs`);
        await expect(page.locator(".graph__pair").first()).toBeVisible();
        await expectNoSidewaysScroll(page, `${wound.Title}, graphs benchmarked (${at})`);
      }
    }
  } finally {
    await page.setViewportSize(sizes[1]);
    await language(page, "Deutsch");
    for (const { remove } of charts) await remove();
  }
});

/**
 * Buttons and selects of the Graphs tab (and its modal) outside the reorder handles and the figures tables'
 * sort buttons (which read as their column's header: see figuresSortButtons), with how they look.
 */
async function graphControls(page: Page) {
  // Away from every control, so that none is seen in its hover state.
  await page.mouse.move(0, 0);
  return page.locator(".graphs").evaluate((root) =>
    [...root.querySelectorAll<HTMLElement>("button, select, input[type=search]")]
      .filter((e) => !e.closest(".sortable__handle-group") && !e.closest("th") && e.getClientRects().length > 0)
      .map((e) => ({
        control: `${e.tagName.toLowerCase()} ${
          e.getAttribute("aria-label") ??
          // A field's label holds its text first, then the field itself.
          ((e as HTMLSelectElement).labels?.[0]?.childNodes[0]?.textContent ?? e.textContent ?? "").trim()
        }`,
        classes: [...e.classList].join(" "),
        radius: getComputedStyle(e).borderRadius,
        border: getComputedStyle(e).borderTopColor,
      })),
  );
}

/** The sort buttons of the open figures tables: their text and look against their header cell's. */
async function figuresSortButtons(page: Page) {
  return page.locator(".graphs details[open] th").evaluateAll((cells) =>
    cells.flatMap((th) => {
      const button = th.querySelector("button");
      if (!button) return [];
      const look = getComputedStyle(button);
      return [
        {
          name: button.textContent,
          classes: [...button.classList].join(" "),
          border: look.borderTopWidth,
          background: look.backgroundColor,
          sameFont: look.font === getComputedStyle(th).font,
        },
      ];
    }),
  );
}

test("pies have a colour key, several answers get bars, a one-category radar says why it is a line", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, "admin");
  const { id } = await wideSurvey(page, `Diagrammarten ${Date.now()}`);
  for (const size of sizes) {
    await page.setViewportSize(size);
    await page.goto(`/survey/${id}/statistics?pie=1#results`);
    const breath = "Wie stark ist die Atemnot bei alltäglicher Belastung, etwa beim Treppensteigen?";
    await expect(page.getByRole("img", { name: `Kreisdiagramm der Antworten auf ${breath}` })).toBeVisible();
    const key = page.getByRole("list", { name: `Farbschlüssel zu ${breath}` });
    await expect(key.getByRole("listitem")).toHaveText([
      /keine Atemnot, auch nicht beim Treppensteigen\s*33,33 %/,
      /leichte Atemnot erst nach zwei Stockwerken\s*33,33 %/,
      /starke Atemnot schon in Ruhe\s*33,33 %/,
    ]);
    const symptoms = "Welche Beschwerden traten in den letzten vier Wochen auf?";
    await expect(page.getByRole("img", { name: `Kreisdiagramm der Antworten auf ${symptoms}` })).toHaveCount(0);
    await expect(page.getByRole("img", { name: `Balkendiagramm der Antworten auf ${symptoms}` })).toBeVisible();
    await expect(page.getByRole("article", { name: symptoms })).toContainText(
      "Mehrfachauswahl: Die Anteile können zusammen mehr als 100 % ergeben",
    );

    await page.goto(`/survey/${id}/statistics#graphs`);
    await scriptsStarted(page);
    const radar = page.getByRole("article", { name: "Kategorie-Punktzahlen", exact: true });
    await expect(radar.getByRole("img")).toBeVisible();
    await expect(radar).toContainText("Nur eine Kategorie hat Punktzahlen.");
    await page.getByRole("button", { name: "Zahlenbereich bearbeiten" }).click();
    await expect(page.getByLabel("Erste Frage")).toBeVisible();
    const onTab = await graphControls(page);
    await page.getByRole("button", { name: "Diagramm hinzufügen" }).click();
    await expect(page.getByRole("dialog", { name: "Diagramme hinzufügen" })).toBeVisible();
    const inModal = await graphControls(page);
    await page.keyboard.press("Escape");
    // A figures table's sort buttons read as its headers: the app's own class, the header's font, no frame.
    await radar.getByText("Zahlen anzeigen").click();
    expect(await figuresSortButtons(page)).toEqual(
      ["Kategorie", "Erreichte Punktzahl", "Maximum"].map((header) => ({
        name: expect.stringContaining(`Nach ${header} sortieren`),
        classes: "table__sort",
        border: "0px",
        background: "rgba(0, 0, 0, 0)",
        sameFont: true,
      })),
    );
    // The app's own button and field classes, with their look (rounded, bordered), not the browser's.
    const controls = [...onTab, ...inModal].filter((c) => !c.classes.includes("modal__close"));
    expect(controls.map((c) => c.control)).toEqual(
      expect.arrayContaining([
        "button Diagramm hinzufügen",
        "button Zahlenbereich löschen",
        "button Speichern",
        "button Abbrechen",
        "select Erste Frage",
        "button Hinzufügen",
      ]),
    );
    for (const c of controls) {
      expect(c.classes, c.control).toMatch(c.control.startsWith("button") ? /\bbtn\b/ : /\binput\b/);
      expect(c.radius, c.control).toBe("6px");
      expect(c.border, c.control).toBe(c.classes.includes("btn--primary") ? "rgb(11, 92, 173)" : "rgb(211, 217, 225)");
    }
  }
});
