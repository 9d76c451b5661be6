import type { DB } from "~/server/db/types.server";
import { optionId, preliminaryOption, questionId } from "./fill-support";

const TEST_QUESTION = "Ab welcher Gewichtszunahme sollte die Praxis informiert werden?";

/** A case with its closing time, preliminary gender and answers (by question title). */
interface FixtureCase {
  patientId: string;
  closedAt: string | null;
  gender: string;
  correct: boolean;
  numbers?: Record<string, number>;
  dates?: Record<string, string>;
}

/**
 * The heart survey's cases replaced by a few known ones (figures computed by hand in the test), and a
 * second date-time question added so a date range chart can be drawn.
 */
export const fixtureCases: FixtureCase[] = [
  {
    patientId: "G1",
    closedAt: "2024-01-15T10:00:00.000Z",
    gender: "weiblich",
    correct: true,
    numbers: { Körpergewicht: 70, "Systolischer Blutdruck": 120 },
    dates: { "Zeitpunkt der Messung": "2024-01-15T08:00", Entlassung: "2024-01-20T09:30" },
  },
  {
    patientId: "G2",
    closedAt: "2024-01-15T12:00:00.000Z",
    gender: "männlich",
    correct: false,
    numbers: { Körpergewicht: 80, "Systolischer Blutdruck": 130 },
  },
  {
    patientId: "G3",
    closedAt: "2024-05-02T09:00:00.000Z",
    gender: "weiblich",
    correct: true,
    numbers: { Körpergewicht: 90 },
  },
  { patientId: "G4", closedAt: "2024-08-20T09:00:00.000Z", gender: "weiblich", correct: false },
  { patientId: "G5", closedAt: null, gender: "weiblich", correct: true },
];

export async function replaceCases(db: DB, surveyId: number, list: FixtureCase[]) {
  await db.deleteFrom("file_attachments").where("survey_id", "=", surveyId).execute();
  await db.deleteFrom("question_responses").where("survey_id", "=", surveyId).execute();
  await db.deleteFrom("attribute_responses").where("survey_id", "=", surveyId).execute();
  await db.deleteFrom("patient_data").where("survey_id", "=", surveyId).execute();
  const measured = await questionId(db, surveyId, "Zeitpunkt der Messung");
  const q = await db
    .selectFrom("questions")
    .select(["category_id"])
    .where("id", "=", measured)
    .executeTakeFirstOrThrow();
  const exists = await db
    .selectFrom("questions")
    .select("id")
    .where("survey_id", "=", surveyId)
    .where("title", "=", "Entlassung")
    .executeTakeFirst();
  if (!exists)
    await db
      .insertInto("questions")
      .values({
        survey_id: surveyId,
        category_id: q.category_id,
        parent_answer_option_id: null,
        title: "Entlassung",
        type: 4,
        sort: 60,
        unit: null,
        image_src: null,
        dependence_type: null,
      })
      .execute();
  const test = await questionId(db, surveyId, TEST_QUESTION);
  const right = await optionId(db, test, "2 kg in 3 Tagen");
  const wrong = await optionId(db, test, "1 kg in 3 Tagen");
  for (const c of list) {
    const row = await db
      .insertInto("patient_data")
      .values({
        survey_id: surveyId,
        patient_id: c.patientId,
        state: c.closedAt ? "Closed" : "Open",
        team_id: null,
        created_by_user_id: null,
        closed_at: c.closedAt,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const base = { survey_id: surveyId, patient_data_id: row.id, text_response: null };
    const gender = await preliminaryOption(db, surveyId, c.gender);
    await db
      .insertInto("attribute_responses")
      .values({
        survey_id: surveyId,
        patient_data_id: row.id,
        attribute_id: gender.attributeId,
        answer_option_id: gender.optionId,
      })
      .execute();
    await db
      .insertInto("question_responses")
      .values({
        ...base,
        question_id: test,
        answer_option_id: c.correct ? right : wrong,
        numerical_response: null,
        date_time_response: null,
      })
      .execute();
    for (const [title, value] of Object.entries(c.numbers ?? {}))
      await db
        .insertInto("question_responses")
        .values({
          ...base,
          question_id: await questionId(db, surveyId, title),
          answer_option_id: null,
          numerical_response: value,
          date_time_response: null,
        })
        .execute();
    for (const [title, value] of Object.entries(c.dates ?? {}))
      await db
        .insertInto("question_responses")
        .values({
          ...base,
          question_id: await questionId(db, surveyId, title),
          answer_option_id: null,
          numerical_response: null,
          date_time_response: value,
        })
        .execute();
  }
}
