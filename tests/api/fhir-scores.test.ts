import { readFileSync } from "node:fs";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseTotal } from "~/domain/scores";
import { SurveySchema } from "~/domain/survey";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { dialects } from "../support/databases";
import { expectValidR4 } from "../support/fhir-validator";
import { openLhcForms, type LhcForms } from "../support/lforms";
import { useFillWorld, type FillWorld } from "./fill-support";
import { fillCase, parseCsv, read, useStatisticsWorld, utf8, type Body } from "./statistics-support";
import { items } from "./fhir-items";

/**
 * A survey's total score through FHIR (docs/decisions/040-fhir.md): PHQ-9 imported, filled through the API and
 * counted, its totals in the statistics and the export the sums of the chosen answers' ordinal values, and the
 * same totals calculated by LHC-Forms (tests/support/lforms.ts) from the exported Questionnaire and each
 * case's exported QuestionnaireResponse; a survey of the product's own (scores on a multiple choice and a
 * sub-question, a test question's weights apart) totalled alike there, its hints shown there as help, and its
 * scores, test weights, hints and codes kept by export, import and export.
 */

let idp: TestIdp;
let lforms: LhcForms;
beforeAll(async () => {
  [idp, lforms] = await Promise.all([createTestIdp(), openLhcForms()]);
}, 120_000);
afterAll(async () => {
  await Promise.all([idp.dispose(), lforms?.close()]);
});

const ORDINAL = "http://hl7.org/fhir/StructureDefinition/ordinalValue";
const phq9 = JSON.parse(readFileSync(join(import.meta.dirname, "fhir-questionnaires", "phq9.json"), "utf8")) as Body;

/** The answer of the total's item in a response, or undefined when it has none. */
const totalIn = (response: Body) => items(response).find((i) => i.linkId === "score")?.answer;

async function ok(res: Response) {
  const text = await res.text();
  expect(res.status, text).toBeLessThan(300);
  return text;
}

/**
 * PHQ-9's cases: per patient, the option (0 to 3, the file's order) chosen for each of the nine problems (null:
 * skipped) and for the difficulty question. One case skips a question, one answers only the difficulty
 * question (nothing scored: no total), one scores 0 on everything (0 is a total).
 */
const CASES: Record<string, { problems: (number | null)[]; difficulty: number | null }> = {
  A: { problems: [0, 1, 2, 3, 0, 1, 2, 3, 0], difficulty: 1 },
  B: { problems: [3, 3, 3, 3, 3, 3, 3, 3, 3], difficulty: 3 },
  C: { problems: [0, 0, 0, 0, 0, 0, 0, 0, 0], difficulty: 0 },
  D: { problems: [1, 2, null, 1, 2, 1, null, 3, 1], difficulty: null },
  E: { problems: [null, null, null, null, null, null, null, null, null], difficulty: 2 },
  F: { problems: [null, null, null, null, 2, null, null, null, null], difficulty: null },
};

/** A case's total as the file defines it: the sum of the chosen answers' ordinal values, none without one. */
function expectedTotal(problems: (number | null)[]): number | null {
  const scored = phq9.item.filter((i: Body) => i.answerOption?.[0].extension?.some((e: Body) => e.url === ORDINAL));
  const values = problems.flatMap((n, q) =>
    n === null ? [] : [scored[q].answerOption[n].extension.find((e: Body) => e.url === ORDINAL).valueDecimal],
  );
  return values.length === 0 ? null : values.reduce((a: number, b: number) => a + b, 0);
}

