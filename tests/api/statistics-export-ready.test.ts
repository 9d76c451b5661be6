import SQLite from "better-sqlite3";
import { unzipSync } from "fflate";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { readyExportLines, readyExports } from "~/server/services/statistics/export-ready.server";
import type { DB } from "~/server/db/types.server";
import { dialects } from "../support/databases";
import { answersOf, buildSurvey, fillCase, parseCsv, useStatisticsWorld, utf8 } from "./statistics-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

/** The kept lines of a survey's cases, by patient id, and their removal. */
function keptLines(db: () => DB) {
  return {
    keptOf: (surveyId: number) =>
      db()
        .selectFrom("case_export_rows as k")
        .innerJoin("patient_data as pd", "pd.id", "k.patient_data_id")
        .select(["pd.patient_id", "k.patient_data_id", "k.line", "k.layout"])
        .where("pd.survey_id", "=", surveyId)
        .orderBy("pd.patient_id")
        .execute(),
    forgetLines: async (surveyId: number) => {
      await db()
        .deleteFrom("case_export_rows")
        .where("patient_data_id", "in", (eb) =>
          eb.selectFrom("patient_data").select("id").where("survey_id", "=", surveyId),
        )
        .execute();
    },
  };
}

/**
 * The export's lines written ahead in the background (docs/decisions/032-export-lines-readied.md). The
 * oracle is the export written from the answers, with no line kept: a readied line must be the same.
 */
