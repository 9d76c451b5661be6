// The editor with a survey of N questions (decision 052: the most questions a FHIR import may bring): the
// editor page's server render (its HTML, as a loader and React render it) and how long after arriving in
// Chromium the page is hydrated, i.e. answers clicks (its preview button, drawn only once hydrated, is
// there). N from BENCH_QUESTIONS ("50,100,150,200,300"; the import's limit is always among them); the
// questions are single selections of four answers in categories of 25, as an imported instrument makes them.
// Median of BENCH_RUNS (5) loads each. Budget: at the import's limit, hydrated within 3 s of arriving.
// Usage: npx tsx --tsconfig tsconfig.json bench/editor-size.ts   (after npm run build)
import { FHIR_IMPORT_MAX_QUESTIONS } from "~/contracts/fhir";
import { launchBenchBrowser } from "./browser";
import { startBenchServer } from "./server";

const SIZES = [
  ...new Set([
    ...(process.env.BENCH_QUESTIONS ?? "50,100,150,200,300").split(",").map(Number),
    FHIR_IMPORT_MAX_QUESTIONS,
  ]),
].sort((a, b) => a - b);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BUDGET_HYDRATED_MS = 3000;
const PER_CATEGORY = 25;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const server = await startBenchServer({ username: "editor", password: "editor123" }, { DEMO_DATA: "false" });
const browser = await launchBenchBrowser();
try {
  const headers = { cookie: server.cookie, origin: server.app, "content-type": "application/json" };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${server.app}/api${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { Id: number };
  };
  /** A Draft survey of n single selections, four answers each. */
  const surveyOf = async (n: number) => {
    const survey = await post("/surveys", { Title: `${n} Fragen` });
    let category = 0;
    for (let i = 0; i < n; i++) {
      if (i % PER_CATEGORY === 0)
        category = (await post("/categories", { SurveyId: survey.Id, Title: `Teil ${i / PER_CATEGORY + 1}` })).Id;
      await post("/questions", {
        SurveyId: survey.Id,
        CategoryId: category,
        Title: `Wie oft hatten Sie in den letzten zwei Wochen Beschwerde ${i + 1}?`,
        Type: "SingleSelection",
        AnswerOptions: [
          "Überhaupt nicht",
          "An einzelnen Tagen",
          "An mehr als der Hälfte der Tage",
          "Beinahe jeden Tag",
        ].map((Text, v) => ({ Text, Value: String(v) })),
      });
    }
    return survey.Id;
  };

  console.log("questions | HTML (KB) | server render, median (ms) | hydrated after arriving, median (ms) | DOM nodes");
  let atLimit = NaN;
  for (const n of SIZES) {
    const id = await surveyOf(n);
    const url = `${server.app}/survey/${id}/edit#questionnaire`;
    const renders: number[] = [];
    let size = 0;
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      // A parameter the page ignores: every request renders, none is a kept answer (decision 033).
      const res = await fetch(`${server.app}/survey/${id}/edit?fresh=${i}`, { headers: { cookie: server.cookie } });
      const html = await res.text();
      renders.push(performance.now() - start);
      if (!res.ok || !html.includes('id="survey-title"'))
        throw new Error(`the editor of ${id}: ${res.status} ${html.slice(0, 2000)}`);
      size = html.length;
    }
    const hydrations: number[] = [];
    let nodes = 0;
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ extraHTTPHeaders: { cookie: server.cookie }, locale: "de-DE" });
      const page = await context.newPage();
      // The moment the preview button (drawn once hydrated) is in the page, in the page's own clock.
      await page.addInitScript(() => {
        new MutationObserver((_, observer) => {
          if (document.querySelector(".editor-head__actions button[type=button]")) {
            (window as unknown as { hydratedAt: number }).hydratedAt = performance.now();
            observer.disconnect();
          }
        }).observe(document, { childList: true, subtree: true });
      });
      await page.goto(url);
      await page.waitForFunction(() => "hydratedAt" in window, undefined, { timeout: 120_000 });
      hydrations.push(await page.evaluate(() => (window as unknown as { hydratedAt: number }).hydratedAt));
      nodes = await page.evaluate(() => document.getElementsByTagName("*").length);
      await context.close();
    }
    console.log(
      [n, (size / 1024).toFixed(0), median(renders).toFixed(0), median(hydrations).toFixed(0), nodes].join(" | "),
    );
    if (n === FHIR_IMPORT_MAX_QUESTIONS) atLimit = median(hydrations);
  }
  const within = atLimit <= BUDGET_HYDRATED_MS;
  console.log(
    `editor hydrated at the import's limit (${FHIR_IMPORT_MAX_QUESTIONS} questions): ${atLimit.toFixed(0)} ms, ` +
      `budget ${BUDGET_HYDRATED_MS} ms: ${within ? "within" : "over"}`,
  );
  process.exitCode = within ? 0 : 1;
} finally {
  await browser.close();
  await server.stop();
}
