import { expect } from "vitest";
import type { DB } from "~/server/db/types.server";
import { form, PNG } from "./fill-files";
import { json, preliminaryOption, questionId, startCase, type FillWorld } from "./fill-support";

/**
 * A case with something in every place an erasure must empty (docs/decisions/042-retention-and-erasure.md):
 * a preliminary answer, a free text (and so its counted words), a file, and closed (so its export line is
 * kept once the export runs). Returns its id and the file's storage key.
 */
export async function fullCase(w: FillWorld, surveyId: number, patientId: string, close = true) {
  const caseId = await startCase(w, surveyId, patientId);
  const female = await preliminaryOption(w.db, surveyId, "weiblich");
  const chosen = await w.call("user", "POST", "/attribute-responses", {
    PatientId: patientId,
    SurveyId: surveyId,
    PatientFormAttributeId: female.attributeId,
    PatientFormAnswerOptionId: female.optionId,
  });
  expect(chosen.status).toBe(200);
  const notes = await questionId(w.db, surveyId, "Weitere Beschwerden");
  const answered = await w.call("user", "POST", "/question-responses/free-text", {
    PatientId: patientId,
    SurveyId: surveyId,
    QuestionId: notes,
    TextResponse: `Übelkeit und Schwindel bei ${patientId}`,
  });
  expect(answered.status).toBe(200);
  const fileQuestion = await questionId(w.db, surveyId, "Zeitpunkt der Messung");
  const query = `questionId=${fileQuestion}&patientDataId=${caseId}&ssiUserDataId=1&userId=u1&surveyId=${surveyId}`;
  const uploaded = await w.raw("user", "POST", `/file-attachments/upload?${query}`, {
    body: form([`befund-${patientId}.png`, PNG]),
  });
  expect(uploaded.status).toBe(200);
  if (close) {
    const closed = await w.call("user", "POST", `/patients/close?patientId=${patientId}&surveyId=${surveyId}`);
    expect(closed.status).toBe(204);
  }
  const file = await w.db
    .selectFrom("file_attachments")
    .select("storage_key")
    .where("patient_data_id", "=", caseId)
    .executeTakeFirstOrThrow();
  return { caseId, storageKey: file.storage_key };
}

/** Rows left anywhere that belong to the case. */
export async function leftOf(db: DB, caseId: number) {
  const n = async (table: Parameters<DB["selectFrom"]>[0] & string) =>
    Number(
      (
        await db
          .selectFrom(table as "question_responses")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("patient_data_id", "=", caseId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const tables = [
    "patient_data",
    "question_responses",
    "attribute_responses",
    "file_attachments",
    "response_words",
    "case_export_rows",
    "case_totals",
    "case_signatures",
    "signing_intents",
    "sync_requests",
  ] as const;
  const counts: Record<string, number> = {};
  for (const table of tables) counts[table] = table === "patient_data" ? await caseRows(db, caseId) : await n(table);
  return counts;
}

async function caseRows(db: DB, caseId: number) {
  return (await db.selectFrom("patient_data").select("id").where("id", "=", caseId).execute()).length;
}

export async function erase(w: FillWorld, surveyId: number, patientId: string, who = "approver" as const) {
  return w.call(who, "POST", "/erasures", { SurveyId: surveyId, PatientId: patientId, Reason: "consent" });
}

export const everyCount = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

export { json };
