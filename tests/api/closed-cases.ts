import { onTestFinished } from "vitest";
import type { FillWorld } from "./fill-support";

/**
 * Many Closed cases of a survey written straight into the database, each with one number answer (its
 * index), faster than filling them through the API; they go again when the test ends. Their patient ids are
 * the prefix and a four-digit index, so each test's cases are its own.
 */
export async function addClosedCases(
  w: FillWorld,
  surveyId: number,
  questionId: number,
  prefix: string,
  count: number,
): Promise<{ id: number }[]> {
  const now = new Date().toISOString();
  const added = await w.db
    .insertInto("patient_data")
    .values(
      Array.from({ length: count }, (_, i) => ({
        survey_id: surveyId,
        patient_id: `${prefix}${String(i).padStart(4, "0")}`,
        state: "Closed" as const,
        closed_at: now,
      })),
    )
    .returning("id")
    .execute();
  onTestFinished(async () => {
    await w.db
      .deleteFrom("patient_data")
      .where("patient_id", "like", `${prefix}%`)
      .where("survey_id", "=", surveyId)
      .execute();
  });
  await w.db
    .insertInto("question_responses")
    .values(
      added.map((c, i) => ({
        survey_id: surveyId,
        patient_data_id: c.id,
        question_id: questionId,
        numerical_response: i,
      })),
    )
    .execute();
  return added;
}
