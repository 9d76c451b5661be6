// The statistics filtered by who answered (docs/decisions/057-patient-links.md) beside the same figures without
// a filter and with the case-language filter (decision 056) over the same cases, on the bench's seeded survey:
// every tenth case answered through a link, every fifteenth on a handed-over device. Each figure is computed afresh (no kept
// figures), the median of 3 runs after one warm-up; the export streams to nowhere.
// Usage: BENCH_CASES=20000 BENCH_DIALECTS=sqlite npx tsx --tsconfig tsconfig.json bench/statistics-respondents.ts
import fs from "node:fs";
import { sql } from "kysely";
import { DEFAULT_SCORE_THRESHOLDS, type StatisticsFilters } from "~/domain/statistics";
import { parseEnv } from "~/server/env.server";
import { exportResponses } from "~/server/services/statistics/export.server";
import { forgetKeptStatistics, surveyStatistics } from "~/server/services/statistics/statistics.server";
import { CASES, caller, dialects, median, openBenchDatabase, type BenchLine } from "./database";
import { seedStatistics } from "./statistics-seed";

const CLINIC_TIME_ZONE = parseEnv({}).CLINIC_TIME_ZONE;
const lines: BenchLine[] = [];

const filters: [string, StatisticsFilters][] = [
  ["no filter", {}],
  ["Respondents link (10 %)", { Respondents: ["link"] }],
  ["Respondents staff (84 %)", { Respondents: ["staff"] }],
  // The case-language filter over the same cases (those a patient answered are marked English): the same path.
  ["Languages de (the same 84 %)", { Languages: ["de"] }],
];

for (const kind of dialects) {
  const { db, target, keptSurveyId, cleanup } = await openBenchDatabase(kind, "bench-respondents");
  try {
    const surveyId = keptSurveyId ?? (await seedStatistics(db, target, CASES)).surveyId;
    await db.updateTable("patient_data").set({ respondent: null, respondent_link_id: null, language: null }).execute();
    await db
      .updateTable("patient_data")
      .set({ respondent: "link", respondent_link_id: sql<number>`id`, language: "en" })
      .where(sql<boolean>`id % 10 = 0`)
      .execute();
    await db
      .updateTable("patient_data")
      .set({ respondent: "handover", respondent_user_id: 1, language: "en" })
      .where(sql<boolean>`id % 15 = 0 and id % 10 <> 0`)
      .execute();
    for (const [name, f] of filters) {
      let cases = 0;
      const ms = await median(3, async () => {
        forgetKeptStatistics();
        const s = await surveyStatistics(db, caller, surveyId, f, DEFAULT_SCORE_THRESHOLDS, undefined, {
          wordCloud: false,
        });
        cases = s.NumSurveyResponses;
      });
      lines.push({
        figure: `${kind}: figures, ${name}`,
        value: `${Math.round(ms)} ms`,
        budget: `${cases} cases`,
        verdict: "",
      });
    }
    for (const [name, f] of [filters[0], filters[2]]) {
      const ms = await median(3, async () => {
        const file = await exportResponses(db, caller, surveyId, f, CLINIC_TIME_ZONE);
        const out = fs.createWriteStream("/dev/null");
        const reader = file.body.getReader();
        for (let next = await reader.read(); !next.done; next = await reader.read()) out.write(next.value);
        out.end();
      });
      lines.push({ figure: `${kind}: export, ${name}`, value: `${Math.round(ms)} ms`, budget: "", verdict: "" });
    }
  } finally {
    await cleanup();
  }
}
console.log(`statistics by who answered, ${CASES.toLocaleString("en-US")} cases x 50 questions`);
console.table(lines);
