import { AppError } from "~/domain/errors";
import { csvLine, csvSeparator } from "~/domain/statistics-rules";
import type { DB } from "~/server/db/types.server";
import { requireSurvey } from "~/server/services/survey-access.server";
import type { SurveyCaller } from "~/server/services/surveys.server";

import type { AuditEntryView } from "~/domain/audit-reading";

/**
 * The audit log of a survey, or of one patient id's cases in it, oldest first. Only the survey's approvers
 * read it: it holds the answers' values before and after each change.
 */
export async function auditOf(
  db: DB,
  caller: SurveyCaller,
  surveyId: number,
  patientId?: string,
): Promise<AuditEntryView[]> {
  const access = await requireSurvey(db, caller, surveyId, "see");
  if (!access.rights.CanApprove) throw new AppError("FORBIDDEN", "Only the survey's approvers read its audit log");
  let query = db
    .selectFrom("audit_log as a")
    .leftJoin("patient_data as pd", "pd.id", "a.patient_data_id")
    .select([
      "a.id",
      "a.at",
      "a.actor_user_id",
      "a.actor_sub",
      "a.action",
      "a.entity",
      "a.entity_id",
      "a.survey_id",
      "a.patient_data_id",
      "pd.patient_id",
      "a.before",
      "a.after",
      "a.erased_at",
      "a.values_hash",
      "a.hash",
      "a.prev_hash",
    ])
    .where("a.survey_id", "=", surveyId);
  if (patientId !== undefined) {
    const cases = db
      .selectFrom("patient_data")
      .select("id")
      .where("survey_id", "=", surveyId)
      .where("patient_id", "=", patientId);
    query = query.where("a.patient_data_id", "in", cases);
  }
  const rows = await query.orderBy("a.id").execute();
  return rows.map((r) => ({
    Id: r.id,
    At: r.at,
    ActorUserId: r.actor_user_id,
    ActorSub: r.actor_sub,
    Action: r.action,
    Entity: r.entity,
    EntityId: r.entity_id,
    SurveyId: r.survey_id,
    PatientDataId: r.patient_data_id,
    PatientId: r.patient_id ?? null,
    Before: r.before,
    After: r.after,
    ErasedAt: r.erased_at,
    ValuesHash: r.values_hash,
    Hash: r.hash,
    PrevHash: r.prev_hash,
  }));
}

const COLUMNS = [
  "Id",
  "At",
  "ActorUserId",
  "ActorSub",
  "Action",
  "Entity",
  "EntityId",
  "SurveyId",
  "PatientDataId",
  "PatientId",
  "Before",
  "After",
  "ErasedAt",
  "ValuesHash",
  "Hash",
  "PrevHash",
] as const;

/** The entries as CSV in the caller's spreadsheet convention; cells that look like formulas are neutralised. */
export function auditCsv(entries: readonly AuditEntryView[], culture: string | null): string {
  const separator = csvSeparator(culture);
  // Ids as text, so that no decimal mark is applied to them.
  const cell = (value: string | number | null) => (typeof value === "number" ? String(value) : value);
  return (
    "\uFEFF" +
    csvLine(COLUMNS, separator) +
    entries
      .map((e) =>
        csvLine(
          COLUMNS.map((c) => cell(e[c])),
          separator,
        ),
      )
      .join("")
  );
}
