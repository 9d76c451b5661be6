import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { forgetKeptStatistics, statisticsRuns } from "~/server/services/statistics/statistics.server";
import { dialects } from "../support/databases";
import { answersOf, fillCase, read, useStatisticsWorld, type Body } from "./statistics-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

/**
 * Figures of a survey that has not changed are the kept ones; every write that changes what the statistics
 * count (through the API, or straight into the database as another copy of the server or an operator
 * would) gives figures equal to a fresh run. The oracle is a run with nothing kept.
 */
describe.each(dialects)("statistics kept per survey and request on %s", (kind) => {
  const { world, fixture } = useStatisticsWorld(kind, () => idp);
  const statistics = (body: unknown = {}) =>
    world()
      .call("editor", "POST", `/statistics/${fixture().survey}`, body)
      .then((res) => read(res) as Promise<Body>);

  /** The figures now, and a fresh run's: they must be equal. */
  async function afterWrite(before: Body, filters: unknown = {}) {
    const now = await statistics(filters);
    forgetKeptStatistics();
    const fresh = await statistics(filters);
    expect(now).toEqual(fresh);
    expect(now).not.toEqual(before);
    return now;
  }

  it("answers an unchanged survey from the kept figures, equal to a fresh run", async () => {
    forgetKeptStatistics();
    const first = await statistics();
    const runs = { ...statisticsRuns };
    const again = await statistics();
    expect(statisticsRuns.computed).toBe(runs.computed);
    expect(statisticsRuns.kept).toBe(runs.kept + 1);
    expect(again).toEqual(first);
    // Another filter set is its own entry.
    const filtered = await statistics({ PatientIds: ["P1"] });
    expect(statisticsRuns.computed).toBe(runs.computed + 1);
    expect(filtered.NumSurveyResponses).toBeLessThan(first.NumSurveyResponses);
  });

  it("gives fresh figures after each write that changes what is counted", async () => {
    const w = world();
    const f = fixture();
    let before = await statistics();
    const closed = await w.db
      .selectFrom("patient_data")
      .select(["id"])
      .where("survey_id", "=", f.survey)
      .where("state", "=", "Closed")
      .orderBy("id")
      .execute();

    // A case filled and closed through the API.
    await fillCase(w, f, "KEPT_1", { ...answersOf.P1, close: true });
    before = await afterWrite(before);

    // An answer of a closed case changed in the database.
    await sql`update question_responses set numerical_response = 199 where patient_data_id = ${closed[0].id}
      and numerical_response is not null`.execute(w.db);
    before = await afterWrite(before);

    // A closed case reopened, then one deleted.
    await w.db.updateTable("patient_data").set({ state: "Open" }).where("id", "=", closed[1].id).execute();
    before = await afterWrite(before);
    await w.db.deleteFrom("patient_data").where("id", "=", closed[2].id).execute();
    await afterWrite(before);

    // A preliminary answer of a closed case changed, under a filter on it.
    const filter = { PreliminaryQuestionsSelection: { [f.smoker.id]: [f.smoker.yes] } };
    const filtered = await statistics(filter);
    const smoker = await w.db
      .selectFrom("attribute_responses")
      .select(["id", "answer_option_id"])
      .where("patient_data_id", "=", closed[0].id)
      .where("attribute_id", "=", f.smoker.id)
      .executeTakeFirstOrThrow();
    await w.db
      .updateTable("attribute_responses")
      .set({ answer_option_id: smoker.answer_option_id === f.smoker.yes ? f.smoker.no : f.smoker.yes })
      .where("id", "=", smoker.id)
      .execute();
    await afterWrite(filtered, filter);
  });

  it("keeps nothing for a survey without a counter, so no write can be missed", async () => {
    const w = world();
    const f = fixture();
    await w.db.deleteFrom("statistics_versions").where("survey_id", "=", f.survey).execute();
    try {
      const first = await statistics();
      const runs = { ...statisticsRuns };
      expect(await statistics()).toEqual(first);
      expect(statisticsRuns.computed).toBe(runs.computed + 1);
      expect(statisticsRuns.kept).toBe(runs.kept);
    } finally {
      await w.db.insertInto("statistics_versions").values({ survey_id: f.survey }).execute();
    }
  });

  it("keeps the figures while only open cases are answered", async () => {
    const w = world();
    const f = fixture();
    const before = await statistics();
    const runs = { ...statisticsRuns };
    await fillCase(w, f, "KEPT_OPEN", { ...answersOf.P2, close: false });
    const after = await statistics();
    expect(after).toEqual(before);
    expect(statisticsRuns.computed).toBe(runs.computed);
  });
});