describe.each(dialects)("PHQ-9 imported, filled and totalled on %s", (kind) => {
  let survey: Body;
  const world = useFillWorld(
    kind,
    () => idp,
    async (w: FillWorld) => {
      const made = await read(await w.call("editor", "POST", "/surveys/fhir-import", phq9), 201);
      await ok(await w.call("approver", "POST", `/surveys/${made.SurveyId}/approve`));
      survey = await read(await w.call("editor", "GET", `/surveys/${made.SurveyId}`));
      const questions: Body[] = survey.Categories[0].Questions;
      const base = (patientId: string) => ({ PatientId: patientId, SurveyId: survey.Id });
      for (const [patientId, { problems, difficulty }] of Object.entries(CASES)) {
        await ok(await w.call("user", "POST", `/patients/add?patientId=${patientId}&surveyId=${survey.Id}`));
        const chosen = [...problems, difficulty];
        for (const [q, n] of chosen.entries()) {
          if (n === null) continue;
          const question = questions[q];
          await ok(
            await w.call("user", "POST", "/question-responses/single-selection", {
              ...base(patientId),
              QuestionId: question.Id,
              AnswerOptionId: question.AnswerOptions[n].Id,
            }),
          );
        }
        await ok(await w.call("user", "POST", `/patients/close?patientId=${patientId}&surveyId=${survey.Id}`));
      }
    },
  );

  const expected = Object.fromEntries(Object.entries(CASES).map(([id, c]) => [id, expectedTotal(c.problems)]));

  it("the cases' totals are worked out from the file", () => {
    expect(expected).toEqual({ A: 12, B: 27, C: 0, D: 11, E: null, F: 2 });
    expect(survey.ScoreTitle).toBe("Patient health questionnaire 9 item total score");
  });

  it("the statistics' total block and the export's column hold each case's sum of ordinal values", async () => {
    const w = world();
    const total = async (PatientIds?: string[]) =>
      (await read(await w.call("editor", "POST", `/statistics/${survey.Id}?wordCloud=false`, { PatientIds })))
        .ScoreTotal;
    const totals = Object.values(expected).filter((t): t is number => t !== null);
    expect(await total()).toMatchObject({
      Title: survey.ScoreTitle,
      Cases: totals.length,
      Min: Math.min(...totals),
      Max: Math.max(...totals),
    });
    for (const [patientId, sum] of Object.entries(expected)) {
      const one = await total([patientId]);
      expect(one, patientId).toMatchObject(sum === null ? { Cases: 0, Mean: null } : { Cases: 1, Mean: sum });
    }
    const res = await w.call("editor", "POST", `/statistics/${survey.Id}/csv?culture=en-US`, {});
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const [header, ...rows] = parseCsv(utf8.decode(files["responses.csv"]).slice(1), ",");
    expect(header.at(-1)).toBe(survey.ScoreTitle);
    expect(Object.fromEntries(rows.map((r) => [r[0], r.at(-1)]))).toEqual(
      Object.fromEntries(Object.entries(expected).map(([id, sum]) => [id, sum === null ? "" : String(sum)])),
    );
  });

  it("LHC-Forms calculates the same totals from the exported Questionnaire and responses", async () => {
    const w = world();
    const q = await read(await w.call("editor", "GET", `/surveys/${survey.Id}/fhir/questionnaire`));
    expectValidR4(q);
    for (const [patientId, sum] of Object.entries(expected)) {
      const path = `/surveys/${survey.Id}/fhir/questionnaire-response?patientId=${patientId}`;
      const response = await read(await w.call("editor", "GET", path));
      expectValidR4(response);
      const carried = sum === null ? undefined : [{ valueDecimal: sum }];
      // The response carries the total the product counted; LHC-Forms calculates it anew.
      expect(totalIn(response), patientId).toEqual(carried);
      const held = await lforms.render(q, response);
      expect(totalIn(held.response), patientId).toEqual(carried);
    }
    expect(lforms.errors()).toEqual([]);
  });
});

