import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { dialects } from "../support/databases";
import { useStatisticsWorld } from "./statistics-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

/** Parses CSV as spreadsheets write it: quoted fields with doubled quotes, CRLF line ends. */
function parseCsv(text: string, sep: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === sep) {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** Keeps the byte-order mark (a plain TextDecoder drops it). */
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

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

  it("is a zip named after the sanitised title with responses.csv and codebook.csv", () => {
    // "Statistik: Herz & Kreislauf" without the colon
    expect(disposition).toContain("Statistik_ Herz & Kreislauf.zip");
    expect(Object.keys(files).sort()).toEqual(["codebook.csv", "responses.csv"]);
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
    for (const r of rows) {
      expect(r).toHaveLength(header.length);
      expect(r[1]).toBe("Closed");
      expect(Number.isNaN(Date.parse(r[2]))).toBe(false);
      expect(Number.isNaN(Date.parse(r[3]))).toBe(false);
    }
    const o = f.o;
    expect(rows[0].slice(4)).toEqual([
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
      "01.03.2024 08:00",
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

  it("a case's line is kept once written and written anew when its answers or the survey's layout change", async () => {
    const f = fixture();
    const w = world();
    const exportCsv = async (who: "approver" | "editor" = "approver") => {
      const res = await w.call(who, "POST", `/statistics/${f.survey}/csv`, {});
      expect(res.status).toBe(200);
      return utf8.decode(unzipSync(new Uint8Array(await res.arrayBuffer()))["responses.csv"]);
    };
    const first = await exportCsv();
    const kept = await w.db
      .selectFrom("case_export_rows as k")
      .innerJoin("patient_data as pd", "pd.id", "k.patient_data_id")
      .select(["pd.patient_id", "k.line", "k.answers_version", "pd.answers_version as current"])
      .where("pd.survey_id", "=", f.survey)
      .execute();
    expect(kept.map((k) => k.patient_id).sort()).toEqual(["P1", "P2", "P3", "P4", "P5", "P6"]);
    for (const k of kept) {
      expect(Number(k.answers_version)).toBe(Number(k.current));
      expect(first).toContain(k.line);
    }
    // The same export from the kept lines, byte for byte.
    expect(await exportCsv()).toBe(first);

    // A kept line is what the export writes (changed here behind its back, its version left as it was)...
    const p2 = kept.find((k) => k.patient_id === "P2")!;
    const marked = `KEPT${p2.line}`;
    await w.db
      .updateTable("case_export_rows")
      .set({ line: marked })
      .where("patient_data_id", "=", f.cases.P2)
      .execute();
    expect(await exportCsv()).toContain(`;${marked}`);
    // ...but for the case's own cells, written each time (a case closed again keeps no old time).
    const closedAt = "2026-01-02T03:04:05.000Z";
    const { closed_at } = await w.db
      .selectFrom("patient_data")
      .select("closed_at")
      .where("id", "=", f.cases.P2)
      .executeTakeFirstOrThrow();
    onTestFinished(async () => {
      await w.db.updateTable("patient_data").set({ closed_at }).where("id", "=", f.cases.P2).execute();
    });
    await w.db.updateTable("patient_data").set({ closed_at: closedAt }).where("id", "=", f.cases.P2).execute();
    expect(await exportCsv()).toContain(`;${closedAt};${marked}`);
    // ...until the case's answers change, by any path: then it is written from the answers again.
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
      .set({ numerical_response: 81.25 })
      .where("id", "=", weight.id)
      .execute();
    const changed = await exportCsv();
    expect(changed).not.toContain("KEPT");
    const rowOf = (csv: string, patientId: string) => {
      const [header, ...rows] = parseCsv(csv.slice(1), ";");
      const row = rows.find((r) => r[0] === patientId)!;
      return (column: string) => row[header.indexOf(column)];
    };
    expect(rowOf(changed, "P2")(`Q${f.q.weight}`)).toBe("81,25");

    // A preliminary answer changed straight in the database, too.
    const before = rowOf(changed, "P1")(`P${f.smoker.id}_code`);
    await w.db
      .updateTable("attribute_responses")
      .set({ answer_option_id: f.smoker.no })
      .where("patient_data_id", "=", f.cases.P1)
      .where("attribute_id", "=", f.smoker.id)
      .execute();
    onTestFinished(async () => {
      await w.db
        .updateTable("attribute_responses")
        .set({ answer_option_id: f.smoker.yes })
        .where("patient_data_id", "=", f.cases.P1)
        .where("attribute_id", "=", f.smoker.id)
        .execute();
    });
    expect(rowOf(await exportCsv(), "P1")(`P${f.smoker.id}_code`)).not.toBe(before);

    // An option's text changed (the survey's layout): every line that shows it is written anew.
    const gut = await w.db
      .selectFrom("answer_options")
      .select(["id", "text"])
      .where("id", "=", f.o.gut)
      .executeTakeFirstOrThrow();
    onTestFinished(async () => {
      await w.db.updateTable("answer_options").set({ text: gut.text }).where("id", "=", gut.id).execute();
      await touch();
    });
    await w.db.updateTable("answer_options").set({ text: "Sehr gut" }).where("id", "=", gut.id).execute();
    // As an edit does, the survey's modification time moves with its content.
    const touch = () =>
      w.db.updateTable("surveys").set({ updated_at: new Date().toISOString() }).where("id", "=", f.survey).execute();
    await touch();
    expect(rowOf(await exportCsv(), "P1")(`Q${f.q.feeling}`)).toBe("Sehr gut");

    // In English (comma, decimal point) no German line is used, and the German lines hold afterwards.
    expect((await w.call("admin", "POST", "/users/current/culture?culture=en-US")).status).toBeLessThan(300);
    onTestFinished(async () => {
      await w.call("admin", "POST", "/users/current/culture?culture=de-DE");
    });
    const english = await w.call("admin", "POST", `/statistics/${f.survey}/csv`, {});
    const [header, ...rows] = parseCsv(
      utf8.decode(unzipSync(new Uint8Array(await english.arrayBuffer()))["responses.csv"]).slice(1),
      ",",
    );
    expect(rows.find((r) => r[0] === "P2")![header.indexOf(`Q${f.q.weight}`)]).toBe("81.25");
    const german = await exportCsv();
    expect(german).toContain("81,25");
    expect(german.split("\r\n")[1]).toContain(";");
  });

  it("many cases, some kept and some changed: every case once, in order, whatever the rounds", async () => {
    const f = fixture();
    const w = world();
    const now = new Date().toISOString();
    const cases = await w.db
      .insertInto("patient_data")
      .values(
        Array.from({ length: 1300 }, (_, i) => ({
          survey_id: f.survey,
          patient_id: `M${String(i).padStart(4, "0")}`,
          state: "Closed" as const,
          closed_at: now,
        })),
      )
      .returning("id")
      .execute();
    onTestFinished(async () => {
      await w.db
        .deleteFrom("patient_data")
        .where("patient_id", "like", "M%")
        .where("survey_id", "=", f.survey)
        .execute();
    });
    await w.db
      .insertInto("question_responses")
      .values(
        cases.map((c, i) => ({
          survey_id: f.survey,
          patient_data_id: c.id,
          question_id: f.q.weight,
          numerical_response: i,
        })),
      )
      .execute();
    const exportRows = async () => {
      const res = await w.call("approver", "POST", `/statistics/${f.survey}/csv`, {});
      const [header, ...rows] = parseCsv(
        utf8.decode(unzipSync(new Uint8Array(await res.arrayBuffer()))["responses.csv"]).slice(1),
        ";",
      );
      return rows.map((r) => `${r[0]}=${r[header.indexOf(`Q${f.q.weight}`)]}`);
    };
    const expected = [
      ...["P1", "P2", "P3", "P4", "P5", "P6"].map((p) => expect.stringMatching(new RegExp(`^${p}=`))),
      ...cases.map((_, i) => `M${String(i).padStart(4, "0")}=${i}`),
    ];
    // Every line written, then every line kept (rounds of 1,000), then kept rounds broken by changed cases.
    expect(await exportRows()).toEqual(expected);
    expect(await exportRows()).toEqual(expected);
    for (const i of [3, 450, 1001, 1299]) {
      await w.db
        .updateTable("question_responses")
        .set({ numerical_response: i + 0.5 })
        .where("patient_data_id", "=", cases[i].id)
        .execute();
      expected[6 + i] = `M${String(i).padStart(4, "0")}=${i},5`;
    }
    expect(await exportRows()).toEqual(expected);
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
    expect(rows).toHaveLength(1 + 4 + 4 + 15);
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
    expect(parseCsv(utf8.decode(zip["codebook.csv"]).slice(1), ",")[0]).toEqual([
      "Column",
      "Question",
      "Kind",
      "Codes",
    ]);
  });
});
