import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { expect } from "vitest";
import type { QuestionStatistics, Statistics } from "~/domain/statistics";
import { parseCsv, read, type useStatisticsWorld, utf8 } from "./statistics-support";

/**
 * Running the export's scripts for real (tests/api/statistics-scripts.test.ts, statistics-languages.test.ts):
 * R (Rscript) and GNU PSPP read the exported CSV, and what each counts is compared with the app's statistics.
 */
/** Counts by variable: "n" (values present), "v:<value>" (SPSS) or "l:<level>" (R), "m:<reason>". */
export type Counts = Map<string, Map<string, number>>;

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

export function runR(dir: string): Counts {
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
export let psppOutput = "";

export function runPspp(dir: string, names: string[]): Counts {
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

/** How R holds a date-time variable, per patient id: its local time, its zone's abbreviation, its instant. */
export interface RDateTime {
  local: string;
  abbreviation: string;
  seconds: number | null;
}

/**
 * R's reading of a date-time variable and of the case's start: the zone it shows them in, and per case the
 * local time as typed (DD.MM.YYYY HH:mm), the zone's abbreviation, the instant in seconds and the start with
 * its offset.
 */
function rDateTimes(dir: string, name: string) {
  const driver = `
options(warn = 2)
source("responses.R")
x <- responses[[${JSON.stringify(name)}]]
cat(attr(x, "tzone"), attr(responses$Created, "tzone"), "\n", sep = "\t")
out <- data.frame(id = responses$PatientId, local = format(x, "%d.%m.%Y %H:%M"), abbreviation = format(x, "%Z"),
  seconds = as.numeric(x), created = format(responses$Created, "%Y-%m-%dT%H:%M:%S%z"))
write.table(out, sep = "\t", quote = FALSE, row.names = FALSE, col.names = FALSE)
`;
  writeFileSync(join(dir, "datetimes.R"), driver);
  const out = execFileSync("Rscript", ["datetimes.R"], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, LANG: "C.UTF-8", TZ: "UTC" },
  });
  const [zones, ...lines] = out.trim().split("\n");
  const answers = new Map<string, RDateTime>();
  const created = new Map<string, string>();
  for (const line of lines) {
    const [id, local, abbreviation, seconds, start] = line.split("\t");
    answers.set(id, { local, abbreviation, seconds: seconds === "NA" ? null : Number(seconds) });
    created.set(id, start);
  }
  return { zones: zones.split("\t").filter(Boolean), answers, created };
}

/** PSPP's listing of some variables (DATETIME values as PSPP prints them), per patient id. */
export function psppListing(dir: string, names: string[]): Map<string, string[]> {
  const syntax = readFileSync(join(dir, "responses.sps"), "utf8");
  writeFileSync(join(dir, "list.sps"), `${syntax}\nLIST /VARIABLES=PatientId ${names.join(" ")}.\n`);
  execFileSync("pspp", ["list.sps", "-o", "list.csv"], { cwd: dir, encoding: "utf8" });
  const output = readFileSync(join(dir, "list.csv"), "utf8");
  expect(output).not.toMatch(/error|warning/i);
  const rows = new Map<string, string[]>();
  const table = output.slice(output.indexOf("Table: Data List"));
  for (const row of parseCsv(table.replace(/\r?\n/g, "\r\n"), ",").slice(2)) {
    if (row.length !== names.length + 1) break;
    rows.set(
      row[0].trim(),
      row.slice(1).map((v) => v.trim()),
    );
  }
  return rows;
}

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

/** The local time of a CSV cell ("2024-03-01T08:00:00+01:00") as PSPP's DATETIME20 prints it. */
const psppDateTime = (cell: string) =>
  `${cell.slice(8, 10)}-${MONTHS[Number(cell.slice(5, 7)) - 1]}-${cell.slice(0, 4)} ${cell.slice(11, 19)}`;

/** A CSV cell's local time as typed: "2024-03-01T08:00:00+01:00" → "01.03.2024 08:00". */
const typedOf = (cell: string) => `${cell.slice(8, 10)}.${cell.slice(5, 7)}.${cell.slice(0, 4)} ${cell.slice(11, 16)}`;

/**
 * The date-times of an export as R and PSPP read them, against its CSV: R shows each answer and each case's
 * start in `zone` at the local time of the CSV (the typed time) and holds the instant the offset names; PSPP
 * holds the same local time. Returns R's answers by patient id.
 */
