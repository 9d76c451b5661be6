import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { demoHints, demoSurveys } from "~/server/services/demo-data.server";
import { seedDemoCases } from "~/server/services/demo-cases.server";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { dialects } from "../support/databases";
import { checkStata } from "./stata-subset";
import { setRespondents } from "./respondents-support";
import {
  allQuestions,
  checkDateTimes,
  compare,
  compareTotal,
  exportTo,
  psppOutput,
  runPspp,
  runR,
  type Exported,
} from "./statistics-scripts-support";
import { answersOf, parseCsv, read, useStatisticsWorld, utf8 } from "./statistics-support";

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
    expect(names.slice(0, 7)).toEqual([
      "PatientId",
      "State",
      "Created",
      "Closed",
      "Language",
      "Respondent",
      "RespondentLink",
    ]);
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
    // Who answered is a labelled code there too (docs/decisions/057-patient-links.md).
    expect(check.valueLabels.get("Respondent")).toBe("Respondent");
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

  it("R shows a typed date-time in the clinic's zone as it was typed; PSPP holds the same local time", async () => {
    const f = fixture();
    const e = exports[0] ?? (await exportOf(f.survey));
    const answers = checkDateTimes(e, `Q${f.q.measured}`, "Europe/Berlin");
    for (const id of ["P1", "P2", "P3", "P4", "P5", "P6"])
      expect(answers.get(id)!.local, id).toBe(answersOf[id].measured ?? "NA");
    // 08:00 on 1 March is winter time (07:00 UTC); 09:15 on 2 April summer time (07:15 UTC).
    expect(answers.get("P1")).toEqual({
      local: "01.03.2024 08:00",
      abbreviation: "CET",
      seconds: Date.parse("2024-03-01T07:00:00Z") / 1000,
    });
    expect(answers.get("P5")).toEqual({
      local: "02.04.2024 09:15",
      abbreviation: "CEST",
      seconds: Date.parse("2024-04-02T07:15:00Z") / 1000,
    });
  });

  it("the hours the clocks skip and repeat: R and PSPP agree with the CSV, as decision 053 reads them", async () => {
    const f = fixture();
    const w = world();
    const answerOf = (id: string) =>
      w.db
        .updateTable("question_responses")
        .where("patient_data_id", "=", f.cases[id])
        .where("question_id", "=", f.q.measured);
    onTestFinished(async () => {
      await answerOf("P1").set({ date_time_response: "2024-03-01T08:00" }).execute();
      await answerOf("P2").set({ date_time_response: "2024-03-01T20:30" }).execute();
    });
    await answerOf("P1").set({ date_time_response: "2026-03-29T02:30" }).execute();
    await answerOf("P2").set({ date_time_response: "2026-10-25T02:30" }).execute();
    const e = await exportOf(f.survey);
    const answers = checkDateTimes(e, `Q${f.q.measured}`, "Europe/Berlin");
    // 02:30 on 29 March does not exist: read before the clocks turned (01:30 UTC), shown as 03:30 summer time.
    expect(answers.get("P1")).toEqual({
      local: "29.03.2026 03:30",
      abbreviation: "CEST",
      seconds: Date.parse("2026-03-29T01:30:00Z") / 1000,
    });
    // 02:30 on 25 October comes twice: the first, in summer time (00:30 UTC).
    expect(answers.get("P2")).toEqual({
      local: "25.10.2026 02:30",
      abbreviation: "CEST",
      seconds: Date.parse("2026-10-25T00:30:00Z") / 1000,
    });
  });

  it("who answered: R and PSPP read the respondent's code with its labels and the link's number", async () => {
    const f = fixture();
    // P1 through link 7, P3 on a handed-over device, the others staff (docs/decisions/057-patient-links.md).
    onTestFinished(await setRespondents(world().db, f.cases));
    const e = await exportOf(f.survey, "en-US");
    const spss = runPspp(e.dir, ["Respondent", "RespondentLink"]);
    // The codes are the same in every export: staff 1, link 2, handover 3.
    expect(Object.fromEntries(spss.get("Respondent")!)).toEqual({ "v:1": 4, "v:2": 1, "v:3": 1, n: 6 });
    expect(Object.fromEntries(spss.get("RespondentLink")!)).toEqual({ "v:7": 1, n: 1 });
    expect(psppOutput).toContain("The patient, on a handed-over device");
    const out = execFileSync(
      "Rscript",
      [
        "-e",
        'source("responses.R"); x <- responses$Respondent; cat(attr(x, "label"), levels(x), sep = "\\n"); ' +
          'cat(paste(responses$PatientId, as.integer(x), responses$RespondentLink), sep = "\\n")',
      ],
      { cwd: e.dir, encoding: "utf8", env: { ...process.env, LANG: "C.UTF-8" } },
    );
    expect(out.trim().split("\n")).toEqual([
      "Answered by",
      "Staff",
      "The patient, by link",
      "The patient, on a handed-over device",
      "P1 2 7",
      "P2 1 NA",
      "P3 3 NA",
      "P4 1 NA",
      "P5 1 NA",
      "P6 1 NA",
    ]);
    expect(utf8.decode(e.files["responses.do"])).toContain('replace Respondent = 2 if v6 == `"link"\'');
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
      // The heart survey adds up its complaints' points.
      if (demo.scoreTitle) {
        expect(e.stats.ScoreTotal?.Cases).toBeGreaterThan(0);
        compareTotal(e);
      }
    }
  });

  it("a total score with decimals: R and PSPP read each case's total, in German and in English", async () => {
    const w = world();
    const f = fixture();
    const ok = async (res: Response) => expect(res.status, await res.text()).toBeLessThan(300);
    await ok(await w.call("approver", "PUT", `/surveys/${f.survey}/change-status?newStatusId=1`));
    const scores: Record<string, number> = { gut: 0, mittel: 1.5, schlecht: 3, tage: 0.25, husten: 1, atemnot: -0.5 };
    for (const [key, Score] of Object.entries(scores)) {
      await ok(await w.call("editor", "PUT", `/answer-options/${f.o[key]}`, { SurveyId: f.survey, Score }));
    }
    await ok(await w.call("editor", "PUT", `/surveys/${f.survey}`, { ScoreTitle: "Summe (Punkte)" }));
    for (const culture of ["de-DE", "en-US"]) {
      const e = await exportOf(f.survey, culture);
      expect(e.stats.ScoreTotal?.Distribution.some((b) => !Number.isInteger(b.From))).toBe(true);
      compareTotal(e);
      const columns = parseCsv(utf8.decode(e.files["responses.csv"]).slice(1), culture === "de-DE" ? ";" : ",")[0]
        .length;
      expect(checkStata(utf8.decode(e.files["responses.do"]), columns).variables).toContain("Total");
    }
  });
});

