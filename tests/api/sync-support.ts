import type { OfflineSyncRequest } from "~/domain/offline-sync";
import type { DB } from "~/server/db/types.server";
import { json, type FillWorld, type Who } from "./fill-support";

/** POST /survey-offline-sync/{surveyId} as a person, with an Idempotency-Key when one is given. */
export function sync(w: FillWorld, surveyId: number, body: unknown, opts: { key?: string; who?: Who } = {}) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (opts.key) headers["Idempotency-Key"] = opts.key;
  return w.raw(opts.who ?? "user", "POST", `/survey-offline-sync/${surveyId}`, {
    body: JSON.stringify(body),
    headers,
  });
}

/** The survey's current Hash, as the offline copy carries it. */
export async function hashOf(db: DB, surveyId: number): Promise<string> {
  const row = await db.selectFrom("surveys").select("hash").where("id", "=", surveyId).executeTakeFirstOrThrow();
  return row.hash;
}

/** A payload for a patient id with the survey's current hash; answers default to none. */
export async function payload(
  db: DB,
  surveyId: number,
  patientId: string,
  rest: Partial<OfflineSyncRequest> = {},
): Promise<OfflineSyncRequest> {
  return {
    PatientId: patientId,
    SurveyHash: await hashOf(db, surveyId),
    Overwrite: false,
    Close: false,
    QuestionAnswers: [],
    PreliminaryQuestionAnswers: [],
    ...rest,
  };
}

export async function errorType(res: Response): Promise<string> {
  return (await json<{ Type: string }>(res)).Type;
}

/** How many answer rows, preliminary answers and audit rows of an action a case has. */
export async function countsOf(db: DB, caseId: number, action = "case.sync") {
  const count = async (table: "question_responses" | "attribute_responses") =>
    (await db.selectFrom(table).select("id").where("patient_data_id", "=", caseId).execute()).length;
  const audits = await db
    .selectFrom("audit_log")
    .select("id")
    .where("patient_data_id", "=", caseId)
    .where("action", "=", action)
    .execute();
  return {
    answerRows: await count("question_responses"),
    preliminary: await count("attribute_responses"),
    audits: audits.length,
  };
}

export async function casesWith(db: DB, surveyId: number, patientId: string) {
  return db
    .selectFrom("patient_data")
    .selectAll()
    .where("survey_id", "=", surveyId)
    .where("patient_id", "=", patientId)
    .execute();
}
