import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { dialects } from "../support/databases";
import { parseCsv, useStatisticsWorld, utf8 } from "./statistics-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe.each(dialects)("statistics export on %s", (kind) => {
  const { world, fixture } = useStatisticsWorld(kind, () => idp);
  let files: Record<string, Uint8Array>;
  let disposition: string | null;

  beforeAll(async () => {
    const res = await world().call("editor", "POST", `/statistics/${fixture().survey}/csv`, {});
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    disposition = res.headers.get("content-disposition");
    files = unzipSync(new Uint8Array(await res.arrayBuffer()));
  });

  it("is a zip named after the sanitised title with responses.csv, codebook.csv and the scripts", () => {
    // "Statistik: Herz & Kreislauf" without the colon
    expect(disposition).toContain("Statistik_ Herz & Kreislauf.zip");
    expect(Object.keys(files).sort()).toEqual([
      "codebook-variables.csv",
      "codebook.csv",
      "responses.R",
      "responses.csv",
      "responses.do",
      "responses.sps",
    ]);
  });

  it("responses.csv: BOM, header, one row per counted case with answer texts and codes, German separator", () => {
    const f = fixture();
    const text = utf8.decode(files["responses.csv"]);
    expect(text.startsWith("\uFEFF")).toBe(true);
    const [header, ...rows] = parseCsv(text.slice(1), ";");
    const P = (id: number) => [`P${id}`, `P${id}_code`];
    const Q = (id: number) => [`Q${id}`, `Q${id}_code`];
    expect(header).toEqual([
      "PatientId",
      "State",
      "Created",
      "Closed",
      "Language",
      "Respondent",
      "RespondentLink",
      ...P(f.smoker.id),
      ...P(f.sex.id),
      ...Q(f.q.feeling),
      ...Q(f.q.since),
      ...Q(f.q.complaints),
      `Q${f.q.weight}`,
      `Q${f.q.measured}`,
      `Q${f.q.notes}`,
      ...Q(f.q.daily),
      ...Q(f.q.pulse),
      ...Q(f.q.symptoms),
    ]);
    expect(rows.map((r) => r[0])).toEqual(["P1", "P2", "P3", "P4", "P5", "P6"]);
    // The case's times: the clinic's local time with its offset (Europe/Berlin, the default), to the second.
    const zoned = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[12]:00$/;
    for (const r of rows) {
      expect(r).toHaveLength(header.length);
      expect(r[1]).toBe("Closed");
      expect(r[2]).toMatch(zoned);
      expect(r[3]).toMatch(zoned);
      // No case of the fixture has a stored language: each was filled in the survey's source language.
      expect(r[4]).toBe("de");
      // Staff filled every case of the fixture: no link (docs/decisions/057-patient-links.md).
      expect(r.slice(5, 7)).toEqual(["staff", ""]);
    }
    const o = f.o;
    expect(rows[0].slice(7)).toEqual([
      "ja",
      String(f.smoker.yes),
      "weiblich",
      String(f.sex.female),
      "gut",
      "G1",
      "Tage",
      String(o.tage),
      "Husten | Fieber",
      `${o.husten} | ${o.fieber}`,
      "70,5",
      "2024-03-01T08:00:00+01:00",
      "Die Atemnot ist besser",
      "ja",
      String(o.dailyYes),
      "60 bis 100",
      String(o.p60),
      "Atemnot | Ödeme",
      `${o.sAtemnot} | ${o.sOedeme}`,
    ]);
    const col = (name: string) => header.indexOf(name);
    // A text that a spreadsheet would run as a formula is neutralised; a separator inside a text is quoted.
    expect(rows[2][col(`Q${f.q.notes}`)]).toBe("'=1+1 Schwindel");
    expect(text).toContain(";'=1+1 Schwindel;");
    expect(rows[4][col(`Q${f.q.notes}`)]).toBe("Übelkeit, keine Beschwerden");
    // Unanswered and hidden questions are empty.
    expect(rows[3][col(`Q${f.q.daily}`)]).toBe("");
    expect(rows[3][col(`Q${f.q.complaints}`)]).toBe("");
    expect(rows[5][col(`Q${f.q.feeling}`)]).toBe("");
    expect(rows[3][col(`Q${f.q.weight}`)]).toBe("91,25");
    // Typed date-times in the clinic's zone with the offset of their date: winter time, then summer time.
    expect(rows.map((r) => r[col(`Q${f.q.measured}`)])).toEqual([
      "2024-03-01T08:00:00+01:00",
      "2024-03-01T20:30:00+01:00",
      "2024-03-15T12:00:00+01:00",
      "",
      "2024-04-02T09:15:00+02:00",
      "",
    ]);
  });

  it("the case's started and closed times are the same instants as stored, in the clinic's zone", async () => {
    const f = fixture();
    const [header, ...rows] = parseCsv(utf8.decode(files["responses.csv"]).slice(1), ";");
    const stored = await world()
      .db.selectFrom("patient_data")
      .select(["patient_id", "created_at", "closed_at"])
      .where("survey_id", "=", f.survey)
      .execute();
    const byPatient = new Map(stored.map((c) => [c.patient_id, c]));
    for (const r of rows) {
      const c = byPatient.get(r[0])!;
      // To the second: the CSV leaves the milliseconds out.
      expect(Date.parse(r[header.indexOf("Created")])).toBe(Math.floor(Date.parse(c.created_at) / 1000) * 1000);
      expect(Date.parse(r[header.indexOf("Closed")])).toBe(Math.floor(Date.parse(c.closed_at!) / 1000) * 1000);
    }
  });

  it("responses.csv keeps every digit of a number and every character of a text, as stored", async () => {
    const f = fixture();
    const w = world();
    const numbers = [0.1 + 0.2, 1e-7, 1 / 3, 123456789.123, -2.5e21, 5];
    const texts = ['Zitat: "so"; dann\r\nneue Zeile', "Emoji 🫀 und \\ und \t Tab", '[1,null,"x"]'];
    const caseIds = ["P1", "P2", "P3", "P4", "P5", "P6"].map((p) => f.cases[p]);
    const before = await w.db
      .selectFrom("question_responses")
      .select(["id", "numerical_response", "text_response"])
      .where("patient_data_id", "in", caseIds)
      .execute();
    onTestFinished(async () => {
      for (const r of before) {
        await w.db
          .updateTable("question_responses")
          .set({ numerical_response: r.numerical_response, text_response: r.text_response })
          .where("id", "=", r.id)
          .execute();
      }
    });
    for (const [i, caseId] of caseIds.entries()) {
      await w.db
        .updateTable("question_responses")
        .set({ numerical_response: numbers[i] })
        .where("patient_data_id", "=", caseId)
        .where("question_id", "=", f.q.weight)
        .execute();
      if (i < texts.length) {
        await w.db
          .updateTable("question_responses")
          .set({ text_response: texts[i] })
          .where("patient_data_id", "=", caseId)
          .where("question_id", "=", f.q.notes)
          .execute();
      }
    }
    const res = await w.call("approver", "POST", `/statistics/${f.survey}/csv`, {});
    const zip = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const [header, ...rows] = parseCsv(utf8.decode(zip["responses.csv"]).slice(1), ";");
    const weights = await w.db
      .selectFrom("question_responses")
      .select(["patient_data_id", "numerical_response"])
      .where("question_id", "=", f.q.weight)
      .where("patient_data_id", "in", caseIds)
      .execute();
    const stored = new Map(weights.map((r) => [r.patient_data_id, r.numerical_response]));
    for (const [i, caseId] of caseIds.entries()) {
      const row = rows.find((r) => r[0] === `P${i + 1}`)!;
      // What the database gives back for the answer, written as the CSV writes a number.
      const expected = stored.has(caseId) ? String(stored.get(caseId)).replace(".", ",") : "";
      expect(row[header.indexOf(`Q${f.q.weight}`)], `P${i + 1}`).toBe(expected);
      if (stored.has(caseId)) expect(Number(expected.replace(",", "."))).toBe(numbers[i]);
      if (i < texts.length && row[header.indexOf(`Q${f.q.notes}`)] !== "") {
        expect(row[header.indexOf(`Q${f.q.notes}`)]).toBe(texts[i]);
      }
    }
  });

  it("responses.csv follows the filters; the Open case never appears", async () => {
    const f = fixture();
    const res = await world().call("approver", "POST", `/statistics/${f.survey}/csv`, {
      PreliminaryQuestionsSelection: { [f.smoker.id]: [f.smoker.yes] },
    });
    const zip = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const rows = parseCsv(utf8.decode(zip["responses.csv"]).slice(1), ";");
    expect(rows.slice(1).map((r) => r[0])).toEqual(["P1", "P2", "P5"]);
    expect(utf8.decode(zip["responses.csv"])).not.toContain("OPEN");
  });

  it("codebook.csv names every column with its question and codes, in the caller's language", () => {
    const f = fixture();
    const text = utf8.decode(files["codebook.csv"]);
    expect(text.startsWith("\uFEFF")).toBe(true);
    const rows = parseCsv(text.slice(1), ";");
    expect(rows[0]).toEqual(["Spalte", "Frage", "Art", "Codes"]);
    const byName = Object.fromEntries(rows.slice(1).map((r) => [r[0], r]));
    expect(byName[`Q${f.q.feeling}`][1]).toBe("Wie geht es Ihnen?");
    expect(byName[`Q${f.q.feeling}`][3]).toBe("G1 = gut; G2 = mittel; G3 = schlecht");
    expect(byName[`Q${f.q.since}`][1]).toContain("Seit wann?");
    expect(byName[`Q${f.q.since}`][1]).toContain("gut");
    expect(byName[`Q${f.q.weight}`][2]).toContain("kg");
    expect(byName[`P${f.smoker.id}`][3]).toBe(`${f.smoker.yes} = ja; ${f.smoker.no} = nein`);
    expect(byName.Created.slice(1, 3)).toEqual([
      "Fall begonnen",
      "Datum und Uhrzeit in Europe/Berlin, mit Versatz zu UTC",
    ]);
    expect(byName[`Q${f.q.measured}`][2]).toBe("DateTime (Datum und Uhrzeit in Europe/Berlin, mit Versatz zu UTC)");
    expect(byName.Language.slice(1, 3)).toEqual([
      "Sprache, in der der Fall ausgefüllt wurde (ISO 639-1)",
      "Text (Sprachcode)",
    ]);
    expect(byName.Language[3]).toMatch(/^de = Deutsch; en = Englisch; tr = Türkisch; ar = Arabisch; /);
    expect(byName.Respondent.slice(1)).toEqual([
      "Wer den Fall beantwortet hat",
      "Text (Code)",
      "staff = Personal; link = Patient:in per Link; handover = Patient:in am übergebenen Gerät",
    ]);
    expect(byName.RespondentLink.slice(1)).toEqual([
      "Nummer des Links, über den die Patient:in geantwortet hat (leer, wenn nicht per Link)",
      "Zahl",
      "",
    ]);
    expect(rows).toHaveLength(1 + 7 + 4 + 15);
  });

  it("English: comma separator, decimal point and an English codebook", async () => {
    const f = fixture();
    const w = world();
    expect((await w.call("admin", "POST", "/users/current/culture?culture=en-US")).status).toBeLessThan(300);
    const res = await w.call("admin", "POST", `/statistics/${f.survey}/csv`, {});
    const zip = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const [header, ...rows] = parseCsv(utf8.decode(zip["responses.csv"]).slice(1), ",");
    expect(rows).toHaveLength(6);
    expect(rows[0][header.indexOf(`Q${f.q.weight}`)]).toBe("70.5");
    expect(rows[4][header.indexOf(`Q${f.q.notes}`)]).toBe("Übelkeit, keine Beschwerden");
    const codebook = parseCsv(utf8.decode(zip["codebook.csv"]).slice(1), ",");
    expect(codebook[0]).toEqual(["Column", "Question", "Kind", "Codes"]);
    const byName = Object.fromEntries(codebook.slice(1).map((r) => [r[0], r]));
    expect(byName.Closed.slice(1, 3)).toEqual(["Case closed", "date and time in Europe/Berlin, with offset from UTC"]);
    expect(byName[`Q${f.q.measured}`][2]).toBe("DateTime (date and time in Europe/Berlin, with offset from UTC)");
    expect(byName.Respondent[3]).toBe(
      "staff = Staff; link = The patient, by link; handover = The patient, on a handed-over device",
    );
    // Date-times are written alike in either language.
    expect(rows[0][header.indexOf(`Q${f.q.measured}`)]).toBe("2024-03-01T08:00:00+01:00");
  });
  it("a culture asked for wins over the caller's own; an unknown one is refused", async () => {
    const f = fixture();
    const w = world();
    // The editor works in German; asked in English (the page's language), the export is English.
    const res = await w.call("editor", "POST", `/statistics/${f.survey}/csv?culture=en-US`, {});
    expect(res.status).toBe(200);
    const zip = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const [header, ...rows] = parseCsv(utf8.decode(zip["responses.csv"]).slice(1), ",");
    expect(rows[0][header.indexOf(`Q${f.q.weight}`)]).toBe("70.5");
    expect(parseCsv(utf8.decode(zip["codebook.csv"]).slice(1), ",")[0][0]).toBe("Column");
    // And the other way round: the admin now works in English, asks in German.
    expect((await w.call("admin", "POST", "/users/current/culture?culture=en-US")).status).toBeLessThan(300);
    const german = await w.call("admin", "POST", `/statistics/${f.survey}/csv?culture=de-DE`, {});
    const codebook = unzipSync(new Uint8Array(await german.arrayBuffer()))["codebook.csv"];
    expect(parseCsv(utf8.decode(codebook).slice(1), ";")[0][0]).toBe("Spalte");
    const bad = await w.call("editor", "POST", `/statistics/${f.survey}/csv?culture=fr-FR`, {});
    expect(bad.status).toBe(400);
    expect((await bad.json()).Type).toBe("VALIDATION_ERROR");
  });
});