/** The setting's other values: a clinic in New York, whose summer time starts three weeks before Berlin's. */
describe("statistics scripts in another clinic time zone", () => {
  const { world, fixture } = useStatisticsWorld("sqlite", () => idp, { CLINIC_TIME_ZONE: "America/New_York" });

  it("the CSV's offsets, both codebooks, R's zone, PSPP and FHIR follow CLINIC_TIME_ZONE", async () => {
    const f = fixture();
    const e = await exportTo(world, f.survey);
    onTestFinished(() => rmSync(e.dir, { recursive: true, force: true }));
    const measured = `Q${f.q.measured}`;
    const [header, ...rows] = parseCsv(utf8.decode(e.files["responses.csv"]).slice(1), ";");
    // 15 March 2024 is winter time in Berlin, summer time in New York (since 10 March).
    expect(rows.map((r) => r[header.indexOf(measured)])).toEqual([
      "2024-03-01T08:00:00-05:00",
      "2024-03-01T20:30:00-05:00",
      "2024-03-15T12:00:00-04:00",
      "",
      "2024-04-02T09:15:00-04:00",
      "",
    ]);
    for (const r of rows) expect(r[header.indexOf("Closed")]).toMatch(/T\d{2}:\d{2}:\d{2}-0[45]:00$/);
    const codebook = parseCsv(utf8.decode(e.files["codebook.csv"]).slice(1), ";");
    expect(codebook.find((r) => r[0] === measured)![2]).toBe(
      "DateTime (Datum und Uhrzeit in America/New_York, mit Versatz zu UTC)",
    );
    expect(e.vars.find((v) => v[0] === measured)![2]).toContain("Datum und Uhrzeit in America/New_York");
    const answers = checkDateTimes(e, measured, "America/New_York");
    expect(answers.get("P1")).toEqual({
      local: "01.03.2024 08:00",
      abbreviation: "EST",
      seconds: Date.parse("2024-03-01T13:00:00Z") / 1000,
    });
    expect(answers.get("P3")!.abbreviation).toBe("EDT");
    const qr = await read(
      await world().call("editor", "GET", `/surveys/${f.survey}/fhir/questionnaire-response?patientId=P3`),
    );
    const item = JSON.stringify(qr).match(/"valueDateTime":"([^"]+)"/);
    expect(item?.[1]).toBe("2024-03-15T12:00:00-04:00");
  });
});
