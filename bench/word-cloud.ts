// The statistics' word cloud two ways, for decision 024: the list the server draws today
// (app/components/statistics/WordCloud.tsx) against @visx/wordcloud's Wordcloud, which lays its words out with
// d3-cloud in the browser (it measures each word on a canvas). For each: what the server's render shows
// without JavaScript, the JavaScript it adds to the statistics page (minified, gzip; React and @visx/group
// are on the page already) and the time to draw 100 words in Debian's Chromium, as is and with the CPU
// slowed 4x (Lighthouse's mobile profile). Times are medians of 7 runs after a warm-up, measured in the same
// run for both, so the ratio holds on a noisy machine.
// Usage: npx tsx --tsconfig tsconfig.json bench/word-cloud.ts
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { Page } from "@playwright/test";
import { Wordcloud } from "@visx/wordcloud";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { build, type Plugin } from "vite";
import { WordCloud, type CloudWord } from "~/components/statistics/WordCloud";
import { launchBenchBrowser } from "./browser";

const root = path.resolve(import.meta.dirname, "..");
const WORDS = 100;
const RUNS = 7;
const SLOW = 4;
const WIDTH = 600;
const HEIGHT = 400;

/** 100 words with counts as free texts give them: a few frequent, many rare (Zipf). */
const words: CloudWord[] = Array.from({ length: WORDS }, (_, i) => ({
  Text: `${["schmerz", "atemnot", "wartezeit", "schlaf", "müdigkeit", "husten", "appetit", "schwindel"][i % 8]}${i}`,
  Count: Math.max(1, Math.round(400 / (i + 1))),
}));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const gzipKb = (code: string) => zlib.gzipSync(code, { level: 9 }).length / 1024;

/** Bundles `code` (an entry module) for the browser, minified, with `external` left out. */
async function bundle(code: string, format: "es" | "iife", external: string[] = []): Promise<string> {
  const entry: Plugin = {
    name: "bench-entry",
    resolveId: (id) => (id.endsWith("bench-entry") ? "\0bench-entry" : null),
    load: (id) => (id === "\0bench-entry" ? code : null),
  };
  const out = await build({
    root,
    configFile: false,
    logLevel: "silent",
    plugins: [entry],
    resolve: { alias: { "~": path.join(root, "app") } },
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    build: {
      write: false,
      minify: true,
      target: "es2020",
      lib: { entry: "bench-entry", formats: [format], name: "bench", fileName: "bench" },
      rollupOptions: { external: (id) => external.some((e) => id === e || id.startsWith(`${e}/`)) },
    },
  });
  const outputs = Array.isArray(out) ? out : [out];
  return outputs
    .flatMap((o) => ("output" in o ? o.output : []))
    .map((chunk) => (chunk.type === "chunk" ? chunk.code : ""))
    .join("\n");
}

// What the page has already: React, react-dom and @visx/group (the pies and the graphs use it).
const ON_PAGE = ["react", "react-dom", "@visx/group"];

async function addedKb() {
  const list = await bundle(
    `export { WordCloud } from ${JSON.stringify(path.join(root, "app/components/statistics/WordCloud.tsx"))};`,
    "es",
    ON_PAGE,
  );
  const visx = await bundle(`export { Wordcloud } from "@visx/wordcloud";`, "es", ON_PAGE);
  return { list: gzipKb(list), visx: gzipKb(visx) };
}

/** Words each way in the server's HTML: what a page shows before (or without) its scripts. */
function serverRender() {
  const listHtml = renderToString(createElement(WordCloud, { words, label: "Wortwolke" }));
  const visxHtml = renderToString(
    createElement(Wordcloud<CloudWord & { text: string }>, {
      words: words.map((w) => ({ ...w, text: w.Text })),
      width: WIDTH,
      height: HEIGHT,
      children: (placed) => placed.map((w) => createElement("text", { key: w.text }, w.text)),
    }),
  );
  const times: number[] = [];
  for (let i = 0; i < 50; i++) {
    const start = performance.now();
    renderToString(createElement(WordCloud, { words, label: "Wortwolke" }));
    times.push(performance.now() - start);
  }
  return {
    listWords: (listHtml.match(/<li /g) ?? []).length,
    visxWords: (visxHtml.match(/<text/g) ?? []).length,
    listRenderMs: median(times),
  };
}

