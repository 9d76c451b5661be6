import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StatisticsFilters } from "~/domain/statistics";
import { SurveySchema } from "~/domain/survey";
import { allQuestions, topLevelQuestions } from "~/domain/visibility";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { aggregate } from "~/server/services/statistics/aggregates.server";
import { dialects } from "../support/databases";
import { teamId } from "../support/surveys";
import { read, useStatisticsWorld, type Body } from "./statistics-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

/**
 * The two ways of computing the figures (all of the survey's rows less the cases that do not count, and
 * case by case) give the same figures for the same cases: with no filter (the Open case dropped), filters
 * that keep many cases and filters that keep few, over choices, multiple choices, numbers, date-times,
 * free texts (word cloud and latest answers) and files.
 */
describe.each(dialects)("statistics computed both ways on %s", (kind) => {
  const { world, fixture } = useStatisticsWorld(kind, () => idp);

  async function bothWays(filters: StatisticsFilters) {
    const w = world();
    const survey = SurveySchema.parse(await read(await w.call("editor", "GET", `/surveys/${fixture().survey}`)));
    const questions = allQuestions(topLevelQuestions(survey.Categories));
    const subtracted = await aggregate(w.db, fixture().survey, questions, filters, { path: "subtract" });
    const byCase = await aggregate(w.db, fixture().survey, questions, filters, { path: "cases" });
    return { subtracted, byCase };
  }

  it("gives the same figures for every filter", async () => {
    const f = fixture();
    const station = await teamId(world().db, "Station 3A");
    const filterSets: StatisticsFilters[] = [
      {},
      { TeamIdsFilter: [station] },
      { PatientIds: ["P1"] },
      { PatientIds: ["P1", "P2", "P3", "P4", "P5"] },
      { PreliminaryQuestionsSelection: { [f.smoker.id]: [f.smoker.yes] } },
      { StartDateTime: "01.01.2020", EndDateTime: "31.12.2099" },
      { PatientIds: ["NONE"] },
      { PatientIds: ["P2", "P3", "P4", "P6"] },
    ];
    for (const filters of filterSets) {
      const { subtracted, byCase } = await bothWays(filters);
      expect(subtracted, JSON.stringify(filters)).toEqual(byCase);
    }
    const all = await bothWays({});
    expect(all.byCase.cases).toBe(6);
    expect(all.byCase.numbers.get(f.q.weight)?.size).toBeGreaterThan(0);
    expect(all.byCase.dates.get(f.q.measured)?.size).toBeGreaterThan(0);
    expect(all.byCase.words.get(f.q.notes)?.size).toBeGreaterThan(0);
    expect(all.byCase.latestTexts.get(f.q.notes)?.length).toBeGreaterThan(0);
    expect([...all.byCase.files.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it("reads the date-times' ends over the cases that remain when the earliest and latest are taken away", async () => {
    // P1 answered the earliest date-time and P5 the latest; four of seven cases still count, so the
    // figures are the survey's less those of P1, P5 and the Open case.
    const { subtracted, byCase } = await bothWays({ PatientIds: ["P2", "P3", "P4", "P6"] });
    const measured = fixture().q.measured;
    for (const figures of [subtracted, byCase]) {
      expect(figures.dateEnds.get(measured)).toEqual({ first: "2024-03-01T20:30", last: "2024-03-15T12:00" });
      expect(figures.dates.get(measured)).toEqual(
        new Map([
          ["2024-03-01", 1],
          ["2024-03-15", 1],
        ]),
      );
      expect(figures.dateSeconds.get(measured)).toBe(
        (Date.parse("2024-03-01T20:30Z") + Date.parse("2024-03-15T12:00Z")) / 1000,
      );
    }
    const body: Body = await read(
      await world().call("editor", "POST", `/statistics/${fixture().survey}`, { PatientIds: ["P2", "P3", "P4", "P6"] }),
    );
    const q = body.CategoryStatistics.flatMap((c: Body) => c.QuestionStatistics).find(
      (x: Body) => x.QuestionId === measured,
    );
    expect(q.CountedValuesStatistics).toMatchObject({ Min: "2024-03-01T20:30", Max: "2024-03-15T12:00" });
    expect(q.CountedValuesStatistics.Average).toBe("2024-03-08T16:15");
  });

  it("leaves the word clouds out when asked, and nothing else", async () => {
    const w = world();
    const full: Body = await read(await w.call("editor", "POST", `/statistics/${fixture().survey}`, {}));
    const lean: Body = await read(
      await w.call("editor", "POST", `/statistics/${fixture().survey}?wordCloud=false`, {}),
    );
    const clouds = (s: Body) =>
      s.CategoryStatistics.flatMap((c: Body) => c.QuestionStatistics).map((q: Body) => q.WordCloud.length);
    expect(clouds(full).some((n: number) => n > 0)).toBe(true);
    expect(clouds(lean).every((n: number) => n === 0)).toBe(true);
    const strip = (s: Body) => JSON.parse(JSON.stringify(s, (key, value) => (key === "WordCloud" ? [] : value)));
    expect(strip(lean)).toEqual(strip(full));
  });
});
