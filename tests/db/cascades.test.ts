import { expect, it } from "vitest";
import { isForeignKeyViolation } from "~/server/db/db.server";
import type { DB } from "~/server/db/types.server";
import { describeEachDialect, useTestDb } from "../support/databases";
import { seedSurvey, surveyOwnedTables, type SeededSurvey } from "./fixtures";

async function countBySurvey(db: DB, surveyId: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of surveyOwnedTables) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("survey_id", "=", surveyId)
      .executeTakeFirstOrThrow();
    counts[table] = row.n;
  }
  return counts;
}

async function refusal(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected the delete to be refused");
}

describeEachDialect("cascading deletes", (kind) => {
  const db = useTestDb(kind);

  it("deleting a survey removes everything under it and nothing else", async () => {
    const doomed = await seedSurvey(db());
    const kept = await seedSurvey(db());
    const clone = await db()
      .insertInto("surveys")
      .values({ title: "Clone", source_survey_id: doomed.surveyId })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db()
      .insertInto("audit_log")
      .values({
        action: "survey.delete",
        entity: "survey",
        survey_id: doomed.surveyId,
        entity_id: String(doomed.surveyId),
      })
      .execute();
    const keptBefore = await countBySurvey(db(), kept.surveyId);

    await db().deleteFrom("surveys").where("id", "=", doomed.surveyId).execute();

    const left = await countBySurvey(db(), doomed.surveyId);
    expect(Object.values(left).every((n) => n === 0)).toBe(true);
    expect(await db().selectFrom("charts").selectAll().where("id", "=", doomed.chartId).execute()).toEqual([]);
    const dependences = await db()
      .selectFrom("question_dependence_options")
      .selectAll()
      .where("question_id", "=", doomed.numericQuestionId)
      .execute();
    expect(dependences).toEqual([]);
    expect(await countBySurvey(db(), kept.surveyId)).toEqual(keptBefore);
    const cloneRow = await db().selectFrom("surveys").selectAll().where("id", "=", clone.id).executeTakeFirstOrThrow();
    expect(cloneRow.source_survey_id).toBeNull();
    // People, teams, tags and the audit trail stay.
    expect(await db().selectFrom("users").select("id").where("id", "=", doomed.userId).execute()).toHaveLength(1);
    expect(await db().selectFrom("teams").select("id").where("id", "=", doomed.teamId).execute()).toHaveLength(1);
    expect(await db().selectFrom("tags").select("id").where("id", "=", doomed.tagId).execute()).toHaveLength(1);
    const trail = await db().selectFrom("audit_log").selectAll().where("survey_id", "=", doomed.surveyId).execute();
    expect(trail).toHaveLength(1);
  });

  it("deleting a case removes its responses, attachments and sync receipts", async () => {
    const s = await seedSurvey(db());
    await db().deleteFrom("patient_data").where("id", "=", s.patientDataId).execute();
    for (const table of ["question_responses", "attribute_responses", "file_attachments", "sync_requests"] as const) {
      const rows = await db()
        .selectFrom(table)
        .select("survey_id")
        .where("patient_data_id", "=", s.patientDataId)
        .execute();
      expect(rows, table).toEqual([]);
    }
    expect(await db().selectFrom("questions").select("id").where("survey_id", "=", s.surveyId).execute()).toHaveLength(
      3,
    );
  });

  it("questions, options and preliminary questions with recorded answers cannot be deleted", async () => {
    const s = await seedSurvey(db());
    const attempts = [
      () => db().deleteFrom("questions").where("id", "=", s.numericQuestionId).execute(),
      () => db().deleteFrom("answer_options").where("id", "=", s.optionIds[0]).execute(),
      () => db().deleteFrom("categories").where("id", "=", s.categoryId).execute(),
      () => db().deleteFrom("patient_form_attributes").where("id", "=", s.attributeId).execute(),
      () => db().deleteFrom("patient_form_answer_options").where("id", "=", s.attributeOptionId).execute(),
    ];
    for (const attempt of attempts) expect(isForeignKeyViolation(await refusal(attempt))).toBe(true);
    const responses = await db()
      .selectFrom("question_responses")
      .select("id")
      .where("survey_id", "=", s.surveyId)
      .execute();
    expect(responses).toHaveLength(3);
  });

  it("without answers, deleting an answer option removes its sub-question tree; charts lose the question", async () => {
    const s = await seedSurvey(db());
    await removeRecordedData(db(), s);
    const deeper = await db()
      .insertInto("answer_options")
      .values({ survey_id: s.surveyId, question_id: s.subQuestionId, text: "more than 20" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const subSub = await db()
      .insertInto("questions")
      .values({ survey_id: s.surveyId, category_id: s.categoryId, parent_answer_option_id: deeper.id, type: 5 })
      .returning("id")
      .executeTakeFirstOrThrow();

    await db().deleteFrom("answer_options").where("id", "=", s.optionIds[0]).execute();

    const questions = await db()
      .selectFrom("questions")
      .select("id")
      .where("survey_id", "=", s.surveyId)
      .orderBy("id")
      .execute();
    expect(questions.map((q) => q.id)).toEqual([s.singleQuestionId, s.numericQuestionId]);
    expect(await db().selectFrom("answer_options").select("id").where("id", "=", deeper.id).execute()).toEqual([]);
    expect(await db().selectFrom("questions").select("id").where("id", "=", subSub.id).execute()).toEqual([]);
    const chart = await db().selectFrom("charts").selectAll().where("id", "=", s.chartId).executeTakeFirstOrThrow();
    expect(chart).toMatchObject({ question_id1: null, question_id2: s.numericQuestionId, attribute_id: s.attributeId });
  });

  it("without answers, deleting a category or preliminary question removes what hangs under it", async () => {
    const s = await seedSurvey(db());
    await removeRecordedData(db(), s);
    await db().deleteFrom("patient_form_attributes").where("id", "=", s.attributeId).execute();
    expect(
      await db()
        .selectFrom("patient_form_answer_options")
        .select("id")
        .where("attribute_id", "=", s.attributeId)
        .execute(),
    ).toEqual([]);
    const dependences = await db()
      .selectFrom("question_dependence_options")
      .selectAll()
      .where("patient_form_answer_option_id", "=", s.attributeOptionId)
      .execute();
    expect(dependences).toEqual([]);
    const chart = await db().selectFrom("charts").selectAll().where("id", "=", s.chartId).executeTakeFirstOrThrow();
    expect(chart.attribute_id).toBeNull();

    await db().deleteFrom("categories").where("id", "=", s.categoryId).execute();
    expect(await db().selectFrom("questions").select("id").where("survey_id", "=", s.surveyId).execute()).toEqual([]);
    expect(await db().selectFrom("answer_options").select("id").where("survey_id", "=", s.surveyId).execute()).toEqual(
      [],
    );
  });

  it("deleting a user, team or tag removes memberships and keeps the records they touched", async () => {
    const s = await seedSurvey(db());
    await db().deleteFrom("users").where("id", "=", s.userId).execute();
    expect(await db().selectFrom("user_teams").selectAll().where("user_id", "=", s.userId).execute()).toEqual([]);
    const survey = await db().selectFrom("surveys").selectAll().where("id", "=", s.surveyId).executeTakeFirstOrThrow();
    expect(survey.created_by_user_id).toBeNull();
    const patient = await db()
      .selectFrom("patient_data")
      .selectAll()
      .where("id", "=", s.patientDataId)
      .executeTakeFirstOrThrow();
    expect(patient.created_by_user_id).toBeNull();
    const file = await db()
      .selectFrom("file_attachments")
      .selectAll()
      .where("survey_id", "=", s.surveyId)
      .executeTakeFirstOrThrow();
    expect(file.uploaded_by_user_id).toBeNull();

    await db().deleteFrom("teams").where("id", "=", s.teamId).execute();
    expect(
      await db().selectFrom("survey_team_permissions").selectAll().where("team_id", "=", s.teamId).execute(),
    ).toEqual([]);
    const after = await db()
      .selectFrom("patient_data")
      .selectAll()
      .where("id", "=", s.patientDataId)
      .executeTakeFirstOrThrow();
    expect(after.team_id).toBeNull();

    await db().deleteFrom("tags").where("id", "=", s.tagId).execute();
    expect(await db().selectFrom("survey_tags").selectAll().where("survey_id", "=", s.surveyId).execute()).toEqual([]);
  });
});

async function removeRecordedData(db: DB, s: SeededSurvey) {
  await db.deleteFrom("patient_data").where("id", "=", s.patientDataId).execute();
}
