import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QuestionStatistics, Statistics } from "~/domain/statistics";
import { demoHints, demoSurveys } from "~/server/services/demo-data.server";
import { seedDemoCases } from "~/server/services/demo-cases.server";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { dialects } from "../support/databases";
import { checkStata } from "./stata-subset";
import { parseCsv, read, useStatisticsWorld, utf8 } from "./statistics-support";

/**
 * The export's scripts run for real: R (Rscript) and GNU PSPP read the exported CSV, and the frequencies each
 * computes equal the app's own statistics for every question; the Stata script is checked by a parser of its
 * syntax (tests/api/stata-subset.ts).
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

/** Counts by variable: "n" (values present), "v:<value>" (SPSS) or "l:<level>" (R), "m:<reason>". */
type Counts = Map<string, Map<string, number>>;

function add(counts: Counts, name: string, key: string, n: number) {
  const of = counts.get(name) ?? new Map<string, number>();
  of.set(key, (of.get(key) ?? 0) + n);
  counts.set(name, of);
}

const R_DRIVER = `
options(warn = 2)
source("responses.R")
for (name in names(responses)) {
  x <- responses[[name]]
  cat(name, "\\tn\\t", sum(!is.na(x)), "\\n", sep = "")
  if (is.factor(x)) { tb <- table(x); for (i in seq_along(tb)) cat(name, "\\tl:", i, "\\t", tb[[i]], "\\n", sep = "") }
  if (!is.null(attr(x, "labels"))) cat(name, "\\tl:1\\t", sum(x == 1L, na.rm = TRUE), "\\n", sep = "")
  m <- attr(x, "missing")
  if (!is.null(m)) { tb <- table(m); for (i in seq_along(tb)) cat(name, "\\tm:", i, "\\t", tb[[i]], "\\n", sep = "") }
  cat(name, "\\tlabel\\t", nchar(attr(x, "label")), "\\n", sep = "")
}
`;

function runR(dir: string): Counts {
  writeFileSync(join(dir, "driver.R"), R_DRIVER);
  const out = execFileSync("Rscript", ["driver.R"], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, LANG: "C.UTF-8" },
  });
  const counts: Counts = new Map();
  for (const line of out.trim().split("\n")) {
    const [name, key, n] = line.split("\t");
    add(counts, name, key, Number(n));
  }
  return counts;
}

/** The PSPP output of the last run (its dictionary: labels and value labels as PSPP read them). */
let psppOutput = "";

function runPspp(dir: string, names: string[]): Counts {
  const syntax = readFileSync(join(dir, "responses.sps"), "utf8");
  const driver =
    `${syntax}\nDISPLAY DICTIONARY.\nSET TVARS=NAMES TNUMBERS=VALUES.\n` +
    `FREQUENCIES /VARIABLES=${names.join(" ")} /STATISTICS=NONE.\n`;
  writeFileSync(join(dir, "driver.sps"), driver);
  execFileSync("pspp", ["driver.sps", "-o", "out.csv"], { cwd: dir, encoding: "utf8" });
  const output = readFileSync(join(dir, "out.csv"), "utf8");
  expect(output).not.toMatch(/error|warning/i);
  psppOutput = output;
  const counts: Counts = new Map();
  let table = "";
  let section = "";
  for (const line of output.split("\n")) {
    if (line.startsWith("Table: ")) {
      table = line.slice(7).trim();
      continue;
    }
    if (!names.includes(table) || line === "") continue;
    const [first, value, frequency] = parseCsv(`${line}\r\n`, ",")[0];
    if (first === "Total" || frequency === "Frequency") continue;
    if (first) section = first;
    const v = value.trim();
    if (section === "Valid" && v !== "") {
      add(counts, table, `v:${Number(v)}`, Number(frequency));
      add(counts, table, "n", Number(frequency));
    } else if (section === "Missing" && v !== "" && v !== ".") add(counts, table, `m:${Number(v)}`, Number(frequency));
  }
  return counts;
}

/** Every question's statistics, sub-questions included. */
function allQuestions(stats: Statistics): QuestionStatistics[] {
  const out: QuestionStatistics[] = [];
  const walk = (q: QuestionStatistics) => {
    out.push(q);
    for (const a of q.AnswerStatistics) for (const s of a.SubQuestionStatistics) walk(s);
  };
  for (const c of stats.CategoryStatistics) for (const q of c.QuestionStatistics) walk(q);
  return out;
}

interface Exported {
  dir: string;
  files: Record<string, Uint8Array>;
  vars: string[][];
  stats: Statistics;
}

