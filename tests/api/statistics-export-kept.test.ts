import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { dialects } from "../support/databases";
import { addClosedCases } from "./closed-cases";
import { parseCsv, useStatisticsWorld, utf8 } from "./statistics-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

/**
 * The export keeps each case's line once written and uses it while the case's answers version and the
 * survey's layout hold (docs/decisions/031-export-rows.md). The oracle is the export written from the
 * answers: after every kind of change the kept lines must give the same.
 */
describe.each(dialects)("the export's kept lines on %s", (kind) => {
  const { world, fixture } = useStatisticsWorld(kind, () => idp);

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
      await w.db
        .updateTable("patient_data")
        .set({ closed_at, language: null, respondent: null, respondent_link_id: null })
        .where("id", "=", f.cases.P2)
        .execute();
    });
    // The case's language and who answered it are its own cells too (docs/decisions/056-statistics-languages.md,
    // 057-patient-links.md).
    await w.db
      .updateTable("patient_data")
      .set({ closed_at: closedAt, language: "tr", respondent: "link", respondent_link_id: 12 })
      .where("id", "=", f.cases.P2)
      .execute();
    // (The CSV writes it in the clinic's zone, Europe/Berlin: 03:04:05 UTC is 04:04:05 winter time.)
    expect(await exportCsv()).toContain(`;2026-01-02T04:04:05+01:00;tr;link;12;${marked}`);
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

    // In English (comma, decimal point) the kept lines are given with commas, and the German export after it
    // is German again.
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
    const cases = await addClosedCases(w, f.survey, f.q.weight, "M", 1300);
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
});
