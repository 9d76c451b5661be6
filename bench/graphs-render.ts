// The statistics Graphs tab on 100,000 closed cases x 50 questions (about 5 M answer rows), on SQLite and on
// PostgreSQL: a dashboard of the eight chart types, its data computed by the dashboards service and every
// chart rendered to an SVG string as the page's server render draws it.
// Budget (issue 8): the eight charts' data and SVG in under 1 s. The service runs in-process, as the API calls
// it; each figure is the median of 3 runs after one warm-up. The per-chart lines say where the time goes.
// Usage: npx tsx --tsconfig tsconfig.json bench/graphs-render.ts   (BENCH_CASES to change the size,
// BENCH_DIALECTS=sqlite or postgres for one database, BENCH_SQLITE_DIR to keep the SQLite seed for the next run)
import os from "node:os";
import { sql } from "kysely";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { ChartView } from "~/components/statistics/graphs/ChartView";
import { chartTypes, isPreQuestionChart, isRangeChart, type Dashboard } from "~/domain/dashboards";
import "~/server/locales.server";
import { staffTexts, TextsProvider, type Texts } from "~/texts";
import type { DialectName } from "~/server/db/db.server";
import type { DB } from "~/server/db/types.server";
import { chartData } from "~/server/services/dashboards/chart-data.server";
import { addCharts, dashboardOfSurvey, updateChart } from "~/server/services/dashboards/dashboards.server";
import { isScoredQuestion } from "~/server/services/statistics/figures.server";
import { chartScope } from "~/server/services/dashboards/scores.server";
import { surveyStructure } from "~/server/services/fill/structure.server";
import { requireAnalyst } from "~/server/services/statistics/cases.server";
import { CASES, caller, dialects, median, openBenchDatabase, type BenchLine } from "./database";
import { seedStatistics } from "./statistics-seed";

const BUDGET_MS = 1000;

const lines: BenchLine[] = [];

/** One preliminary question of four answers, every case answering it (the seed has none). */
async function seedPreliminary(db: DB, kind: DialectName, surveyId: number) {
  const form = await db
    .selectFrom("patient_forms")
    .select("id")
    .where("survey_id", "=", surveyId)
    .executeTakeFirstOrThrow();
  const attribute = await db
    .insertInto("patient_form_attributes")
    .values({ patient_form_id: form.id, survey_id: surveyId, title: "Station", sort: 0 })
    .returning("id")
    .executeTakeFirstOrThrow();
  const options: number[] = [];
  for (const [i, text] of ["Nord", "Süd", "Ost", "West"].entries()) {
    const o = await db
      .insertInto("patient_form_answer_options")
      .values({ attribute_id: attribute.id, survey_id: surveyId, text, value: String(i + 1), sort: i })
      .returning("id")
      .executeTakeFirstOrThrow();
    options.push(o.id);
  }
  await sql`insert into attribute_responses (survey_id, patient_data_id, attribute_id, answer_option_id, created_at)
    select pd.survey_id, pd.id, ${sql.lit(attribute.id)},
      case pd.id % 4 when 0 then ${sql.lit(options[0])} when 1 then ${sql.lit(options[1])} when 2 then ${sql.lit(options[2])} else ${sql.lit(options[3])} end,
      pd.created_at
    from patient_data pd where pd.survey_id = ${surveyId}`.execute(db);
  await sql.raw(kind === "sqlite" ? "analyze" : "analyze attribute_responses").execute(db);
  return attribute.id;
}

/** The eight chart types on the survey's dashboard, with their questions chosen. */
async function seedDashboard(db: DB, surveyId: number, attributeId: number) {
  const made = await dashboardOfSurvey(db, caller, surveyId, {});
  const dashboard = await addCharts(db, caller, made.Id, [...chartTypes], {});
  const [n1, n2] = dashboard.Choices.NumericalQuestions;
  const [d1, d2] = dashboard.Choices.DateTimeQuestions;
  for (const chart of dashboard.Charts) {
    if (isPreQuestionChart(chart.ChartType))
      await updateChart(db, caller, made.Id, chart.Id, { AttributeId: attributeId, Filters: {} });
    if (isRangeChart(chart.ChartType)) {
      const [a, b] = chart.ChartType === "NumericalRange" ? [n1, n2] : [d1, d2];
      await updateChart(db, caller, made.Id, chart.Id, { QuestionId1: a.Id, QuestionId2: b.Id, Filters: {} });
    }
  }
  return made.Id;
}

