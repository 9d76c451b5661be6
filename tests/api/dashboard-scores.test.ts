import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Chart, Dashboard } from "~/domain/dashboards";
import { quantile } from "~/domain/dashboards";
import type { StatisticsFilters } from "~/domain/statistics";
import { SurveySchema } from "~/domain/survey";
import { allQuestions } from "~/domain/visibility";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { countedCases } from "~/server/services/statistics/cases.server";
import { maxScore } from "~/server/services/statistics/figures.server";
import { dialects } from "../support/databases";
import { teamId } from "../support/surveys";
import { read, useStatisticsWorld } from "./statistics-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

const base = "/statistics-dashboards";
const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The score charts of a dashboard (individual scores, scores over time, score plot per preliminary answer,
 * category scores) read their per-case scores and answer counts in passes shared by the whole dashboard.
 * Here they are checked against scores worked out straight from the answer rows, for a weighted single
 * choice and a weighted multiple choice test question, with no filter and with filters that drop cases.
 */
describe.each(dialects)("dashboard score charts on %s", (kind) => {
  const { world, fixture } = useStatisticsWorld(kind, () => idp);

  async function expected(filters: StatisticsFilters) {
    const w = world();
    const f = fixture();
    const cases = await w.db
      .selectFrom("patient_data")
      .select(["id", "patient_id", "closed_at"])
      .where("id", "in", countedCases(w.db, f.survey, filters))
      .orderBy("closed_at")
      .orderBy("id")
      .execute();
    const ids = cases.map((c) => c.id);
    const rows = ids.length
      ? await w.db
          .selectFrom("question_responses as qr")
          .innerJoin("answer_options as ao", "ao.id", "qr.answer_option_id")
          .select(["qr.patient_data_id", "qr.question_id", "ao.weighting_state", "ao.weight"])
          .where("qr.patient_data_id", "in", ids)
          .where("qr.question_id", "in", [f.q.pulse, f.q.symptoms])
          .execute()
      : [];
    const score = new Map<number, number>();
    const perQuestion = new Map<number, { sum: number; cases: Set<number> }>();
    for (const r of rows) {
      const weight = r.weighting_state === 1 ? Number(r.weight ?? 1) : 0;
      score.set(r.patient_data_id, (score.get(r.patient_data_id) ?? 0) + weight);
      const q = perQuestion.get(r.question_id) ?? { sum: 0, cases: new Set<number>() };
      q.sum += weight;
      q.cases.add(r.patient_data_id);
      perQuestion.set(r.question_id, q);
    }
    const prelims = ids.length
      ? await w.db
          .selectFrom("attribute_responses")
          .select(["patient_data_id", "answer_option_id"])
          .where("attribute_id", "=", f.smoker.id)
          .where("patient_data_id", "in", ids)
          .execute()
      : [];
    return { cases, score, perQuestion, prelims };
  }

  it("match scores worked out from the answer rows, with and without filters", async () => {
    const w = world();
    const f = fixture();
    const dashboard = await read(
      await w.call("editor", "POST", `${base}/get-by-survey-id/${f.survey}`, { Filters: {} }),
    );
    const added: Dashboard = await read(
      await w.call("editor", "POST", `${base}/${dashboard.Id}/charts/add`, {
        ChartAddRequests: [
          { ChartType: "IndividualSurveyScores" },
          { ChartType: "ScoreResultsOverTime" },
          { ChartType: "ScorePlotPerPreQuestion" },
          { ChartType: "CategoryWithActualAndMaxScores" },
        ],
      }),
    );
    const plot = added.Charts.find((c) => c.ChartType === "ScorePlotPerPreQuestion")!;
    await read(
      await w.call("editor", "POST", `${base}/${dashboard.Id}/charts/update/${plot.Id}`, { AttributeId: f.smoker.id }),
    );
    const survey = SurveySchema.parse(await read(await w.call("editor", "GET", `/surveys/${f.survey}`)));
    const station = await teamId(w.db, "Station 3A");
    const filterSets: StatisticsFilters[] = [
      {},
      { TeamIdsFilter: [station] },
      { PatientIds: ["P1", "P2", "P3"] },
      { PreliminaryQuestionsSelection: { [f.smoker.id]: [f.smoker.yes] } },
      { PatientIds: ["NONE"] },
    ];
    let scoredSomewhere = false;
    for (const filters of filterSets) {
      const where = JSON.stringify(filters);
      const d: Dashboard = await read(
        await w.call("editor", "POST", `${base}/get-by-survey-id/${f.survey}`, { Filters: filters }),
      );
      const chart = (type: string) => d.Charts.find((c: Chart) => c.ChartType === type)!;
      const e = await expected(filters);
      const scoreOf = (id: number) => e.score.get(id) ?? 0;
      if (e.cases.some((c) => scoreOf(c.id) > 0)) scoredSomewhere = true;

      expect(
        chart("IndividualSurveyScores").SurveyScoresByDates.map((s) => [s.PatientId, s.Score]),
        where,
      ).toEqual(e.cases.map((c) => [c.patient_id, scoreOf(c.id)]));

      const days = new Map<string, number[]>();
      for (const c of e.cases) {
        const day = (c.closed_at ?? "").slice(0, 10);
        days.set(day, [...(days.get(day) ?? []), scoreOf(c.id)]);
      }
      expect(
        chart("ScoreResultsOverTime").AverageScoresByDates.map((s) => [s.Date, s.Count, s.AverageScore]),
        where,
      ).toEqual(
        [...days].map(([day, list]) => [day, list.length, round2(list.reduce((a, b) => a + b, 0) / list.length)]),
      );

      const byOption = new Map<number, number[]>();
      for (const p of e.prelims)
        byOption.set(p.answer_option_id, [...(byOption.get(p.answer_option_id) ?? []), scoreOf(p.patient_data_id)]);
      for (const o of chart("ScorePlotPerPreQuestion").ScorePlotByPreQuestionOptions) {
        const list = (byOption.get(o.OptionId) ?? []).sort((a, b) => a - b);
        const median = quantile(list, 0.5);
        expect([o.OptionId, o.Count, o.Median], where).toEqual([
          o.OptionId,
          list.length,
          median === null ? null : round2(median),
        ]);
      }

      const categories = survey.Categories.flatMap((c) => {
        const tests = allQuestions(c.Questions).filter((q) => q.IsTestQuestion && maxScore(q) > 0);
        if (tests.length === 0) return [];
        const done = tests.filter((q) => (e.perQuestion.get(q.Id)?.cases.size ?? 0) > 0);
        const actual = done.reduce((a, q) => a + e.perQuestion.get(q.Id)!.sum / e.perQuestion.get(q.Id)!.cases.size, 0);
        return [[c.Id, round2(actual)]];
      });
      expect(
        chart("CategoryWithActualAndMaxScores").CategoryScores.map((c) => [c.CategoryId, c.ActualScore]),
        where,
      ).toEqual(categories);
    }
    expect(scoredSomewhere).toBe(true);
  });
});
