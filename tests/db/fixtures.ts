import type { DB } from "~/server/db/types.server";

/** A small but complete survey with one case, touching every table that hangs under a survey. */
export interface SeededSurvey {
  userId: number;
  teamId: number;
  tagId: number;
  surveyId: number;
  categoryId: number;
  singleQuestionId: number;
  optionIds: [number, number];
  subQuestionId: number;
  numericQuestionId: number;
  attributeId: number;
  attributeOptionId: number;
  patientFormId: number;
  patientDataId: number;
  dashboardId: number;
  chartId: number;
}

let counter = 0;

export async function seedSurvey(db: DB, label = "s"): Promise<SeededSurvey> {
  const n = `${label}-${++counter}`;
  const now = new Date().toISOString();
  const user = await db
    .insertInto("users")
    .values({ sub: `sub-${n}`, full_name: "Dr. Erika Muster", created_at: now, updated_at: now })
    .returning("id")
    .executeTakeFirstOrThrow();
  const team = await db
    .insertInto("teams")
    .values({ name: `team-${n}` })
    .returning("id")
    .executeTakeFirstOrThrow();
  const tag = await db
    .insertInto("tags")
    .values({ name: `tag-${n}` })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db.insertInto("user_teams").values({ user_id: user.id, team_id: team.id }).execute();

  const survey = await db
    .insertInto("surveys")
    .values({
      title: `Survey ${n}`,
      status: 2,
      start_date: "2026-01-01",
      end_date: "2026-12-31",
      created_by_user_id: user.id,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const surveyId = survey.id;
  await db.insertInto("survey_tags").values({ survey_id: surveyId, tag_id: tag.id }).execute();
  await db
    .insertInto("survey_team_permissions")
    .values({ survey_id: surveyId, team_id: team.id, kind: "user" })
    .execute();

  const category = await db
    .insertInto("categories")
    .values({ survey_id: surveyId, title: "Anamnesis", sort: 0 })
    .returning("id")
    .executeTakeFirstOrThrow();
  const single = await db
    .insertInto("questions")
    .values({ survey_id: surveyId, category_id: category.id, title: "Smoker?", type: 1, sort: 0 })
    .returning("id")
    .executeTakeFirstOrThrow();
  const options = await db
    .insertInto("answer_options")
    .values([
      { survey_id: surveyId, question_id: single.id, text: "Yes", sort: 0, weighting_state: 1, weight: 2 },
      { survey_id: surveyId, question_id: single.id, text: "No", sort: 1, weighting_state: 2, weight: null },
    ])
    .returning("id")
    .execute();
  const optionIds: [number, number] = [options[0].id, options[1].id];
  const sub = await db
    .insertInto("questions")
    .values({
      survey_id: surveyId,
      category_id: category.id,
      parent_answer_option_id: optionIds[0],
      title: "Cigarettes per day",
      type: 3,
      unit: "pcs",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const numeric = await db
    .insertInto("questions")
    .values({ survey_id: surveyId, category_id: category.id, title: "Weight", type: 3, sort: 1, unit: "kg" })
    .returning("id")
    .executeTakeFirstOrThrow();

  const form = await db
    .insertInto("patient_forms")
    .values({ survey_id: surveyId })
    .returning("id")
    .executeTakeFirstOrThrow();
  const attribute = await db
    .insertInto("patient_form_attributes")
    .values({ patient_form_id: form.id, survey_id: surveyId, title: "Sex" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const attributeOption = await db
    .insertInto("patient_form_answer_options")
    .values({ attribute_id: attribute.id, survey_id: surveyId, text: "female" })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("question_dependence_options")
    .values({ question_id: numeric.id, patient_form_answer_option_id: attributeOption.id })
    .execute();

  const patient = await db
    .insertInto("patient_data")
    .values({
      survey_id: surveyId,
      patient_id: `P_${n}`.replace(/-/g, "_"),
      team_id: team.id,
      created_by_user_id: user.id,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("question_responses")
    .values([
      { survey_id: surveyId, patient_data_id: patient.id, question_id: single.id, answer_option_id: optionIds[0] },
      { survey_id: surveyId, patient_data_id: patient.id, question_id: sub.id, numerical_response: 12 },
      { survey_id: surveyId, patient_data_id: patient.id, question_id: numeric.id, numerical_response: 71.5 },
    ])
    .execute();
  await db
    .insertInto("attribute_responses")
    .values({
      survey_id: surveyId,
      patient_data_id: patient.id,
      attribute_id: attribute.id,
      answer_option_id: attributeOption.id,
    })
    .execute();
  await db
    .insertInto("file_attachments")
    .values({
      survey_id: surveyId,
      patient_data_id: patient.id,
      question_id: single.id,
      file_name: "scan.pdf",
      file_extension: ".pdf",
      content_type: "application/pdf",
      size: 1234,
      storage_key: `att/${n}/scan.pdf`,
      uploaded_by_user_id: user.id,
    })
    .execute();
  await db
    .insertInto("sync_requests")
    .values({
      user_id: user.id,
      idempotency_key: `key-${n}`,
      survey_id: surveyId,
      patient_data_id: patient.id,
      request_hash: "0".repeat(64),
    })
    .execute();

  const dashboard = await db
    .insertInto("dashboards")
    .values({ survey_id: surveyId })
    .returning("id")
    .executeTakeFirstOrThrow();
  const chart = await db
    .insertInto("charts")
    .values({
      dashboard_id: dashboard.id,
      chart_type: "NumericalRange",
      plot_type: "LineChart",
      attribute_id: attribute.id,
      question_id1: sub.id,
      question_id2: numeric.id,
    })
    .returning("id")
    .executeTakeFirstOrThrow();

  return {
    userId: user.id,
    teamId: team.id,
    tagId: tag.id,
    surveyId,
    categoryId: category.id,
    singleQuestionId: single.id,
    optionIds,
    subQuestionId: sub.id,
    numericQuestionId: numeric.id,
    attributeId: attribute.id,
    attributeOptionId: attributeOption.id,
    patientFormId: form.id,
    patientDataId: patient.id,
    dashboardId: dashboard.id,
    chartId: chart.id,
  };
}

/** Tables whose rows belong to one survey, each through its own survey_id column. */
export const surveyOwnedTables = [
  "survey_tags",
  "survey_team_permissions",
  "categories",
  "questions",
  "answer_options",
  "patient_forms",
  "patient_form_attributes",
  "patient_form_answer_options",
  "patient_data",
  "question_responses",
  "attribute_responses",
  "file_attachments",
  "sync_requests",
  "dashboards",
] as const;
