import { expect, it } from "vitest";
import { describeEachDialect, useTestDb } from "../support/databases";
import { seedSurvey } from "./fixtures";

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describeEachDialect("tables", (kind) => {
  const db = useTestDb(kind);

  it("users: ids generated, defaults filled, flags and timestamps round trip", async () => {
    const at = "2026-11-23T08:56:34.123Z";
    const a = await db()
      .insertInto("users")
      .values({ sub: "idp|alice", full_name: "Alice Arzt", created_at: at, updated_at: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    const b = await db()
      .insertInto("users")
      .values({
        sub: "idp|bob",
        full_name: "Bob Pfleger",
        institute: "Klinikum Nord",
        email: "bob@example.org",
        culture: "de-DE",
        has_accepted_tos: 1,
        roles: JSON.stringify(["SsiEditor", "SsiApprover"]),
        last_login_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect(typeof a.id).toBe("number");
    expect(b.id).toBeGreaterThan(a.id);

    const alice = await db().selectFrom("users").selectAll().where("id", "=", a.id).executeTakeFirstOrThrow();
    expect(alice).toEqual({
      id: a.id,
      sub: "idp|alice",
      full_name: "Alice Arzt",
      institute: "",
      email: null,
      culture: null,
      has_accepted_tos: 0,
      roles: "[]",
      created_at: at,
      updated_at: at,
      last_login_at: null,
    });
    const bob = await db().selectFrom("users").selectAll().where("id", "=", b.id).executeTakeFirstOrThrow();
    expect(bob).toMatchObject({ institute: "Klinikum Nord", culture: "de-DE", has_accepted_tos: 1, last_login_at: at });
    expect(JSON.parse(bob.roles)).toEqual(["SsiEditor", "SsiApprover"]);
    // Defaulted timestamps have the same ISO-8601 UTC shape as the ones the application writes.
    expect(bob.created_at).toMatch(ISO_TIMESTAMP);
    expect(Math.abs(Date.parse(bob.created_at) - Date.now())).toBeLessThan(60_000);
  });

  it("teams, tags and memberships", async () => {
    const team = await db()
      .insertInto("teams")
      .values({ name: "Kardiologie" })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(team).toEqual({ id: expect.any(Number), name: "Kardiologie", disabled: 0 });
    const off = await db()
      .insertInto("teams")
      .values({ name: "Alt", disabled: 1 })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(off.disabled).toBe(1);
    const tag = await db().insertInto("tags").values({ name: "#diabetes" }).returningAll().executeTakeFirstOrThrow();
    expect(tag).toEqual({ id: expect.any(Number), name: "#diabetes" });
    const user = await db().selectFrom("users").select("id").where("sub", "=", "idp|bob").executeTakeFirstOrThrow();
    await db().insertInto("user_teams").values({ user_id: user.id, team_id: team.id }).execute();
    const rows = await db().selectFrom("user_teams").selectAll().where("user_id", "=", user.id).execute();
    expect(rows).toEqual([{ user_id: user.id, team_id: team.id }]);
  });

  it("sessions keep a text id and JSON data", async () => {
    const data = JSON.stringify({ userId: 1, tokens: { access: "a.b.c" } });
    await db()
      .insertInto("sessions")
      .values({ id: "3f1c9a0e-session", data, expires_at: "2026-11-23T20:56:34.123Z" })
      .execute();
    const row = await db().selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ id: "3f1c9a0e-session", data, expires_at: "2026-11-23T20:56:34.123Z" });
    expect(row.created_at).toMatch(ISO_TIMESTAMP);
    expect(row.updated_at).toMatch(ISO_TIMESTAMP);
  });

  it("audit_log appends entries", async () => {
    const entry = await db()
      .insertInto("audit_log")
      .values({
        actor_user_id: 1,
        actor_sub: "idp|bob",
        action: "survey.update",
        entity: "survey",
        entity_id: "7",
        survey_id: 7,
        before: JSON.stringify({ Title: "Alt" }),
        after: JSON.stringify({ Title: "Neu" }),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ action: "survey.update", survey_id: 7, patient_data_id: null, entity_id: "7" });
    expect(entry.at).toMatch(ISO_TIMESTAMP);
  });

  it("a whole survey with a case: every table accepts its rows and reads them back", async () => {
    const s = await seedSurvey(db());
    const survey = await db().selectFrom("surveys").selectAll().where("id", "=", s.surveyId).executeTakeFirstOrThrow();
    expect(survey).toMatchObject({
      status: 2,
      status_before_archive: null,
      start_date: "2026-01-01",
      end_date: "2026-12-31",
      description: "",
      intro_text: "",
      target_responses: 0,
      patient_id_auto_generation: 0,
      patient_form_enabled: 0,
      hash: "",
      source_survey_id: null,
      created_by_user_id: s.userId,
      archived_at: null,
    });

    const sub = await db()
      .selectFrom("questions")
      .selectAll()
      .where("id", "=", s.subQuestionId)
      .executeTakeFirstOrThrow();
    expect(sub).toMatchObject({
      parent_answer_option_id: s.optionIds[0],
      type: 3,
      unit: "pcs",
      allow_file_attachments: 0,
      allow_multiple_answers: 0,
      is_test_question: 0,
      image_src: null,
      dependence_type: null,
    });
    const options = await db()
      .selectFrom("answer_options")
      .select(["text", "weight", "weighting_state", "is_exit_answer", "value", "pos_x"])
      .where("question_id", "=", s.singleQuestionId)
      .orderBy("sort")
      .execute();
    expect(options).toEqual([
      { text: "Yes", weight: 2, weighting_state: 1, is_exit_answer: 0, value: null, pos_x: null },
      { text: "No", weight: null, weighting_state: 2, is_exit_answer: 0, value: null, pos_x: null },
    ]);

    const attribute = await db()
      .selectFrom("patient_form_attributes")
      .selectAll()
      .where("id", "=", s.attributeId)
      .executeTakeFirstOrThrow();
    expect(attribute).toMatchObject({ patient_form_id: s.patientFormId, enabled: 1, pre_selected: 0, sort: 0 });
    const dependence = await db().selectFrom("question_dependence_options").selectAll().execute();
    expect(dependence).toContainEqual({
      question_id: s.numericQuestionId,
      patient_form_answer_option_id: s.attributeOptionId,
    });

    const patient = await db()
      .selectFrom("patient_data")
      .selectAll()
      .where("id", "=", s.patientDataId)
      .executeTakeFirstOrThrow();
    expect(patient).toMatchObject({ state: "Open", team_id: s.teamId, closed_at: null });
    expect(patient.modified_at).toMatch(ISO_TIMESTAMP);

    const responses = await db()
      .selectFrom("question_responses")
      .select(["question_id", "answer_option_id", "numerical_response", "text_response", "date_time_response"])
      .where("patient_data_id", "=", s.patientDataId)
      .orderBy("id")
      .execute();
    expect(responses).toEqual([
      {
        question_id: s.singleQuestionId,
        answer_option_id: s.optionIds[0],
        numerical_response: null,
        text_response: null,
        date_time_response: null,
      },
      {
        question_id: s.subQuestionId,
        answer_option_id: null,
        numerical_response: 12,
        text_response: null,
        date_time_response: null,
      },
      {
        question_id: s.numericQuestionId,
        answer_option_id: null,
        numerical_response: 71.5,
        text_response: null,
        date_time_response: null,
      },
    ]);
    const attachment = await db()
      .selectFrom("file_attachments")
      .selectAll()
      .where("patient_data_id", "=", s.patientDataId)
      .executeTakeFirstOrThrow();
    expect(attachment).toMatchObject({ file_name: "scan.pdf", size: 1234, uploaded_by_user_id: s.userId });
    const chart = await db().selectFrom("charts").selectAll().where("id", "=", s.chartId).executeTakeFirstOrThrow();
    expect(chart).toMatchObject({
      dashboard_id: s.dashboardId,
      chart_type: "NumericalRange",
      plot_type: "LineChart",
      sort: 0,
    });
    const receipt = await db()
      .selectFrom("sync_requests")
      .selectAll()
      .where("patient_data_id", "=", s.patientDataId)
      .executeTakeFirstOrThrow();
    expect(receipt.survey_id).toBe(s.surveyId);
  });
});
