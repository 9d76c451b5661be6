import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseTotal, optionScoreUnits, scoreUnits } from "~/domain/scores";
import type { ScoreTotalStatistics, StatisticsFilters } from "~/domain/statistics";
import { SurveySchema } from "~/domain/survey";
import { allQuestions, topLevelQuestions } from "~/domain/visibility";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { aggregate } from "~/server/services/statistics/aggregates.server";
import { forgetKeptStatistics } from "~/server/services/statistics/statistics.server";
import { dialects } from "../support/databases";
import { fillCase, parseCsv, read, useStatisticsWorld, utf8 } from "./statistics-support";

/**
 * A survey's total score of a scored instrument (docs/decisions/051-instrument-scores.md) in the statistics
 * (under filters, both ways of computing them) and in the export; its fields through the API are in
 * instrument-scores.test.ts.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe.each(dialects)("a survey's total score in the statistics and the export on %s", (kind) => {
  const { world, fixture } = useStatisticsWorld(kind, () => idp);
  const total = async (filters: StatisticsFilters = {}): Promise<ScoreTotalStatistics | null> =>
    (await read(await world().call("editor", "POST", `/statistics/${fixture().survey}?wordCloud=false`, filters)))
      .ScoreTotal;

  /**
   * Scores on the fixture's answers, set as an editor does: unpublished, edited, published again. By hand:
   * Wie geht es Ihnen? gut 0, mittel 1, schlecht 2.5; its sub-question Seit wann? Tage 0.25 (Wochen none);
   * Beschwerden Husten 1, Fieber 0.5, Atemnot 2; Ruhepuls 60 bis 100: 1, 120 bis 160: 0 (weiß nicht none).
   * Totals: P1 0 + 0.25 + 1 + 0.5 + 1 = 2.75; P2 0 + 1 + 1 = 2; P3 1 + 1 + 0.5 + 2 + 0 = 4.5; P4 2.5 + 1 = 3.5;
   * P5 0 + 0.25 + 0.5 = 0.75; P6 1 + 1 = 2; P7 (only "weiß nicht") none; OPEN is not counted.
   */
  beforeAll(async () => {
    const w = world();
    const f = fixture();
    const ok = async (res: Response) => expect(res.status, await res.text()).toBeLessThan(300);
    expect(await total()).toBeNull();
    await ok(await w.call("approver", "PUT", `/surveys/${f.survey}/change-status?newStatusId=1`));
    const scores: Record<string, number> = {
      gut: 0,
      mittel: 1,
      schlecht: 2.5,
      tage: 0.25,
      husten: 1,
      fieber: 0.5,
      atemnot: 2,
      p60: 1,
      p120: 0,
    };
    for (const [key, Score] of Object.entries(scores)) {
      await ok(await w.call("editor", "PUT", `/answer-options/${f.o[key]}`, { SurveyId: f.survey, Score }));
    }
    await ok(await w.call("editor", "PUT", `/surveys/${f.survey}`, { ScoreTitle: "Belastung" }));
    await ok(await w.call("approver", "POST", `/surveys/${f.survey}/approve`));
    await fillCase(w, f, "P7", { who: "user", smoker: "no", sex: "male", pulse: "pUnknown", close: true });
  });

  it("counts the cases with a total, their mean, median, minimum, maximum and distribution", async () => {
    expect(await total()).toEqual({
      Title: "Belastung",
      Cases: 6,
      // (2.75 + 2 + 4.5 + 3.5 + 0.75 + 2) / 6 = 2.5833…
      Mean: 2.58,
      Median: 2.375,
      Min: 0.75,
      Max: 4.5,
      Distribution: [
        { From: 0.75, To: 0.75, Count: 1 },
        { From: 2, To: 2, Count: 2 },
        { From: 2.75, To: 2.75, Count: 1 },
        { From: 3.5, To: 3.5, Count: 1 },
        { From: 4.5, To: 4.5, Count: 1 },
      ],
    });
  });

  it("follows the filters", async () => {
    const f = fixture();
    // Smokers: P1, P2, P5.
    expect(await total({ PreliminaryQuestionsSelection: { [f.smoker.id]: [f.smoker.yes] } })).toMatchObject({
      Cases: 3,
      Mean: 1.83,
      Median: 2,
      Min: 0.75,
      Max: 2.75,
    });
    // P7 counts but has no total.
    expect(await total({ PatientIds: ["P3", "P4", "P7"] })).toMatchObject({
      Cases: 2,
      Mean: 4,
      Median: 4,
      Min: 3.5,
      Max: 4.5,
    });
    expect(await total({ PatientIds: ["P7"] })).toEqual({
      Title: "Belastung",
      Cases: 0,
      Mean: null,
      Median: null,
      Min: null,
      Max: null,
      Distribution: [],
    });
  });

  it("are the same figures both ways of computing them", async () => {
    const w = world();
    const f = fixture();
    const survey = SurveySchema.parse(await read(await w.call("editor", "GET", `/surveys/${f.survey}`)));
    const questions = allQuestions(topLevelQuestions(survey.Categories));
    const scores = optionScoreUnits(survey);
    const filterSets: StatisticsFilters[] = [
      {},
      { PatientIds: ["P1"] },
      { PatientIds: ["P1", "P2", "P3", "P4", "P5", "P7"] },
      { PreliminaryQuestionsSelection: { [f.smoker.id]: [f.smoker.no] } },
    ];
    for (const filters of filterSets) {
      const subtracted = await aggregate(w.db, f.survey, questions, filters, { path: "subtract", scores });
      const byCase = await aggregate(w.db, f.survey, questions, filters, { path: "cases", scores });
      expect(subtracted.totals, JSON.stringify(filters)).toEqual(byCase.totals);
    }
    const all = await aggregate(w.db, f.survey, questions, {}, { path: "cases", scores });
    expect([...all.totals].sort((a, b) => a[0] - b[0])).toEqual([
      [7500, 1],
      [20000, 2],
      [27500, 1],
      [35000, 1],
      [45000, 1],
    ]);
  });

  it("keeps each case's total as the domain's caseTotal adds it up, and adds up again what changed", async () => {
    const w = world();
    const f = fixture();
    const survey = SurveySchema.parse(await read(await w.call("editor", "GET", `/surveys/${f.survey}`)));
    await total();
    const kept = async () =>
      new Map(
        (
          await w.db
            .selectFrom("case_totals as t")
            .innerJoin("patient_data as pd", "pd.id", "t.patient_data_id")
            .select(["pd.patient_id", "t.units", "t.answers_version", "pd.answers_version as now"])
            .where("pd.survey_id", "=", f.survey)
            .execute()
        ).map((r) => [r.patient_id, r]),
      );
    const chosen = async (caseId: number) =>
      (
        await w.db
          .selectFrom("question_responses")
          .select("answer_option_id")
          .where("patient_data_id", "=", caseId)
          .where("answer_option_id", "is not", null)
          .execute()
      ).map((r) => r.answer_option_id!);
    // Every counted case is kept, with the answers version it was added up from; the Open case is not.
    const rows = await kept();
    expect([...rows.keys()].sort()).toEqual(["P1", "P2", "P3", "P4", "P5", "P6", "P7"]);
    for (const [patientId, caseId] of Object.entries(f.cases)) {
      if (patientId === "OPEN") continue;
      const expected = caseTotal(survey, await chosen(caseId));
      expect(rows.get(patientId)!.units, patientId).toBe(expected === null ? null : scoreUnits(expected));
      expect(Number(rows.get(patientId)!.answers_version)).toBe(Number(rows.get(patientId)!.now));
    }
    expect(rows.get("P7")!.units).toBeNull();

    // An answer of a closed case changed behind the app's back (its version moves by trigger): P2's
    // "gut" (0) becomes "mittel" (1), and only P2 is added up again.
    await w.db
      .updateTable("question_responses")
      .set({ answer_option_id: f.o.mittel })
      .where("patient_data_id", "=", f.cases.P2)
      .where("question_id", "=", f.q.feeling)
      .execute();
    await w.db
      .deleteFrom("question_responses")
      .where("patient_data_id", "=", f.cases.P2)
      .where("question_id", "=", f.q.since)
      .execute();
    await w.db.updateTable("case_totals").set({ units: -1 }).where("patient_data_id", "=", f.cases.P1).execute();
    const after = await total();
    // P1's kept row was tampered with but is current: the figures read it (nothing adds up P1 again).
    expect(after!.Min).toBe(-0.0001);
    expect((await kept()).get("P2")!.units).toBe(30_000);
    // Without its kept row (and the figures kept in memory forgotten), P1 is added up again.
    await w.db.deleteFrom("case_totals").where("patient_data_id", "=", f.cases.P1).execute();
    forgetKeptStatistics();
    expect(await total()).toMatchObject({ Cases: 6, Min: 0.75, Max: 4.5 });
    expect((await kept()).get("P1")!.units).toBe(27_500);
  });

  it("the export: a last column headed by the title, a number in the culture's way, named by the codebook", async () => {
    const f = fixture();
    const exported = async (culture: string) => {
      const res = await world().call("editor", "POST", `/statistics/${f.survey}/csv?culture=${culture}`, {});
      expect(res.status).toBe(200);
      return unzipSync(new Uint8Array(await res.arrayBuffer()));
    };
    const de = await exported("de-DE");
    const [header, ...rows] = parseCsv(utf8.decode(de["responses.csv"]).slice(1), ";");
    expect(header.at(-1)).toBe("Belastung");
    const byPatient = new Map(rows.map((r) => [r[0], r.at(-1)]));
    // P2 answers "mittel" since the test before.
    expect(Object.fromEntries(byPatient)).toEqual({
      P1: "2,75",
      P2: "3",
      P3: "4,5",
      P4: "3,5",
      P5: "0,75",
      P6: "2",
      P7: "",
    });
    const codebook = parseCsv(utf8.decode(de["codebook.csv"]).slice(1), ";");
    expect(codebook.at(-1)!.slice(0, 3)).toEqual([
      "Belastung",
      "Belastung",
      expect.stringContaining("Summe der Punktwerte") as string,
    ]);
    const variables = parseCsv(utf8.decode(de["codebook-variables.csv"]).slice(1), ";");
    expect(variables.at(-1)!.slice(0, 4)).toEqual(["Total", "Belastung", "Zahl", "Belastung"]);
    expect(utf8.decode(de["responses.R"])).toContain('responses[["Total"]] <- x');
    expect(utf8.decode(de["responses.sps"])).toMatch(/NUMERIC Total \(F8\.0\)\./);
    expect(utf8.decode(de["responses.do"])).toMatch(/generate double Total = real\(/);

    const en = await exported("en-US");
    const [enHeader, ...enRows] = parseCsv(utf8.decode(en["responses.csv"]).slice(1), ",");
    expect(enHeader.at(-1)).toBe("Belastung");
    expect(enRows.find((r) => r[0] === "P1")!.at(-1)).toBe("2.75");
  });

  it("a changed score writes the kept lines anew", async () => {
    const w = world();
    const f = fixture();
    const line = async () => {
      const res = await w.call("editor", "POST", `/statistics/${f.survey}/csv?culture=de-DE`, {});
      const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
      return parseCsv(utf8.decode(files["responses.csv"]).slice(1), ";")
        .find((r) => r[0] === "P4")!
        .at(-1);
    };
    expect(await line()).toBe("3,5");
    await w.call("approver", "PUT", `/surveys/${f.survey}/change-status?newStatusId=1`);
    const changed = await w.call("editor", "PUT", `/answer-options/${f.o.schlecht}`, { SurveyId: f.survey, Score: 3 });
    expect(changed.status).toBe(200);
    expect(await line()).toBe("4");
    expect((await total())!.Max).toBe(4.5);
    expect((await total({ PatientIds: ["P4"] }))!.Mean).toBe(4);
  });
});