describe.each(dialects)("a survey of the product's own with a total, through FHIR, on %s", (kind) => {
  const { world, fixture } = useStatisticsWorld(kind, () => idp);
  const LOINC = "http://loinc.org";

  /**
   * Scores on the fixture's answers (set as an editor does: unpublished, edited, published again): Wie geht es
   * Ihnen? gut 0, mittel 1, schlecht 2.5; its sub-question Seit wann? Tage 0.25; the multiple choice
   * Beschwerden Husten 1, Fieber 0.1, Atemnot 0.2; the test question Ruhepuls (weights 2 on "60 bis 100") 60
   * bis 100: 1, 120 bis 160: 0; the test question Zeichen (weights 3 and 1) no scores. Hints, codes and a
   * code system on questions, a category and answers; the total's codes in the instrument. A case with
   * only "weiß nicht" has no total.
   */
  beforeAll(async () => {
    const w = world();
    const f = fixture();
    await ok(await w.call("approver", "PUT", `/surveys/${f.survey}/change-status?newStatusId=1`));
    const scores: Record<string, number> = {
      gut: 0,
      mittel: 1,
      schlecht: 2.5,
      tage: 0.25,
      husten: 1,
      fieber: 0.1,
      atemnot: 0.2,
      p60: 1,
      p120: 0,
    };
    for (const [key, Score] of Object.entries(scores)) {
      const System = key === "gut" ? LOINC : undefined;
      await ok(await w.call("editor", "PUT", `/answer-options/${f.o[key]}`, { SurveyId: f.survey, Score, System }));
    }
    await ok(
      await w.call("editor", "PUT", `/questions/${f.q.feeling}`, {
        Hint: "Denken Sie an die letzten zwei Wochen.",
        Codes: [{ System: LOINC, Code: "44250-9", Display: null }],
      }),
    );
    await ok(await w.call("editor", "PUT", `/questions/${f.q.since}`, { Hint: "Ungefähr genügt." }));
    await ok(
      await w.call("editor", "PUT", `/categories/${f.categories.befinden}`, {
        SurveyId: f.survey,
        Title: "Befinden",
        Codes: [{ System: LOINC, Code: "44249-1", Display: "PHQ-9" }],
      }),
    );
    await ok(
      await w.call("editor", "PUT", `/surveys/${f.survey}`, {
        ScoreTitle: "Belastung",
        Instrument: {
          Name: "Belastung",
          Identifier: [],
          Date: "2026-11-29",
          SubjectType: ["Patient"],
          Codes: [],
          Copyright: null,
          ScoreCodes: [{ System: LOINC, Code: "44261-6", Display: "Total score" }],
        },
      }),
    );
    await ok(await w.call("approver", "POST", `/surveys/${f.survey}/approve`));
    await fillCase(w, f, "P7", { who: "user", smoker: "no", sex: "male", pulse: "pUnknown", close: true });
  });

  const surveyOf = async (id: number) =>
    SurveySchema.parse(await read(await world().call("editor", "GET", `/surveys/${id}`)));

  /** Each case's total as the product computes it (caseTotal), from its chosen answers. */
  async function productTotals(surveyId: number): Promise<Map<string, number | null>> {
    const survey = await surveyOf(surveyId);
    const rows = await world()
      .db.selectFrom("patient_data as p")
      .leftJoin("question_responses as r", "r.patient_data_id", "p.id")
      .select(["p.patient_id", "r.answer_option_id"])
      .where("p.survey_id", "=", surveyId)
      .execute();
    const chosen = new Map<string, number[]>();
    for (const r of rows) {
      const list = chosen.get(r.patient_id) ?? [];
      if (r.answer_option_id !== null) list.push(r.answer_option_id);
      chosen.set(r.patient_id, list);
    }
    return new Map([...chosen].map(([id, options]) => [id, caseTotal(survey, options)]));
  }

  it("LHC-Forms totals each case as caseTotal does: a multiple choice, a sub-question, no test weights", async () => {
    const f = fixture();
    const w = world();
    const totals = await productTotals(f.survey);
    // By hand: P1 gut 0 + Tage 0.25 + Husten 1 + Fieber 0.1 + 60 bis 100: 1; P3 mittel 1 + Husten 1 + Fieber
    // 0.1 + Atemnot 0.2 + 120 bis 160: 0 (a sum binary floating point makes 2.3000000000000003); P7 none.
    expect([totals.get("P1"), totals.get("P3"), totals.get("P7")]).toEqual([2.35, 2.3, null]);
    const q = await read(await w.call("editor", "GET", `/surveys/${f.survey}/fhir/questionnaire`));
    expectValidR4(q);
    const total = q.item.at(-1);
    expect(total).toMatchObject({
      linkId: "score",
      text: "Belastung",
      type: "decimal",
      readOnly: true,
      code: [{ system: LOINC, code: "44261-6", display: "Total score" }],
    });
    // The hints are LHC-Forms' help texts of their questions, not items of their own.
    const shown = await lforms.render(q);
    expect([shown.help[`Q${f.q.feeling}`], shown.help[`Q${f.q.since}`]]).toEqual([
      "Denken Sie an die letzten zwei Wochen.",
      "Ungefähr genügt.",
    ]);
    expect(shown.shown).not.toContain(`Q${f.q.feeling}.hint`);
    expect(totals.size).toBe(8);
    for (const [patientId, sum] of totals) {
      const path = `/surveys/${f.survey}/fhir/questionnaire-response?patientId=${patientId}`;
      const response = await read(await w.call("editor", "GET", path));
      expectValidR4(response);
      const carried = sum === null ? undefined : [{ valueDecimal: sum }];
      expect(totalIn(response), patientId).toEqual(carried);
      const held = await lforms.render(q, response);
      expect(totalIn(held.response), patientId).toEqual(carried);
    }
    expect(lforms.errors()).toEqual([]);
  });

  it("export, import, export keeps scores, test weights, hints, codes and the total", async () => {
    const f = fixture();
    const w = world();
    const kept = (survey: Awaited<ReturnType<typeof surveyOf>>) => ({
      ScoreTitle: survey.ScoreTitle,
      Instrument: survey.Instrument,
      Categories: survey.Categories.map((c) => ({
        Codes: c.Codes,
        Questions: c.Questions.map(function question(q): Body {
          return {
            Title: q.Title,
            IsTestQuestion: q.IsTestQuestion,
            Hint: q.Hint,
            Codes: q.Codes,
            Options: q.AnswerOptions.map((o) => ({
              Score: o.Score,
              System: o.System,
              Weight: o.Weight,
              WeightingState: o.WeightingState,
              Sub: o.SubQuestions.map(question),
            })),
          };
        }),
      })),
    });
    const first = await read(await w.call("editor", "GET", `/surveys/${f.survey}/fhir/questionnaire`));
    const made = await read(await w.call("editor", "POST", "/surveys/fhir-import", first), 201);
    expect(made.NotKept).toEqual([]);
    const original = await surveyOf(f.survey);
    const copy = await surveyOf(made.SurveyId);
    expect(kept(copy)).toEqual(kept(original));
    // What the comparison covers is there to compare.
    const all = kept(original).Categories.flatMap((c) => c.Questions);
    expect(all.find((q) => q.Title === "Wie geht es Ihnen?")).toMatchObject({
      Hint: "Denken Sie an die letzten zwei Wochen.",
      Codes: [{ System: LOINC, Code: "44250-9", Display: null }],
    });
    expect(all.find((q) => q.Title === "Normaler Ruhepuls?")).toMatchObject({
      IsTestQuestion: true,
      Options: [
        { Score: 1, Weight: 2, WeightingState: 1 },
        { Score: 0, Weight: null, WeightingState: 0 },
        { Score: null, Weight: null, WeightingState: 2 },
      ],
    });
    const second = await read(await w.call("editor", "GET", `/surveys/${made.SurveyId}/fhir/questionnaire`));
    expectValidR4(second);
    // The same total: its expression differs only by the questions' linkIds.
    const linkIdsOf = (q: Body) =>
      items(q)
        .filter((i) => /^Q\d+$/.test(i.linkId))
        .map((i) => i.linkId);
    const renamed = new Map(linkIdsOf(first).map((id, n) => [id, linkIdsOf(second)[n]]));
    const expressionOf = (q: Body) => JSON.stringify(q.item.at(-1).extension);
    expect(expressionOf(first).replace(/'(Q\d+)'/g, (_, id: string) => `'${renamed.get(id)}'`)).toBe(
      expressionOf(second),
    );
  });
});
