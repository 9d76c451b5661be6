// Lighthouse (mobile profile, simulated throttling) on the survey list, the start page and the fill page,
// in Debian's Chromium against the production server (SQLite, embedded provider, demo data).
// Budget (quality guide): performance 95+ and accessibility 100 on each of the three pages, judged on the
// median of three runs per page (every run's scores are printed).
// Usage: npx tsx bench/lighthouse.ts   (after npm run build; the server takes free ports)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import { chromium } from "@playwright/test";
import lighthouse, { type Flags, type Result as LighthouseResult } from "lighthouse";
import { startBenchServer } from "./server";

const BUDGET = { performance: 95, accessibility: 100 };
/** Runs per page; the verdict is on the median score. */
const RUNS = 3;
const reportDir = path.resolve("test-results/lighthouse");
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const loadBefore = load();

// Signed in as a user through the provider's login page, as a person would; the browser keeps the cookie.
const server = await startBenchServer({ username: "user", password: "user123" }, { DEMO_DATA: "true" });
const { app, cookie } = server;

let chrome: chromeLauncher.LaunchedChrome | undefined;
try {
  const api = async <T>(method: string, p: string): Promise<T> => {
    const res = await fetch(`${app}/api${p}`, { method, headers: { cookie, origin: app } });
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return (res.status === 204 ? null : await res.json()) as T;
  };
  const list = await api<{ Data: { Id: number; Title: string }[] }>("GET", "/surveys?filterString=Herzinsuffizienz");
  const surveyId = list.Data[0].Id;
  await api("POST", `/patients/add?patientId=LIGHTHOUSE_1&surveyId=${surveyId}`);

  const pages = [
    { page: "survey list", url: `${app}/surveys` },
    { page: "start page", url: `${app}/survey/${surveyId}` },
    { page: "fill page", url: `${app}/survey/${surveyId}/fill/LIGHTHOUSE_1?page=questionnaire` },
  ];
  chrome = await chromeLauncher.launch({
    chromePath: "/usr/bin/chromium",
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"],
  });
  // The session cookie goes into the browser's own cookie store, as after a sign-in: every request of
  // the page carries it, the service worker's too (a header added by Lighthouse reaches only the page's
  // requests, so the worker's offline warm-up failed and ran again on every visit). Lighthouse keeps
  // cookies between runs; it clears the service worker and its caches.
  const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  await cdp.contexts()[0].addCookies(
    cookie.split("; ").map((pair) => {
      const eq = pair.indexOf("=");
      return { name: pair.slice(0, eq), value: pair.slice(eq + 1), url: `${app}/` };
    }),
  );
  await cdp.close();
  const flags: Flags = {
    port: chrome.port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance", "accessibility"],
  };
  fs.mkdirSync(reportDir, { recursive: true });
  const rows: Record<string, string>[] = [];
  let ok = true;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  for (const p of pages) {
    // Each page several times: one run's score moves by several points with the machine (Lighthouse's own
    // advice is the median of several runs). Every run's figures are printed; the verdict is the median's.
    const runs: LighthouseResult[] = [];
    for (let i = 0; i < RUNS; i++) {
      const result = await lighthouse(p.url, flags);
      if (!result) throw new Error(`no Lighthouse result for ${p.url}`);
      const { lhr } = result;
      if (lhr.finalDisplayedUrl !== p.url) throw new Error(`${p.url} ended on ${lhr.finalDisplayedUrl}`);
      runs.push(lhr);
      fs.writeFileSync(path.join(reportDir, `${p.page.replace(/\W+/g, "-")}-run${i + 1}.json`), JSON.stringify(lhr));
    }
    const scoreOf = (lhr: LighthouseResult, category: "performance" | "accessibility") =>
      Math.round((lhr.categories[category].score ?? 0) * 100);
    const middle = runs.find(
      (lhr) => scoreOf(lhr, "performance") === median(runs.map((r) => scoreOf(r, "performance"))),
    )!;
    fs.writeFileSync(path.join(reportDir, `${p.page.replace(/\W+/g, "-")}.json`), JSON.stringify(middle));
    for (const category of ["performance", "accessibility"] as const) {
      const scores = runs.map((lhr) => scoreOf(lhr, category));
      const score = median(scores);
      const within = score >= BUDGET[category];
      ok &&= within;
      rows.push({
        figure: `${p.page}, ${category} (median of ${RUNS})`,
        value: `${score} (runs: ${scores.join(", ")})`,
        budget: `>= ${BUDGET[category]}`,
        verdict: within ? "within" : "OVER",
      });
      if (!within) {
        const failing = middle.categories[category].auditRefs
          .filter((ref) => ref.weight > 0 && (middle.audits[ref.id].score ?? 1) < 1)
          .map((ref) => `${ref.id} (${middle.audits[ref.id].displayValue ?? middle.audits[ref.id].score})`);
        console.error(`${p.page}, ${category}: ${failing.join(", ")}`);
      }
    }
    const metrics = (lhr: LighthouseResult) =>
      ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift"]
        .map((id) => lhr.audits[id].displayValue ?? "")
        .join(" / ");
    rows.push({
      figure: `${p.page}, FCP / LCP / TBT / CLS per run`,
      value: runs.map(metrics).join(" | "),
      budget: "(for reference)",
      verdict: "",
    });
    // Lighthouse's own measure of this machine's CPU speed while it ran (about 1,000+ on an idle desktop).
    rows.push({
      figure: `${p.page}, Lighthouse benchmarkIndex per run`,
      value: runs.map((lhr) => Math.round(lhr.environment.benchmarkIndex)).join(", "),
      budget: "(for reference)",
      verdict: "",
    });
  }
  rows.push({
    figure: "machine load (1/5/15 min), before / after",
    value: `${loadBefore} / ${load()}`,
    budget: "",
    verdict: "",
  });
  console.table(rows);
  process.exitCode = ok ? 0 : 1;
} finally {
  chrome?.kill();
  await server.stop();
}