// In the page: draws the cloud each way `runs` times and answers each run's time (and the words placed).
const pageScript = `
import { createElement, useEffect } from "react";
import { createRoot } from "react-dom/client";
import { flushSync } from "react-dom";
import { Wordcloud } from "@visx/wordcloud";
import { WordCloud } from ${JSON.stringify(path.join(root, "app/components/statistics/WordCloud.tsx"))};

/** A seeded random, so that each run places the same words the same way. */
function seeded(seed) {
  return () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
}

function Placed({ words, done }) {
  useEffect(() => { if (words.length > 0) done(words.length); }, [words, done]);
  return words.map((w) =>
    createElement("text", {
      key: w.text,
      textAnchor: "middle",
      transform: "translate(" + w.x + "," + w.y + ")",
      fontSize: w.size,
      fontFamily: w.font,
    }, w.text),
  );
}

window.visxRun = (words, width, height) => new Promise((resolve) => {
  const host = document.createElement("div");
  document.body.append(host);
  const root = createRoot(host);
  const max = Math.max(...words.map((w) => w.Count));
  const data = words.map((w) => ({ text: w.Text, value: w.Count }));
  const start = performance.now();
  const done = (placed) => {
    const ms = performance.now() - start;
    root.unmount();
    host.remove();
    resolve({ ms, placed });
  };
  flushSync(() =>
    root.render(
      createElement(Wordcloud, {
        words: data, width, height, font: "sans-serif", padding: 2, rotate: 0, spiral: "archimedean",
        random: seeded(42),
        fontSize: (d) => 12 + 48 * Math.sqrt(d.value / max),
        children: (placed) => createElement(Placed, { words: placed, done }),
      }),
    ),
  );
});

window.listRun = (html) => {
  const host = document.createElement("div");
  host.style.width = "600px";
  const start = performance.now();
  host.innerHTML = html;
  document.body.append(host);
  // Reading a size makes the browser lay the words out now.
  const height = host.offsetHeight;
  const ms = performance.now() - start;
  host.remove();
  return { ms, placed: host.querySelectorAll("li").length, height };
};
`;

async function browserTimes(page: Page) {
  const html = renderToString(createElement(WordCloud, { words, label: "Wortwolke" }));
  const times = async () => {
    const visx: number[] = [];
    const list: number[] = [];
    let placed = 0;
    for (let run = 0; run <= RUNS; run++) {
      const v = await page.evaluate(
        ([w, width, height]) =>
          (
            window as unknown as {
              visxRun: (...a: unknown[]) => Promise<{ ms: number; placed: number }>;
            }
          ).visxRun(w, width, height),
        [words, WIDTH, HEIGHT] as const,
      );
      const l = await page.evaluate(
        (markup) => (window as unknown as { listRun: (m: string) => { ms: number } }).listRun(markup),
        html,
      );
      // The first run warms up.
      if (run === 0) continue;
      visx.push(v.ms);
      list.push(l.ms);
      placed = v.placed;
    }
    return { visxMs: median(visx), listMs: median(list), placed };
  };
  const fast = await times();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: SLOW });
  const slow = await times();
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  return { fast, slow };
}

const size = await addedKb();
const server = serverRender();
const script = await bundle(pageScript, "iife");
const css = fs.readFileSync(path.join(root, "app/styles/app.css"), "utf8");
const browser = await launchBenchBrowser();
try {
  const page = await browser.newPage();
  await page.setContent(`<!doctype html><html lang="de"><head><style>${css}</style></head><body></body></html>`);
  await page.addScriptTag({ content: script });
  const { fast, slow } = await browserTimes(page);
  console.log(`Word cloud of ${WORDS} words (${WIDTH}x${HEIGHT} px for the visx layout)`);
  console.table([
    {
      way: "server-drawn list (today)",
      "words in server HTML": server.listWords,
      "JS added (gzip)": `${size.list.toFixed(2)} KB`,
      "draw in browser": `${fast.listMs.toFixed(1)} ms`,
      [`draw, CPU ${SLOW}x slower`]: `${slow.listMs.toFixed(1)} ms`,
      "words shown": WORDS,
    },
    {
      way: "@visx/wordcloud (d3-cloud)",
      "words in server HTML": server.visxWords,
      "JS added (gzip)": `${size.visx.toFixed(2)} KB`,
      "draw in browser": `${fast.visxMs.toFixed(1)} ms`,
      [`draw, CPU ${SLOW}x slower`]: `${slow.visxMs.toFixed(1)} ms`,
      "words shown": fast.placed,
    },
  ]);
  console.log(`Server render of the list: ${server.listRenderMs.toFixed(2)} ms (median of 50).`);
  console.log(
    `visx/list time ratio: ${(fast.visxMs / fast.listMs).toFixed(0)}x, CPU ${SLOW}x slower: ${(slow.visxMs / slow.listMs).toFixed(0)}x.`,
  );
} finally {
  await browser.close();
}