async function exportTo(
  call: ReturnType<typeof useStatisticsWorld>["world"],
  surveyId: number,
  culture = "de-DE",
): Promise<Exported> {
  const w = call();
  const res = await w.call("editor", "POST", `/statistics/${surveyId}/csv?culture=${culture}`, {});
  expect(res.status).toBe(200);
  const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
  const dir = mkdtempSync(join(tmpdir(), "export-scripts-"));
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
  const sep = culture === "de-DE" ? ";" : ",";
  const vars = parseCsv(utf8.decode(files["codebook-variables.csv"]).slice(1), sep).slice(1);
  const stats: Statistics = await read(await w.call("editor", "POST", `/statistics/${surveyId}?wordCloud=false`, {}));
  return { dir, files, vars, stats };
}

/** The app's figures against a package's: per option, answered and (for choices) not answered. */
function compare(e: Exported, counts: Counts, pkg: "R" | "SPSS") {
  const byName = new Map(e.vars.map((v) => [v[0], v]));
  let compared = 0;
  for (const q of allQuestions(e.stats)) {
    const single = byName.get(`Q${q.QuestionId}`);
    if (single && q.AnswerStatistics.length > 0) {
      // A single choice: one labelled variable, counts by option.
      const c = counts.get(`Q${q.QuestionId}`)!;
      const values = single[6].split("; ").map((s) => Number(s.split(" = ")[0]));
      for (const [i, a] of q.AnswerStatistics.entries()) {
        const key = pkg === "R" ? `l:${i + 1}` : `v:${values[i]}`;
        expect(c.get(key) ?? 0, `${pkg} Q${q.QuestionId} option ${a.AnswerOptionText}`).toBe(
          a.TotalAnswerOptionResponses,
        );
      }
      expect(c.get("n") ?? 0, `${pkg} Q${q.QuestionId} answered`).toBe(q.TotalQuestionResponses);
      expect(c.get(pkg === "R" ? "m:2" : "m:-2") ?? 0, `${pkg} Q${q.QuestionId} not answered`).toBe(q.NotAnswered);
    } else if (single) {
      // Numbers, dates and texts: the answers present.
      expect(counts.get(`Q${q.QuestionId}`)?.get("n") ?? 0, `${pkg} Q${q.QuestionId}`).toBe(q.TotalQuestionResponses);
    } else {
      // A multiple choice: one 0/1 variable per option.
      for (const a of q.AnswerStatistics) {
        const c = counts.get(`Q${q.QuestionId}_o${a.AnswerOptionId}`)!;
        expect(c, `Q${q.QuestionId}_o${a.AnswerOptionId}`).toBeDefined();
        const ones = pkg === "R" ? c.get("l:1") : c.get("v:1");
        expect(ones ?? 0, `${pkg} ${a.AnswerOptionText}`).toBe(a.TotalAnswerOptionResponses);
        expect(c.get("n") ?? 0, `${pkg} Q${q.QuestionId} answered`).toBe(q.TotalQuestionResponses);
        expect(c.get(pkg === "R" ? "m:2" : "m:-2") ?? 0, `${pkg} Q${q.QuestionId} not answered`).toBe(q.NotAnswered);
      }
    }
    compared++;
  }
  return compared;
}

