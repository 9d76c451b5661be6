import { sql } from "kysely";
import { expect, it } from "vitest";
import { describeEachDialect, useTestDb } from "../support/databases";
import { seedSurvey } from "./fixtures";

describeEachDialect("values", (kind) => {
  const db = useTestDb(kind);

  it("values of every kind come back identically", async () => {
    const s = await seedSurvey(db());
    const text = "Schmerzen seit 3 Tagen – „stechend“ 🙁\nzweite Zeile; ' \" \\";
    const stamp = "2026-02-28T23:59:59.999Z";
    const inserted = await db()
      .insertInto("question_responses")
      .values([
        {
          survey_id: s.surveyId,
          patient_data_id: s.patientDataId,
          question_id: s.singleQuestionId,
          answer_option_id: s.optionIds[1],
        },
      ])
      .returning("id")
      .execute();
    const patient2 = await db()
      .insertInto("patient_data")
      .values({
        survey_id: s.surveyId,
        patient_id: "123456789012",
        state: "Closed",
        closed_at: stamp,
        created_at: stamp,
        modified_at: stamp,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(patient2).toMatchObject({ state: "Closed", closed_at: stamp, created_at: stamp, modified_at: stamp });
    await db()
      .insertInto("question_responses")
      .values([
        {
          survey_id: s.surveyId,
          patient_data_id: patient2.id,
          question_id: s.numericQuestionId,
          numerical_response: 0.1 + 0.2,
        },
        {
          survey_id: s.surveyId,
          patient_data_id: patient2.id,
          question_id: s.subQuestionId,
          numerical_response: -1e-7,
        },
        {
          survey_id: s.surveyId,
          patient_data_id: patient2.id,
          question_id: s.singleQuestionId,
          text_response: text,
          date_time_response: stamp,
        },
      ])
      .execute();
    const rows = await db()
      .selectFrom("question_responses")
      .select(["numerical_response", "text_response", "date_time_response"])
      .where("patient_data_id", "=", patient2.id)
      .orderBy("id")
      .execute();
    expect(rows.map((r) => r.numerical_response)).toEqual([0.1 + 0.2, -1e-7, null]);
    expect(rows[2]).toEqual({ numerical_response: null, text_response: text, date_time_response: stamp });
    expect(inserted).toHaveLength(1);

    // Aggregates are plain numbers on both databases.
    const agg = await db()
      .selectFrom("question_responses")
      .select((eb) => [
        eb.fn.countAll<number>().as("n"),
        eb.fn.count<number>("answer_option_id").as("options"),
        eb.fn.sum<number>("id").as("ids"),
        eb.fn.avg<number>("numerical_response").as("avg"),
        eb.fn.min<number>("numerical_response").as("min"),
        eb.fn.max<number>("numerical_response").as("max"),
      ])
      .where("survey_id", "=", s.surveyId)
      .executeTakeFirstOrThrow();
    expect(agg.n).toBe(7);
    expect(agg.options).toBe(2);
    expect(typeof agg.ids).toBe("number");
    expect(agg.avg).toBeCloseTo((12 + 71.5 + 0.3 - 1e-7) / 4, 10);
    expect(agg.min).toBe(-1e-7);
    expect(agg.max).toBe(71.5);
    const counted = await sql<{
      n: number;
    }>`select count(*) as n from patient_data where survey_id = ${s.surveyId}`.execute(db());
    expect(counted.rows[0].n).toBe(2);
  });

  it("ill-typed values are refused, not silently stored", async () => {
    const s = await seedSurvey(db());
    await expect(
      sql`insert into question_responses (survey_id, patient_data_id, question_id, numerical_response)
          values (${s.surveyId}, ${s.patientDataId}, ${s.numericQuestionId}, ${"a lot"})`.execute(db()),
    ).rejects.toThrow();
    await expect(
      db()
        .insertInto("teams")
        .values({ name: "X", disabled: "yes" as unknown as number })
        .execute(),
    ).rejects.toThrow();
  });
});