describe.each(dialects)("the export's lines readied ahead on %s", (kind) => {
  const { world, fixture } = useStatisticsWorld(kind, () => idp);
  const zone = () => world().api.ctx.env.CLINIC_TIME_ZONE;

  const { keptOf, forgetLines } = keptLines(() => world().db);
  const exportCsv = async (surveyId: number, who: "approver" | "admin" = "approver") => {
    const res = await world().call(who, "POST", `/statistics/${surveyId}/csv`, {});
    expect(res.status).toBe(200);
    return utf8.decode(unzipSync(new Uint8Array(await res.arrayBuffer()))["responses.csv"]);
  };

  it("readies the lines the export would write, and the export then uses them", async () => {
    const f = fixture();
    const w = world();
    await forgetLines(f.survey);
    onTestFinished(() => forgetLines(f.survey));
    // The oracle: written from the answers, nothing kept.
    const fromAnswers = await exportCsv(f.survey);
    const written = await keptOf(f.survey);
    await forgetLines(f.survey);

    expect(await readyExportLines(w.db, f.survey, zone())).toBe(6);
    const readied = await keptOf(f.survey);
    expect(readied).toEqual(written);
    // Nothing left to ready.
    expect(await readyExportLines(w.db, f.survey, zone())).toBe(0);

    // The export reads the readied lines (one is marked here behind its back) and gives the same file.
    expect(await exportCsv(f.survey)).toBe(fromAnswers);
    const p3 = readied.find((k) => k.patient_id === "P3")!;
    await w.db
      .updateTable("case_export_rows")
      .set({ line: `READY${p3.line}` })
      .where("patient_data_id", "=", p3.patient_data_id)
      .execute();
    expect(await exportCsv(f.survey)).toContain(`;READY${p3.line}`);

    // A case whose answers changed is readied again, alone, and the export shows the change.
    const weight = await w.db
      .selectFrom("question_responses")
      .select(["id", "numerical_response"])
      .where("patient_data_id", "=", f.cases.P2)
      .where("question_id", "=", f.q.weight)
      .executeTakeFirstOrThrow();
    onTestFinished(async () => {
      await w.db
        .updateTable("question_responses")
        .set({ numerical_response: weight.numerical_response })
        .where("id", "=", weight.id)
        .execute();
    });
    await w.db
      .updateTable("question_responses")
      .set({ numerical_response: 77.5 })
      .where("id", "=", weight.id)
      .execute();
    expect(await readyExportLines(w.db, f.survey, zone())).toBe(1);
    const afterChange = await exportCsv(f.survey);
    expect(afterChange).toContain("77,5");
    await forgetLines(f.survey);
    expect(await exportCsv(f.survey)).toBe(afterChange.replace(`READY${p3.line}`, p3.line));
  });

  it("a line kept in another time zone is written anew, with the offsets of the zone now set", async () => {
    const f = fixture();
    const w = world();
    await forgetLines(f.survey);
    onTestFinished(() => forgetLines(f.survey));
    const fromAnswers = await exportCsv(f.survey);
    expect(fromAnswers).toContain(";2024-03-01T08:00:00+01:00;");
    // Lines kept while the setting named New York (a copy started with another CLINIC_TIME_ZONE).
    expect(await readyExportLines(w.db, f.survey, "America/New_York")).toBe(6);
    const p1 = (await keptOf(f.survey)).find((k) => k.patient_id === "P1")!;
    expect(p1.line).toContain(";2024-03-01T08:00:00-05:00;");
    // Their layout is not the present one: the export and the readying write them again, in Berlin.
    expect(await exportCsv(f.survey)).toBe(fromAnswers);
    expect(await readyExportLines(w.db, f.survey, "America/New_York")).toBe(6);
    expect(await readyExportLines(w.db, f.survey, zone())).toBe(6);
    expect(await exportCsv(f.survey)).toBe(fromAnswers);
  });

  it("keeps one line per case for the exports in German and in English, and readies none twice", async () => {
    const f = fixture();
    const w = world();
    await forgetLines(f.survey);
    onTestFinished(() => forgetLines(f.survey));
    // A text that is quoted and holds both separators and a quote, beside decimals (70,5 in German).
    const notes = await w.db
      .selectFrom("question_responses")
      .select(["id", "text_response"])
      .where("patient_data_id", "=", f.cases.P2)
      .where("question_id", "=", f.q.notes)
      .executeTakeFirstOrThrow();
    onTestFinished(async () => {
      await w.db
        .updateTable("question_responses")
        .set({ text_response: notes.text_response })
        .where("id", "=", notes.id)
        .execute();
    });
    await w.db
      .updateTable("question_responses")
      .set({ text_response: 'Er sagte "ja; nein", dann 1,5 Liter' })
      .where("id", "=", notes.id)
      .execute();
    const inGerman = await exportCsv(f.survey);
    expect(inGerman).toContain(";70,5;");
    expect(inGerman).toContain(';"Er sagte ""ja; nein"", dann 1,5 Liter";');
    const kept = await keptOf(f.survey);
    expect(kept).toHaveLength(6);

    // An analyst working in English: the file written from the answers keeps the very same lines.
    expect((await w.call("admin", "POST", "/users/current/culture?culture=en-US")).status).toBeLessThan(300);
    onTestFinished(async () => {
      await w.call("admin", "POST", "/users/current/culture?culture=de-DE");
    });
    await forgetLines(f.survey);
    const inEnglish = await exportCsv(f.survey, "admin");
    expect(inEnglish).toContain(",70.5,");
    expect(inEnglish).toContain(',"Er sagte ""ja; nein"", dann 1,5 Liter",');
    expect(await keptOf(f.survey)).toEqual(kept);
    expect(await readyExportLines(w.db, f.survey, zone())).toBe(0);

    // Both exports read the kept lines (one is marked here behind their backs), each in its separator.
    const p2 = kept.find((k) => k.patient_id === "P2")!;
    await w.db
      .updateTable("case_export_rows")
      .set({ line: `READY;${p2.line}` })
      .where("patient_data_id", "=", p2.patient_data_id)
      .execute();
    const withMark = (text: string, sep: string) =>
      parseCsv(text, sep).map((row) => (row[0] === "P2" ? [...row.slice(0, 7), "READY", ...row.slice(7)] : row));
    expect(parseCsv(await exportCsv(f.survey, "admin"), ",")).toEqual(withMark(inEnglish, ","));
    expect(parseCsv(await exportCsv(f.survey), ";")).toEqual(withMark(inGerman, ";"));
    expect(await readyExportLines(w.db, f.survey, zone())).toBe(0);
  });

  it("readies every survey with closed cases, and stops when told", async () => {
    const f = fixture();
    const w = world();
    await forgetLines(f.survey);
    onTestFinished(() => forgetLines(f.survey));
    // Three more surveys, never exported: two with two closed cases, and one with fewer closed cases than any
    // (one, and an open one, which is not counted and not readied).
    const busier = [];
    for (const title of ["Zweite Umfrage", "Dritte Umfrage"]) {
      const survey = await buildSurvey(w.call, title);
      for (const patientId of ["A1", "A2"]) await fillCase(w, survey, patientId, answersOf.P1);
      onTestFinished(() => forgetLines(survey.survey));
      busier.push(survey.survey);
    }
    const other = await buildSurvey(w.call, "Vierte Umfrage");
    await fillCase(w, other, "Z1", answersOf.P1);
    await fillCase(w, other, "Z2", { ...answersOf.P1, close: false });
    onTestFinished(() => forgetLines(other.survey));
    const stopped = new AbortController();
    stopped.abort();
    expect(await readyExports(w.db, zone(), stopped.signal)).toEqual({});
    expect(await keptOf(f.survey)).toEqual([]);
    expect(await readyExports(w.db, zone())).toEqual({
      [f.survey]: 6,
      [busier[0]]: 2,
      [busier[1]]: 2,
      [other.survey]: 1,
    });
    expect((await keptOf(other.survey)).map((k) => k.patient_id)).toEqual(["Z1"]);
    expect(await readyExports(w.db, zone())).toEqual({});
    // Its first export reads the readied line: the same file as written from the answers.
    const readied = await exportCsv(other.survey);
    await forgetLines(other.survey);
    expect(await exportCsv(other.survey)).toBe(readied);
  });
});

/** SQLite runs a write on the thread that asks for it: a round of readying must not wait long for a lock. */
describe("the export's lines readied ahead on sqlite, beside a write", () => {
  const { world, fixture } = useStatisticsWorld("sqlite", () => idp);
  const zone = () => world().api.ctx.env.CLINIC_TIME_ZONE;
  const { keptOf, forgetLines } = keptLines(() => world().db);

  it("gives a round up, instead of holding the server's thread, while the database is being written", async () => {
    const f = fixture();
    const w = world();
    await forgetLines(f.survey);
    onTestFinished(() => forgetLines(f.survey));
    const [{ file }] = (await sql<{ file: string }>`pragma database_list`.execute(w.db)).rows;
    // Another connection holds the write lock, as a long write of the server would.
    const other = new SQLite(file);
    onTestFinished(() => {
      if (other.inTransaction) other.exec("rollback");
      other.close();
    });
    other.exec("begin immediate");
    const started = performance.now();
    expect(await readyExportLines(w.db, f.survey, zone())).toBe(0);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await keptOf(f.survey)).toEqual([]);
    other.exec("rollback");
    expect(await readyExportLines(w.db, f.survey, zone())).toBe(6);
  });
});
