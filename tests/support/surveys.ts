import { afterAll, beforeAll, expect } from "vitest";
import type { TestIdp } from "~/server/idp/test-fixture.server";
import { startApi, type ApiHarness } from "./api";
import type { DialectName } from "./databases";
import type { DB } from "~/server/db/types.server";
import { touchSurvey } from "~/server/services/survey-access.server";

export async function teamId(db: DB, name: string): Promise<number> {
  const row = await db.selectFrom("teams").select("id").where("name", "=", name).executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Adds a category with a single-selection question straight into the database (for tests of the
 * survey lifecycle that need a question), optionally with a sub-question, a dependence rule on a
 * preliminary question and a recorded response, and marks the survey's content changed as an edit does.
 */
export async function addQuestion(
  db: DB,
  surveyId: number,
  opts: { withSubQuestion?: boolean; withDependence?: boolean; withResponse?: boolean } = {},
) {
  const now = new Date().toISOString();
  const category = await db
    .insertInto("categories")
    .values({ survey_id: surveyId, title: "Allgemein", sort: 0 })
    .returning("id")
    .executeTakeFirstOrThrow();
  const question = await db
    .insertInto("questions")
    .values({
      survey_id: surveyId,
      category_id: category.id,
      parent_answer_option_id: null,
      title: "Wie geht es Ihnen?",
      type: 1,
      sort: 0,
      unit: null,
      image_src: null,
      dependence_type: opts.withDependence ? "SHOW" : null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const option = await db
    .insertInto("answer_options")
    .values({
      survey_id: surveyId,
      question_id: question.id,
      text: "Gut",
      value: null,
      weight: null,
      sort: 0,
      pos_x: null,
      pos_y: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  let preliminaryOptionId: number | undefined;
  if (opts.withSubQuestion) {
    await db
      .insertInto("questions")
      .values({
        survey_id: surveyId,
        category_id: category.id,
        parent_answer_option_id: option.id,
        title: "Seit wann?",
        type: 5,
        sort: 0,
        unit: null,
        image_src: null,
        dependence_type: null,
      })
      .execute();
  }
  if (opts.withDependence) {
    const form = await db
      .selectFrom("patient_forms")
      .select("id")
      .where("survey_id", "=", surveyId)
      .executeTakeFirstOrThrow();
    const attribute = await db
      .insertInto("patient_form_attributes")
      .values({ patient_form_id: form.id, survey_id: surveyId, title: "Geschlecht", sort: 0 })
      .returning("id")
      .executeTakeFirstOrThrow();
    const pre = await db
      .insertInto("patient_form_answer_options")
      .values({ attribute_id: attribute.id, survey_id: surveyId, text: "weiblich", value: null, sort: 0 })
      .returning("id")
      .executeTakeFirstOrThrow();
    preliminaryOptionId = pre.id;
    await db
      .insertInto("question_dependence_options")
      .values({ question_id: question.id, patient_form_answer_option_id: pre.id })
      .execute();
  }
  if (opts.withResponse) {
    const kase = await db
      .insertInto("patient_data")
      .values({
        survey_id: surveyId,
        patient_id: "P_1",
        team_id: null,
        created_by_user_id: null,
        created_at: now,
        modified_at: now,
        closed_at: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("question_responses")
      .values({
        survey_id: surveyId,
        patient_data_id: kase.id,
        question_id: question.id,
        answer_option_id: option.id,
        text_response: null,
        numerical_response: null,
        date_time_response: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  // The survey's content changed: marked as every edit of the editing services marks it (touchSurvey), so that
  // what the server keeps of the survey's content until then is not used any more.
  await touchSurvey(db, surveyId);
  return { categoryId: category.id, questionId: question.id, optionId: option.id, preliminaryOptionId };
}

/**
 * The surveys API over a fresh database of `kind`, with every demo person signed in once, and the
 * helpers the survey tests share. Registers its own beforeAll/afterAll.
 */
export function useSurveysApi(kind: DialectName, idp: () => TestIdp) {
  let api: ApiHarness | undefined;
  const tokens: Record<string, string> = {};
  const harness = () => {
    if (!api) throw new Error("The API is not started yet");
    return api;
  };
  const as = (who: string) => ({ token: tokens[who] });

  beforeAll(async () => {
    api = await startApi(kind, { idp: idp() });
    for (const who of ["editor", "approver", "admin", "user", "outsider"]) {
      tokens[who] = await api.token(who);
      await api.call("GET", "/users/current", as(who));
    }
  });
  afterAll(async () => {
    await api?.close();
  });

  return {
    api: harness,
    as,
    async create(title = "Herzinsuffizienz-Verlauf") {
      const res = await harness().call("POST", "/surveys", { ...as("editor"), body: { Title: title } });
      expect(res.status).toBe(201);
      return (await res.json()) as { Id: number; Hash: string; Title: string; Status: string };
    },
    async publish(id: number) {
      await addQuestion(harness().testDb.db, id);
      expect((await harness().call("POST", `/surveys/${id}/approve`, as("approver"))).status).toBe(204);
    },
    get: (id: number, who = "editor") => harness().call("GET", `/surveys/${id}`, as(who)),
    list: async (who: string, query = "") =>
      (await (await harness().call("GET", `/surveys${query}`, as(who))).json()) as {
        Data: { Id: number; Title: string; Status: string }[];
        Total: number;
      },
    auditCount: async (surveyId: number) =>
      (await harness().testDb.db.selectFrom("audit_log").select("id").where("survey_id", "=", surveyId).execute())
        .length,
  };
}

let recorded = 0;

/** Records a response straight into the database, as a fill would: a new case with one answer. */
export async function recordResponse(
  db: DB,
  surveyId: number,
  questionId: number,
  answerOptionId: number | null = null,
) {
  const kase = await db
    .insertInto("patient_data")
    .values({ survey_id: surveyId, patient_id: `R_${++recorded}_${Date.now()}` })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("question_responses")
    .values({
      survey_id: surveyId,
      patient_data_id: kase.id,
      question_id: questionId,
      answer_option_id: answerOptionId,
      text_response: answerOptionId ? null : "Text",
    })
    .execute();
}

/** How many audit rows a survey has. */
export async function auditRows(db: DB, surveyId: number): Promise<number> {
  return (await db.selectFrom("audit_log").select("id").where("survey_id", "=", surveyId).execute()).length;
}
