// Statistics on 100,000 closed cases x 50 questions (about 5 M answer rows), on SQLite and on PostgreSQL.
// Budget (quality guide): computed in under 1 s, within 2x of one raw GROUP BY over the same rows in the same
// run; the CSV zip export streams with peak memory under 300 MB. The services run in-process, as the API
// calls them; each figure is the median of 3 runs after one warm-up.
// Usage: npx tsx --tsconfig tsconfig.json bench/statistics-load.ts   (BENCH_CASES to change the size,
// BENCH_DIALECTS=sqlite or postgres for one database, BENCH_SQLITE_DIR to keep the SQLite seed for the next run,
// BENCH_LANGUAGE=tr to offer the survey in that language with every text translated and to ask every figure and
// export in it: docs/decisions/056-statistics-languages.md)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { DEFAULT_SCORE_THRESHOLDS } from "~/domain/statistics";
import { createDb, type DialectName } from "~/server/db/db.server";
import type { DB } from "~/server/db/types.server";
import { parseEnv } from "~/server/env.server";
import { exportResponses } from "~/server/services/statistics/export.server";
import {
  forgetKeptStatistics,
  surveyStatistics,
  statisticsRuns,
  warmStatistics,
} from "~/server/services/statistics/statistics.server";
import { countPendingWords } from "~/server/services/statistics/words.server";
import { readyExports } from "~/server/services/statistics/export-ready.server";
import {
  CASES,
  caller,
  dialects,
  median,
  openBenchDatabase,
  SERVER_NODE_ARGS,
  type BenchLine,
  type BenchTarget,
} from "./database";
import { seedStatistics, translateSeeded } from "./statistics-seed";

const BUDGET_MS = 1000;
const BUDGET_KEPT_MS = 100;
const BUDGET_COLD_MS = 1500;
const BUDGET_RATIO = 2;
const BUDGET_RSS_MB = 300;
const BUDGET_EXPORT_MS = 5000;
/** The clinic's time zone of a server started without CLINIC_TIME_ZONE: the export writes date-times in it. */
const CLINIC_TIME_ZONE = parseEnv({}).CLINIC_TIME_ZONE;

const lines: BenchLine[] = [];
/** The language every figure and export is asked in (its labels); none: the source language. */
const LANGUAGE = process.env.BENCH_LANGUAGE || undefined;