describe.each(dialects)("statistics scripts on %s", (kind) => {
  const { world, fixture } = useStatisticsWorld(kind, () => idp);
  const exports: Exported[] = [];
  afterAll(() => {
    for (const e of exports) rmSync(e.dir, { recursive: true, force: true });
  });

  const exportOf = async (id: number, culture?: string) => {
    const e = await exportTo(world, id, culture);
    exports.push(e);
    return e;
  };

  it("the zip holds the scripts and the variables' codebook beside the CSV", async () => {
    const e = await exportOf(fixture().survey);
    expect(Object.keys(e.files).sort()).toEqual([
      "codebook-variables.csv",
      "codebook.csv",
      "responses.R",
      "responses.csv",
      "responses.do",
      "responses.sps",
    ]);
    const names = e.vars.map((v) => v[0]);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[A-Za-z][A-Za-z0-9_]{0,31}$/);
    expect(names.slice(0, 4)).toEqual(["PatientId", "State", "Created", "Closed"]);
  });

  it("R and PSPP read the test survey with the app's frequencies for every question", async () => {
    const e = exports[0] ?? (await exportOf(fixture().survey));
    const r = runR(e.dir);
    const spssNames = e.vars.map((v) => v[0]).filter((n) => n.startsWith("Q") || n.startsWith("P"));
    const spss = runPspp(e.dir, spssNames);
    const asked = allQuestions(e.stats).length;
    expect(compare(e, r, "R")).toBe(asked);
    expect(compare(e, spss, "SPSS")).toBe(asked);
    // Preliminary questions: value labels and counts in both.
    const f = fixture();
    expect(r.get(`P${f.smoker.id}`)?.get("l:1")).toBe(3);
    expect(spss.get(`P${f.smoker.id}`)?.get(`v:${f.smoker.yes}`)).toBe(3);
    // R keeps the texts as UTF-8 too: a factor's levels, a variable's label and the missing reasons.
    const levels = execFileSync(
      "Rscript",
      [
        "-e",
        `source("responses.R"); x <- responses[["P${f.sex.id}"]]; cat(levels(x), attr(x, "label"), ` +
          `levels(attr(responses[["Q${f.q.daily}"]], "missing")), sep = "\\n")`,
      ],
      { cwd: e.dir, encoding: "utf8", env: { ...process.env, LANG: "C.UTF-8" } },
    );
    expect(levels.trim().split("\n")).toEqual([
      "weiblich",
      "männlich",
      "Geschlecht",
      "nicht gezeigt (durch eine Regel)",
      "nicht beantwortet",
    ]);
    // PSPP read the labels as UTF-8: umlauts, units and the missing codes' labels.
    expect(psppOutput).toContain("männlich");
    expect(psppOutput).toContain("Körpergewicht (kg)");
    expect(psppOutput).toContain("nicht gezeigt (durch eine Regel)");
  });

  it("English: the labels in English, the CSV's comma and decimal point read by R and PSPP", async () => {
    const f = fixture();
    const e = await exportOf(f.survey, "en-US");
    const r = runR(e.dir);
    const spssNames = e.vars.map((v) => v[0]).filter((n) => n.startsWith("Q") || n.startsWith("P"));
    expect(compare(e, r, "R")).toBe(allQuestions(e.stats).length);
    expect(compare(e, runPspp(e.dir, spssNames), "SPSS")).toBe(allQuestions(e.stats).length);
    const script = utf8.decode(e.files["responses.R"]);
    expect(script).toContain('sep = ","');
    expect(script).toContain('"not answered"');
    expect(utf8.decode(e.files["responses.sps"])).toContain("'not shown (by a rule)'");
    expect(e.vars.find((v) => v[0] === `Q${f.q.weight}`)![3]).toContain("(kg)");
  });

  it("the Stata script keeps to its syntax, its names and its limits", async () => {
    const e = exports[0] ?? (await exportOf(fixture().survey));
    const columns = parseCsv(utf8.decode(e.files["responses.csv"]).slice(1), ";")[0].length;
    const check = checkStata(utf8.decode(e.files["responses.do"]), columns);
    expect(check.variables).toEqual(e.vars.map((v) => v[0]));
    for (const v of e.vars) expect(check.labels.has(v[0]), v[0]).toBe(true);
    const f = fixture();
    expect(check.valueLabels.get(`Q${f.q.feeling}`)).toBe(`Q${f.q.feeling}`);
  });

  it("a text with a line break: PSPP reads responses-lines.csv, one case a line", async () => {
    const f = fixture();
    const w = world();
    await w.db
      .updateTable("question_responses")
      .set({ text_response: "erste Zeile\r\nzweite; Zeile" })
      .where("patient_data_id", "=", f.cases.P1)
      .where("question_id", "=", f.q.notes)
      .execute();
    const e = await exportOf(f.survey);
    expect(Object.keys(e.files)).toContain("responses-lines.csv");
    expect(utf8.decode(e.files["responses.sps"])).toContain("/FILE='responses-lines.csv'");
    const spssNames = e.vars.map((v) => v[0]).filter((n) => n.startsWith("Q") || n.startsWith("P"));
    expect(compare(e, runPspp(e.dir, spssNames), "SPSS")).toBe(allQuestions(e.stats).length);
    expect(compare(e, runR(e.dir), "R")).toBe(allQuestions(e.stats).length);
  });

  it("the demo surveys: R and PSPP count as the app does", async () => {
    const w = world();
    const demos = demoSurveys();
    for (const [i, id] of [w.a.heart, w.a.postop].entries()) {
      const demo = demos[i];
      await seedDemoCases(w.db, id, Math.min(demo.cases?.count ?? 30, 40), demo.cases?.seed ?? 7, demoHints(demo));
      const e = await exportOf(id);
      expect(e.stats.NumSurveyResponses).toBeGreaterThan(0);
      const asked = allQuestions(e.stats).length;
      const spssNames = e.vars.map((v) => v[0]).filter((n) => n.startsWith("Q") || n.startsWith("P"));
      expect(compare(e, runR(e.dir), "R")).toBe(asked);
      expect(compare(e, runPspp(e.dir, spssNames), "SPSS")).toBe(asked);
    }
  });
});