/** Every chart as the page draws it on the server: SVG and figures table. */
function renderCharts(texts: Texts, { Charts: charts, HasScoredQuestions }: Dashboard) {
  let length = 0;
  for (const chart of charts) {
    const name = texts.t(`statistics.graphs.types.${chart.ChartType}.name`);
    const html = renderToString(
      createElement(TextsProvider, {
        texts,
        children: createElement(ChartView, { chart, name, scored: HasScoredQuestions }),
      }),
    );
    if (!html.includes("<svg")) throw new Error(`${chart.ChartType} drew no SVG`);
    length += html.length;
  }
  return length;
}

async function bench(kind: DialectName) {
  const { db, target, keptSurveyId, cleanup } = await openBenchDatabase(kind, "bench-graphs");
  const texts = staffTexts("de-DE");
  try {
    const seedStarted = performance.now();
    const seeded = keptSurveyId
      ? { surveyId: keptSurveyId, cases: CASES, rows: 0 }
      : await seedStatistics(db, target, CASES);
    if (!keptSurveyId) {
      const attributeId = await seedPreliminary(db, kind, seeded.surveyId);
      await seedDashboard(db, seeded.surveyId, attributeId);
    }
    console.log(
      `${kind}: seeded ${seeded.cases.toLocaleString("en-US")} cases, ${seeded.rows.toLocaleString("en-US")} answer rows in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
    );
    const load = () => dashboardOfSurvey(db, caller, seeded.surveyId, {});
    const first = performance.now();
    const dashboard = await load();
    console.log(`${kind}: first dashboard read ${Math.round(performance.now() - first)} ms`);
    if (dashboard.Charts.length !== 8) throw new Error(`${dashboard.Charts.length} charts`);
    const counted = dashboard.Charts[0].ResponseCountsByDates.reduce((sum, d) => sum + d.Count, 0);
    if (counted !== CASES) throw new Error(`the responses chart counted ${counted} cases`);
    let bytes = 0;
    const totalMs = await median(3, async () => {
      bytes = renderCharts(texts, await load());
    });
    const dataMs = await median(3, load);
    const renderMs = await median(3, async () => renderCharts(texts, dashboard));
    lines.push(
      {
        figure: `${kind}: 8 charts, data + SVG, ${CASES.toLocaleString("en-US")} cases x 50 questions`,
        value: `${Math.round(totalMs)} ms`,
        budget: `< ${BUDGET_MS} ms`,
        verdict: totalMs < BUDGET_MS ? "within" : "OVER",
      },
      { figure: `${kind}: data (dashboard service)`, value: `${Math.round(dataMs)} ms`, budget: "", verdict: "" },
      {
        figure: `${kind}: SVG render to string (${Math.round(bytes / 1024)} KB)`,
        value: `${Math.round(renderMs)} ms`,
        budget: "",
        verdict: "",
      },
    );
    // Where the data time goes: each chart's queries on their own, each run with a fresh scope, so a chart
    // pays for the passes it shares with others on a dashboard (the counted cases, every case's score).
    const structure = await surveyStructure(db, await requireAnalyst(db, caller, seeded.surveyId));
    const testQuestions = [...structure.questions.values()].filter(isScoredQuestion);
    const scope = () => chartScope(db, seeded.surveyId, {}, testQuestions);
    for (const chart of dashboard.Charts) {
      const row = {
        id: chart.Id,
        chart_type: chart.ChartType,
        plot_type: chart.PlotType,
        attribute_id: chart.AttributeId,
        question_id1: chart.QuestionId1,
        question_id2: chart.QuestionId2,
        sort: chart.Sort,
      };
      const ms = await median(3, () => chartData(scope(), structure.survey, row));
      lines.push({ figure: `${kind}:   ${chart.ChartType}`, value: `${Math.round(ms)} ms`, budget: "", verdict: "" });
    }
  } finally {
    await cleanup();
  }
}

console.log(
  `load average before: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
for (const kind of dialects) await bench(kind);
console.log(
  `load average after: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);

const widths = (["figure", "value", "budget", "verdict"] as const).map((k) =>
  Math.max(k.length, ...lines.map((l) => l[k].length)),
);
const row = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
console.log(row(["figure", "value", "budget", "verdict"]));
console.log(row(widths.map((w) => "-".repeat(w))));
for (const l of lines) console.log(row([l.figure, l.value, l.budget, l.verdict]));
process.exit(lines.some((l) => l.verdict === "OVER") ? 1 : 0);
