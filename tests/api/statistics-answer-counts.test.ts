import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SurveySchema } from "~/domain/survey";
import { allQuestions, topLevelQuestions } from "~/domain/visibility";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { aggregate, kindsOf } from "~/server/services/statistics/aggregates.server";
import { foldAnswerCounts, keptCounts } from "~/server/services/statistics/answer-counts.server";
import { countsOf } from "~/server/services/statistics/passes.server";
import { forgetKeptStatistics } from "~/server/services/statistics/statistics.server";
import { dialects } from "../support/databases";
import { erase } from "./erasure-support";
import { answersOf, fillCase, read, useStatisticsWorld, type Body } from "./statistics-support";
import { payload, sync } from "./sync-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

/**
 * The kept answer counts (decision 062) equal a count over all the survey's answers after every kind of
 * write: cases filled, closed and synced, answers changed, removed and added straight in the database (one
 * row and many per statement), a case erased and one deleted; and the page's figures from them equal those
 * counted over the answers.
 */
describe.each(dialects)("kept answer counts on %s", (kind) => {
  const { world, fixture } = useStatisticsWorld(kind, () => idp);

  async function kinds() {
    const survey = SurveySchema.parse(await read(await world().call("editor", "GET", `/surveys/${fixture().survey}`)));
    return kindsOf(allQuestions(topLevelQuestions(survey.Categories)));
  }

  /** The kept counts and a count over the answers: equal, and not empty. */
  async function expectKeptEqualCounted() {
    const w = world();
    const k = await kinds();
    const counted = await countsOf(w.db, fixture().survey, k, { kind: "survey" }, false);
    const kept = await keptCounts(w.db, fixture().survey, k, { words: new Map(), files: counted.files });
    expect(kept).toEqual({ ...counted, dateEnds: new Map() });
    expect(kept.options.size).toBeGreaterThan(0);
    const notes = await w.db
      .selectFrom("answer_count_changes")
      .select("n")
      .where("survey_id", "=", fixture().survey)
      .execute();
    expect(notes).toEqual([]);
    return kept;
  }

  /** The page's figures with the kept counts and with the counts over the answers. */
  async function expectPageEqual() {
    const w = world();
    const page = async () => {
      forgetKeptStatistics();
      return (await read(await w.call("editor", "POST", `/statistics/${fixture().survey}`, {}))) as Body;
    };
    const fromKept = await page();
    const survey = SurveySchema.parse(await read(await w.call("editor", "GET", `/surveys/${fixture().survey}`)));
    const questions = allQuestions(topLevelQuestions(survey.Categories));
    const keptWay = await aggregate(w.db, fixture().survey, questions, {}, { path: "subtract" });
    const countedWay = await aggregate(w.db, fixture().survey, questions, {}, { path: "subtract", survey: "counted" });
    expect(keptWay).toEqual(countedWay);
    expect(fromKept.NumSurveyResponses).toBe(keptWay.cases);
  }

  it("equal a count over the answers as the survey is filled", async () => {
    await expectKeptEqualCounted();
    await fillCase(world(), fixture(), "AC_1", { ...answersOf.P1, close: true });
    await fillCase(world(), fixture(), "AC_2", { ...answersOf.P3, close: false });
    await expectKeptEqualCounted();
    await expectPageEqual();
  });

  it("follow a sync that creates a case and one that overwrites it", async () => {
    const w = world();
    const f = fixture();
    const first = await payload(w.db, f.survey, "AC_SYNC", {
      QuestionAnswers: [
        { QuestionId: f.q.feeling, AnswerOptionId: f.o.gut },
        { QuestionId: f.q.complaints, AnswerOptionIds: [f.o.atemnot, f.o.husten] },
        { QuestionId: f.q.weight, NumericalResponse: 64.5 },
        { QuestionId: f.q.measured, DateTimeResponse: "02.03.2024 07:45" },
        { QuestionId: f.q.notes, TextResponse: "Husten am Morgen" },
      ],
    });
    expect((await sync(w, f.survey, first, { who: "editor" })).status).toBe(200);
    await expectKeptEqualCounted();
    const again = {
      ...first,
      Overwrite: true,
      Close: true,
      QuestionAnswers: [
        { QuestionId: f.q.feeling, AnswerOptionId: f.o.schlecht },
        { QuestionId: f.q.complaints, AnswerOptionIds: [f.o.husten] },
      ],
    };
    expect((await sync(w, f.survey, again, { who: "editor" })).status).toBe(200);
    await expectKeptEqualCounted();
  });

  it("follow answers changed, removed and added straight in the database", async () => {
    const w = world();
    const f = fixture();
    const survey = f.survey;
    // Every number and date-time of the survey in one statement each.
    await sql`update question_responses set numerical_response = numerical_response + 0.25
      where survey_id = ${survey} and numerical_response is not null`.execute(w.db);
    await sql`update question_responses set date_time_response = '2023-12-31T23:59'
      where survey_id = ${survey} and date_time_response is not null and id % 2 = 0`.execute(w.db);
    // One chosen option of a multiple choice moved to another, and one taken away (a case keeps others or none).
    const chosen = await w.db
      .selectFrom("question_responses")
      .select(["id", "patient_data_id"])
      .where("survey_id", "=", survey)
      .where("question_id", "=", f.q.complaints)
      .orderBy("id")
      .execute();
    expect(chosen.length).toBeGreaterThan(1);
    await w.db.deleteFrom("question_responses").where("id", "=", chosen[0].id).execute();
    const { rows } = await sql<{ id: number }>`select id from question_responses where survey_id = ${survey}
      and question_id = ${f.q.complaints} and patient_data_id = ${chosen[chosen.length - 1].patient_data_id}`.execute(
      w.db,
    );
    await w.db
      .deleteFrom("question_responses")
      .where(
        "id",
        "in",
        rows.map((r) => r.id),
      )
      .execute();
    // A free text emptied, and a whole question's answers removed in one statement.
    await sql`update question_responses set text_response = null where id = (select min(id) from question_responses
      where survey_id = ${survey} and text_response is not null)`.execute(w.db);
    await expectKeptEqualCounted();
    await w.db
      .deleteFrom("question_responses")
      .where("survey_id", "=", survey)
      .where("question_id", "=", f.q.since)
      .execute();
    // Answers added to every case in one statement (a case's first option row of the question and, for the
    // case that already chose it, a second).
    await sql`insert into question_responses (survey_id, patient_data_id, question_id, answer_option_id)
      select ${survey}, id, ${f.q.complaints}, ${f.o.fieber} from patient_data where survey_id = ${survey}
      and not exists (select 1 from question_responses q where q.patient_data_id = patient_data.id
        and q.question_id = ${f.q.complaints} and q.answer_option_id = ${f.o.fieber})`.execute(w.db);
    await expectKeptEqualCounted();
    await expectPageEqual();
  });

  it("follow an erasure and a case deleted", async () => {
    const w = world();
    const f = fixture();
    expect((await erase(w, f.survey, "P2")).status).toBeLessThan(300);
    await expectKeptEqualCounted();
    await w.db.deleteFrom("patient_data").where("id", "=", f.cases.P4).execute();
    const kept = await expectKeptEqualCounted();
    // Folded twice: nothing more to add.
    await foldAnswerCounts(w.db, f.survey);
    expect(await expectKeptEqualCounted()).toEqual(kept);
    await expectPageEqual();
  });

  it("go with their survey", async () => {
    const w = world();
    const f = fixture();
    await w.db.deleteFrom("surveys").where("id", "=", f.survey).execute();
    for (const table of ["answer_counts", "answer_count_changes"] as const) {
      const left = await w.db.selectFrom(table).select("n").where("survey_id", "=", f.survey).execute();
      expect(left, table).toEqual([]);
    }
  });
});