/** Streams the export to nowhere, sampling the resident set; returns bytes written and the peak RSS. */
async function exportPeak(db: DB, surveyId: number) {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sample = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  const file = await exportResponses(db, caller, surveyId, {}, CLINIC_TIME_ZONE, LANGUAGE);
  const out = fs.createWriteStream("/dev/null");
  let bytes = 0;
  const reader = file.body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    bytes += next.value.byteLength;
    if (!out.write(next.value)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  out.end();
  clearInterval(sample);
  return { bytes, peak, before, ms: performance.now() - started };
}

/**
 * The export is measured in a fresh process that only opens the database and streams the zip, so the peak
 * is the export's own and not the seeding's or the statistics' garbage.
 */
function exportInChild(target: BenchTarget, surveyId: number, ready = false) {
  const r = spawnSync("npx", ["tsx", "--tsconfig", "tsconfig.json", "bench/statistics-load.ts"], {
    // With the young generation `npm start` gives the server (decision 034).
    env: {
      ...process.env,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} ${SERVER_NODE_ARGS.join(" ")}`.trim(),
      BENCH_EXPORT: JSON.stringify({ target, surveyId, ready }),
    },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = r.stdout.trim().split("\n").pop() ?? "";
  return JSON.parse(line) as { bytes: number; peak: number; before: number; ms: number; readyMs: number };
}

/**
 * The first figures after a start, in a fresh process: as they are asked for at once (cold), and after the
 * start has readied the statistics in the background (warmStatistics, as boot.server.ts does).
 */
function coldInChild(target: BenchTarget, surveyId: number, warm: boolean) {
  const r = spawnSync("npx", ["tsx", "--tsconfig", "tsconfig.json", "bench/statistics-load.ts"], {
    env: { ...process.env, BENCH_COLD: JSON.stringify({ target, surveyId, warm }) },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = r.stdout.trim().split("\n").pop() ?? "";
  return JSON.parse(line) as { ms: number; warmMs: number };
}

const openTarget = (target: BenchTarget) =>
  target.kind === "sqlite"
    ? createDb({ dataDir: path.dirname(target.file) })
    : createDb({ databaseUrl: target.url, dataDir: os.tmpdir() });

if (process.env.BENCH_COLD) {
  const { target, surveyId, warm } = JSON.parse(process.env.BENCH_COLD) as {
    target: BenchTarget;
    surveyId: number;
    warm: boolean;
  };
  const db = openTarget(target);
  const warmStarted = performance.now();
  if (warm) await warmStatistics(db);
  const warmMs = performance.now() - warmStarted;
  const started = performance.now();
  await surveyStatistics(db, caller, surveyId, {}, DEFAULT_SCORE_THRESHOLDS, undefined, { wordCloud: false }, LANGUAGE);
  const ms = performance.now() - started;
  await db.destroy();
  console.log(JSON.stringify({ ms, warmMs }));
  process.exit(0);
}

if (process.env.BENCH_EXPORT) {
  const { target, surveyId, ready } = JSON.parse(process.env.BENCH_EXPORT) as {
    target: BenchTarget;
    surveyId: number;
    ready: boolean;
  };
  const db = openTarget(target);
  // As the server does in the background after a start and each round (decision 032).
  const readyStarted = performance.now();
  if (ready) await readyExports(db, CLINIC_TIME_ZONE);
  const readyMs = performance.now() - readyStarted;
  const result = await exportPeak(db, surveyId);
  await db.destroy();
  console.log(JSON.stringify({ ...result, readyMs }));
  process.exit(0);
}

async function bench(kind: DialectName) {
  const { db, target, keptSurveyId, cleanup } = await openBenchDatabase(kind, "bench-stats");
  try {
    const seedStarted = performance.now();
    const seeded = keptSurveyId
      ? { surveyId: keptSurveyId, cases: CASES, rows: 0 }
      : await seedStatistics(db, target, CASES);
    const seedMs = performance.now() - seedStarted;
    if (LANGUAGE) {
      const translated = await translateSeeded(db, seeded.surveyId, LANGUAGE);
      console.log(`${kind}: every text of the survey translated into ${LANGUAGE} (${translated} texts)`);
    }
    console.log(
      `${kind}: seeded ${seeded.cases.toLocaleString("en-US")} cases, ${seeded.rows.toLocaleString("en-US")} answer rows in ${(seedMs / 1000).toFixed(1)} s`,
    );
    // The words of the seeded free texts, counted once (the first cloud after a bulk import does this).
    const wordsStarted = performance.now();
    const texts = await countPendingWords(db, seeded.surveyId);
    const wordsMs = performance.now() - wordsStarted;
    console.log(
      `${kind}: words of ${texts.toLocaleString("en-US")} free texts counted in ${(wordsMs / 1000).toFixed(1)} s`,
    );
    const first = performance.now();
    await surveyStatistics(db, caller, seeded.surveyId, {}, DEFAULT_SCORE_THRESHOLDS, undefined, {}, LANGUAGE);
    console.log(`${kind}: first statistics run ${Math.round(performance.now() - first)} ms`);
    // As the page asks by default (word clouds are off until the toggle shows them), and with word clouds.
    // Computed afresh each time (nothing kept), as after a change of the survey's data.
    const statsMs = await median(3, () => {
      forgetKeptStatistics();
      return surveyStatistics(
        db,
        caller,
        seeded.surveyId,
        {},
        DEFAULT_SCORE_THRESHOLDS,
        undefined,
        { wordCloud: false },
        LANGUAGE,
      );
    });
    // With a language: the same figures in the source language, in the same run, to tell the labels' share.
    const sourceMs = LANGUAGE
      ? await median(3, () => {
          forgetKeptStatistics();
          return surveyStatistics(db, caller, seeded.surveyId, {}, DEFAULT_SCORE_THRESHOLDS, undefined, {
            wordCloud: false,
          });
        })
      : null;
    const cloudMs = await median(3, () => {
      forgetKeptStatistics();
      return surveyStatistics(db, caller, seeded.surveyId, {}, DEFAULT_SCORE_THRESHOLDS, undefined, {}, LANGUAGE);
    });
    // The survey unchanged since the last view (the view just made): the kept figures.
    await surveyStatistics(
      db,
      caller,
      seeded.surveyId,
      {},
      DEFAULT_SCORE_THRESHOLDS,
      undefined,
      { wordCloud: false },
      LANGUAGE,
    );
    const computed = statisticsRuns.computed;
    const keptMs = await median(3, () =>
      surveyStatistics(
        db,
        caller,
        seeded.surveyId,
        {},
        DEFAULT_SCORE_THRESHOLDS,
        undefined,
        { wordCloud: false },
        LANGUAGE,
      ),
    );
    if (statisticsRuns.computed !== computed) throw new Error("the unchanged survey's figures were computed again");
    const rawMs = await median(3, () =>
      sql`select question_id, answer_option_id, count(*) from question_responses where survey_id = ${seeded.surveyId} group by 1, 2`.execute(
        db,
      ),
    );
    const check = await surveyStatistics(
      db,
      caller,
      seeded.surveyId,
      {},
      DEFAULT_SCORE_THRESHOLDS,
      undefined,
      {},
      LANGUAGE,
    );
    if (check.NumSurveyResponses !== CASES) throw new Error(`counted ${check.NumSurveyResponses} cases`);
    const ratio = statsMs / rawMs;
    // The first export writes and keeps every case's line (none kept yet, also on a kept seed); the next
    // one reads them (decision 031).
    await sql`delete from case_export_rows where patient_data_id in
      (select id from patient_data where survey_id = ${seeded.surveyId})`.execute(db);
    const exported = exportInChild(target, seeded.surveyId);
    const again = exportInChild(target, seeded.surveyId);
    await sql`delete from case_export_rows where patient_data_id in
      (select id from patient_data where survey_id = ${seeded.surveyId})`.execute(db);
    const readied = exportInChild(target, seeded.surveyId, true);
    const cold = coldInChild(target, seeded.surveyId, false);
    const warmed = coldInChild(target, seeded.surveyId, true);
    const peakMb = Math.max(exported.peak, again.peak, readied.peak) / 2 ** 20;
    lines.push(
      {
        figure: `${kind}: statistics, ${CASES.toLocaleString("en-US")} cases x 50 questions${LANGUAGE ? `, labels in ${LANGUAGE}` : ""}`,
        value: `${Math.round(statsMs)} ms`,
        budget: `< ${BUDGET_MS} ms`,
        verdict: statsMs < BUDGET_MS ? "within" : "OVER",
      },
      ...(sourceMs === null
        ? []
        : [
            {
              figure: `${kind}: the same statistics in the source language, same run`,
              value: `${Math.round(sourceMs)} ms (labels in ${LANGUAGE}: ${(statsMs / sourceMs).toFixed(2)}x)`,
              budget: "(baseline)",
              verdict: "",
            },
          ]),
      {
        figure: `${kind}: statistics with word clouds`,
        value: `${Math.round(cloudMs)} ms`,
        budget: `< ${BUDGET_MS} ms`,
        verdict: cloudMs < BUDGET_MS ? "within" : "OVER",
      },
      {
        figure: `${kind}: first statistics after a start, asked at once (cold)`,
        value: `${Math.round(cold.ms)} ms`,
        budget: "(for reference)",
        verdict: "",
      },
      {
        figure: `${kind}: first statistics after a start, readied in the background`,
        value: `${Math.round(warmed.ms)} ms (readied in ${(warmed.warmMs / 1000).toFixed(1)} s)`,
        budget: `< ${BUDGET_COLD_MS} ms`,
        verdict: warmed.ms < BUDGET_COLD_MS ? "within" : "OVER",
      },
      {
        figure: `${kind}: words of the free texts counted once after the import`,
        value: `${(wordsMs / 1000).toFixed(1)} s (${texts.toLocaleString("en-US")} texts)`,
        budget: "(for reference)",
        verdict: "",
      },
      {
        figure: `${kind}: statistics, survey unchanged since the last view`,
        value: `${keptMs.toFixed(1)} ms`,
        budget: `< ${BUDGET_KEPT_MS} ms`,
        verdict: keptMs < BUDGET_KEPT_MS ? "within" : "OVER",
      },
      {
        figure: `${kind}: raw GROUP BY over the same rows`,
        value: `${Math.round(rawMs)} ms`,
        budget: "(baseline)",
        verdict: "",
      },
      {
        figure: `${kind}: statistics / raw GROUP BY`,
        value: `${ratio.toFixed(2)}x`,
        budget: `<= ${BUDGET_RATIO}x`,
        verdict: ratio <= BUDGET_RATIO ? "within" : "OVER",
      },
      {
        figure: `${kind}: CSV zip export, peak RSS`,
        value: `${Math.round(peakMb)} MB`,
        budget: `< ${BUDGET_RSS_MB} MB`,
        verdict: peakMb < BUDGET_RSS_MB ? "within" : "OVER",
      },
      {
        figure: `${kind}: CSV zip export, first (every line written and kept): time, size, RSS at start`,
        value: `${(exported.ms / 1000).toFixed(1)} s, ${(exported.bytes / 2 ** 20).toFixed(1)} MB, ${Math.round(exported.before / 2 ** 20)} MB`,
        budget: "(for reference)",
        verdict: "",
      },
      {
        figure: `${kind}: CSV zip export, first after the lines were readied in the background`,
        value: `${(readied.ms / 1000).toFixed(1)} s (readied in ${(readied.readyMs / 1000).toFixed(1)} s)`,
        budget: `< ${BUDGET_EXPORT_MS / 1000} s`,
        verdict: readied.ms < BUDGET_EXPORT_MS ? "within" : "OVER",
      },
      {
        figure: `${kind}: CSV zip export again (the lines kept)`,
        value: `${(again.ms / 1000).toFixed(1)} s, ${(again.bytes / 2 ** 20).toFixed(1)} MB`,
        budget: `< ${BUDGET_EXPORT_MS / 1000} s`,
        verdict: again.ms < BUDGET_EXPORT_MS ? "within" : "OVER",
      },
    );
  } finally {
    await cleanup();
  }
}

for (const kind of dialects) await bench(kind);

const widths = (["figure", "value", "budget", "verdict"] as const).map((k) =>
  Math.max(k.length, ...lines.map((l) => l[k].length)),
);
const row = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
console.log(row(["figure", "value", "budget", "verdict"]));
console.log(row(widths.map((w) => "-".repeat(w))));
for (const l of lines) console.log(row([l.figure, l.value, l.budget, l.verdict]));
process.exit(lines.some((l) => l.verdict === "OVER") ? 1 : 0);
