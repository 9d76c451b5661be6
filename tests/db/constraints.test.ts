import { sql } from "kysely";
import { expect, it } from "vitest";
import { isForeignKeyViolation, isUniqueViolation } from "~/server/db/db.server";
import { describeEachDialect, useTestDb } from "../support/databases";
import { seedSurvey } from "./fixtures";

/** Runs a statement and resolves to the error it is refused with (fails when it succeeds). */
async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected the statement to be refused");
}

describeEachDialect("constraints", (kind) => {
  const db = useTestDb(kind);

  it("foreign keys refuse rows whose parent does not exist", async () => {
    const s = await seedSurvey(db());
    const missing = 999_999;
    const attempts = [
      () => db().insertInto("categories").values({ survey_id: missing, title: "x" }).execute(),
      () => db().insertInto("questions").values({ survey_id: s.surveyId, category_id: missing, type: 1 }).execute(),
      () => db().insertInto("user_teams").values({ user_id: s.userId, team_id: missing }).execute(),
      () => db().insertInto("patient_data").values({ survey_id: missing, patient_id: "P1" }).execute(),
      () =>
        db()
          .insertInto("question_responses")
          .values({ survey_id: s.surveyId, patient_data_id: s.patientDataId, question_id: missing })
          .execute(),
    ];
    for (const attempt of attempts) expect(isForeignKeyViolation(await failure(attempt))).toBe(true);
  });

  it("a response can only name a question and an option of its own survey", async () => {
    const a = await seedSurvey(db());
    const b = await seedSurvey(db());
    const foreignQuestion = () =>
      db()
        .insertInto("question_responses")
        .values({
          survey_id: a.surveyId,
          patient_data_id: a.patientDataId,
          question_id: b.numericQuestionId,
          numerical_response: 1,
        })
        .execute();
    expect(isForeignKeyViolation(await failure(foreignQuestion))).toBe(true);
    // An option of another question of the same survey.
    const otherQuestionsOption = () =>
      db()
        .insertInto("question_responses")
        .values({
          survey_id: a.surveyId,
          patient_data_id: a.patientDataId,
          question_id: a.numericQuestionId,
          answer_option_id: a.optionIds[1],
        })
        .execute();
    expect(isForeignKeyViolation(await failure(otherQuestionsOption))).toBe(true);
    const newCase = await db()
      .insertInto("patient_data")
      .values({ survey_id: a.surveyId, patient_id: "P_other" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const foreignAttributeOption = () =>
      db()
        .insertInto("attribute_responses")
        .values({
          survey_id: a.surveyId,
          patient_data_id: newCase.id,
          attribute_id: a.attributeId,
          answer_option_id: b.attributeOptionId,
        })
        .execute();
    expect(isForeignKeyViolation(await failure(foreignAttributeOption))).toBe(true);
  });

  it("unique keys refuse duplicates", async () => {
    const s = await seedSurvey(db());
    const user = await db().selectFrom("users").selectAll().where("id", "=", s.userId).executeTakeFirstOrThrow();
    const team = await db().selectFrom("teams").selectAll().where("id", "=", s.teamId).executeTakeFirstOrThrow();
    const tag = await db().selectFrom("tags").selectAll().where("id", "=", s.tagId).executeTakeFirstOrThrow();
    const patient = await db()
      .selectFrom("patient_data")
      .selectAll()
      .where("id", "=", s.patientDataId)
      .executeTakeFirstOrThrow();
    const duplicates = [
      () => db().insertInto("users").values({ sub: user.sub, full_name: "Someone Else" }).execute(),
      () => db().insertInto("teams").values({ name: team.name }).execute(),
      () => db().insertInto("tags").values({ name: tag.name }).execute(),
      () => db().insertInto("user_teams").values({ user_id: s.userId, team_id: s.teamId }).execute(),
      () => db().insertInto("survey_tags").values({ survey_id: s.surveyId, tag_id: s.tagId }).execute(),
      () =>
        db()
          .insertInto("survey_team_permissions")
          .values({ survey_id: s.surveyId, team_id: s.teamId, kind: "user" })
          .execute(),
      () => db().insertInto("patient_forms").values({ survey_id: s.surveyId }).execute(),
      () => db().insertInto("dashboards").values({ survey_id: s.surveyId }).execute(),
      () => db().insertInto("patient_data").values({ survey_id: s.surveyId, patient_id: patient.patient_id }).execute(),
      () =>
        db()
          .insertInto("attribute_responses")
          .values({
            survey_id: s.surveyId,
            patient_data_id: s.patientDataId,
            attribute_id: s.attributeId,
            answer_option_id: s.attributeOptionId,
          })
          .execute(),
      () =>
        db()
          .insertInto("file_attachments")
          .values({
            survey_id: s.surveyId,
            patient_data_id: s.patientDataId,
            question_id: s.singleQuestionId,
            file_name: "scan.pdf",
            file_extension: ".pdf",
            content_type: "application/pdf",
            size: 1,
            storage_key: "other",
          })
          .execute(),
      // The same option twice, and a second value for a question without options.
      () =>
        db()
          .insertInto("question_responses")
          .values({
            survey_id: s.surveyId,
            patient_data_id: s.patientDataId,
            question_id: s.singleQuestionId,
            answer_option_id: s.optionIds[0],
          })
          .execute(),
      () =>
        db()
          .insertInto("question_responses")
          .values({
            survey_id: s.surveyId,
            patient_data_id: s.patientDataId,
            question_id: s.numericQuestionId,
            numerical_response: 80,
          })
          .execute(),
    ];
    for (const attempt of duplicates) expect(isUniqueViolation(await failure(attempt))).toBe(true);
    const receipt = await db()
      .selectFrom("sync_requests")
      .selectAll()
      .where("survey_id", "=", s.surveyId)
      .executeTakeFirstOrThrow();
    const again = () =>
      db()
        .insertInto("sync_requests")
        .values({ ...receipt, id: undefined, created_at: undefined })
        .execute();
    expect(isUniqueViolation(await failure(again))).toBe(true);

    // Different options of one multiple selection are separate rows; a second team permission kind is fine.
    await db()
      .insertInto("question_responses")
      .values({
        survey_id: s.surveyId,
        patient_data_id: s.patientDataId,
        question_id: s.singleQuestionId,
        answer_option_id: s.optionIds[1],
      })
      .execute();
    await db()
      .insertInto("survey_team_permissions")
      .values({ survey_id: s.surveyId, team_id: s.teamId, kind: "editor" })
      .execute();
  });

  it("checks refuse out-of-range codes and flags", async () => {
    const s = await seedSurvey(db());
    const bad = [
      sql`update surveys set status = 6 where id = ${s.surveyId}`,
      sql`update surveys set target_responses = 10000 where id = ${s.surveyId}`,
      sql`update surveys set patient_form_enabled = 2 where id = ${s.surveyId}`,
      sql`update questions set type = 8 where id = ${s.singleQuestionId}`,
      sql`update questions set dependence_type = 'MAYBE' where id = ${s.singleQuestionId}`,
      sql`update answer_options set weight = 4 where id = ${s.optionIds[0]}`,
      sql`update answer_options set weighting_state = 3 where id = ${s.optionIds[0]}`,
      sql`update patient_data set state = 'Nonexistent' where id = ${s.patientDataId}`,
      sql`update users set culture = 'fr-FR' where id = ${s.userId}`,
      sql`update survey_team_permissions set kind = 'owner' where survey_id = ${s.surveyId}`,
    ];
    for (const statement of bad) await expect(statement.execute(db())).rejects.toThrow();
  });

  it("the audit log is append-only", async () => {
    const entry = await db()
      .insertInto("audit_log")
      .values({ action: "survey.delete", entity: "survey", entity_id: "1", survey_id: 1 })
      .returning("id")
      .executeTakeFirstOrThrow();
    await expect(
      db().updateTable("audit_log").set({ action: "nothing" }).where("id", "=", entry.id).execute(),
    ).rejects.toThrow(/append-only/);
    await expect(db().deleteFrom("audit_log").where("id", "=", entry.id).execute()).rejects.toThrow(/append-only/);
    if (kind === "postgres") await expect(sql`truncate audit_log`.execute(db())).rejects.toThrow(/append-only/);
    const row = await db().selectFrom("audit_log").selectAll().where("id", "=", entry.id).executeTakeFirstOrThrow();
    expect(row.action).toBe("survey.delete");
  });
});
