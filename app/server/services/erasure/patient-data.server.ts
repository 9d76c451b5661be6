import { AppError } from "~/domain/errors";
import type { PatientData } from "~/domain/patient-data";
import type { DB } from "~/server/db/types.server";
import { caseHistoryOf } from "~/server/services/audit-reading.server";
import { requireSurvey } from "~/server/services/survey-access.server";
import type { SurveyCaller } from "~/server/services/surveys.server";
import { noCase } from "./erasure-requests.server";

/**
 * GET /patient-data (docs/decisions/042-retention-and-erasure.md): what is stored about a patient id in a
 * survey, for the survey's approvers. The access is audited (`case.data.view`, by the history read): the
 * answers as they are now are each question's last value in its history, in the survey's order.
 */
export async function patientDataOf(
  db: DB,
  key: string,
  caller: SurveyCaller,
  surveyId: number,
  patientId: string,
): Promise<PatientData> {
  const access = await requireSurvey(db, caller, surveyId, "see");
  if (!access.rights.CanApprove) throw new AppError("FORBIDDEN", "Only the survey's approvers show a patient's data");
  const kase = await db
    .selectFrom("patient_data")
    .select(["id", "state", "created_at", "closed_at"])
    .where("survey_id", "=", surveyId)
    .where("patient_id", "=", patientId)
    .executeTakeFirst();
  // A patient asking again after an erasure learns that the data is gone, when and why.
  if (!kase) return noCase(db, key, surveyId, patientId);
  const history = await caseHistoryOf(db, caller, surveyId, patientId, "case.data.view");
  const now = (list: typeof history.Questions) =>
    list.map((q) => ({ Title: q.Title, Value: q.Entries.at(-1)?.Value ?? null })).filter((q) => q.Value !== null);
  const files = await db
    .selectFrom("file_attachments as f")
    .leftJoin("questions as q", "q.id", "f.question_id")
    .select(["f.file_name", "f.size", "q.title"])
    .where("f.patient_data_id", "=", kase.id)
    .orderBy("f.id")
    .execute();
  return {
    SurveyId: surveyId,
    SurveyTitle: access.row.title,
    PatientId: patientId,
    State: kase.state,
    CreatedAt: kase.created_at,
    ClosedAt: kase.closed_at,
    Preliminary: now(history.PreliminaryQuestions),
    Answers: now(history.Questions),
    Attachments: files.map((f) => ({ Question: f.title ?? "", FileName: f.file_name, Size: f.size })),
    History: history,
  };
}