export function checkDateTimes(e: Exported, measured: string, zone: string): Map<string, RDateTime> {
  const [header, ...rows] = parseCsv(utf8.decode(e.files["responses.csv"]).slice(1), e.sep);
  const r = rDateTimes(e.dir, measured);
  expect(r.zones).toEqual([zone, zone]);
  const listed = psppListing(e.dir, [measured, "Created"]);
  expect(listed.size).toBe(rows.length);
  for (const row of rows) {
    const id = row[0];
    const cell = row[header.indexOf(measured)];
    const start = row[header.indexOf("Created")];
    // The case's start: in R the CSV's instant with the CSV's offset (%z writes it without a colon).
    expect(r.created.get(id), id).toBe(start.replace(/:(\d{2})$/, "$1"));
    expect(listed.get(id)![1], id).toBe(psppDateTime(start));
    const got = r.answers.get(id)!;
    if (cell === "") {
      expect(got, id).toEqual({ local: "NA", abbreviation: "NA", seconds: null });
      expect(listed.get(id)![0], id).toBe(".");
      continue;
    }
    expect(got.local, id).toBe(typedOf(cell));
    expect(got.seconds! * 1000, id).toBe(Date.parse(cell));
    expect(listed.get(id)![0], id).toBe(psppDateTime(cell));
  }
  return r.answers;
}

/** Every question's statistics, sub-questions included. */
export function allQuestions(stats: Statistics): QuestionStatistics[] {
  const out: QuestionStatistics[] = [];
  const walk = (q: QuestionStatistics) => {
    out.push(q);
    for (const a of q.AnswerStatistics) for (const s of a.SubQuestionStatistics) walk(s);
  };
  for (const c of stats.CategoryStatistics) for (const q of c.QuestionStatistics) walk(q);
  return out;
}

export interface Exported {
  dir: string;
  sep: ";" | ",";
  files: Record<string, Uint8Array>;
  vars: string[][];
  stats: Statistics;
}

export async function exportTo(
  call: ReturnType<typeof useStatisticsWorld>["world"],
  surveyId: number,
  culture = "de-DE",
  language?: string,
): Promise<Exported> {
  const w = call();
  const inLanguage = language ? `&language=${language}` : "";
  const res = await w.call("editor", "POST", `/statistics/${surveyId}/csv?culture=${culture}${inLanguage}`, {});
  expect(res.status).toBe(200);
  const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
  const dir = mkdtempSync(join(tmpdir(), "export-scripts-"));
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
  const sep = culture === "de-DE" ? ";" : ",";
  const vars = parseCsv(utf8.decode(files["codebook-variables.csv"]).slice(1), sep).slice(1);
  const stats: Statistics = await read(
    await w.call("editor", "POST", `/statistics/${surveyId}?wordCloud=false${inLanguage}`, {}),
  );
  return { dir, sep, files, vars, stats };
}

/**
 * A survey's total score (docs/decisions/051-instrument-scores.md): R reads it as a number and PSPP as a
 * numeric variable, each with the app's totals, case by case.
 */
export function compareTotal(e: Exported) {
  const total = e.stats.ScoreTotal!;
  const expected = total.Distribution.flatMap((b) => Array<number>(b.Count).fill(b.From));
  const out = execFileSync(
    "Rscript",
    [
      "-e",
      'source("responses.R"); x <- responses[["Total"]]; ' +
        'cat(is.numeric(x), attr(x, "label"), sum(!is.na(x)), sprintf("%.4f", sort(x)), sep = "\\n")',
    ],
    { cwd: e.dir, encoding: "utf8", env: { ...process.env, LANG: "C.UTF-8" } },
  );
  const [numeric, label, n, ...values] = out.trim().split("\n");
  expect([numeric, label, Number(n)]).toEqual(["TRUE", total.Title, total.Cases]);
  expect(values.map(Number)).toEqual(expected);
  const spss = runPspp(e.dir, ["Total"]).get("Total") ?? new Map<string, number>();
  expect(spss.get("n") ?? 0, "SPSS Total answered").toBe(total.Cases);
  for (const b of total.Distribution) expect(spss.get(`v:${b.From}`), `SPSS Total ${b.From}`).toBe(b.Count);
  expect(psppOutput).toContain(total.Title);
}

/** The app's figures against a package's: per option, answered and (for choices) not answered. */
export function compare(e: Exported, counts: Counts, pkg: "R" | "SPSS") {
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
