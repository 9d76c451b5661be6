import { sql } from "kysely";
import { wireToIsoDate } from "~/domain/dates";
import { AppError } from "~/domain/errors";
import type { StatisticsFilters } from "~/domain/statistics";
import { dialectOf } from "~/server/db/db.server";
import { requireSurvey, type Executor, type SurveyAccess } from "../survey-access.server";
import type { SurveyCaller } from "../surveys.server";

/**
 * Statistics are for analysts: the editors and approvers of the survey's teams. Others get 404 when they
 * may not see the survey, 403 otherwise (decision 005).
 */
export async function requireAnalyst(db: Executor, caller: SurveyCaller, surveyId: number): Promise<SurveyAccess> {
  const access = await requireSurvey(db, caller, surveyId, "see");
  if (!access.rights.CanEdit && !access.rights.CanApprove) {
    throw new AppError("FORBIDDEN", "Only the survey's editors and approvers read its statistics");
  }
  return access;
}

/** The day after a DD.MM.YYYY date, as YYYY-MM-DD (an end date includes its whole day). */
function dayAfter(wire: string): string | null {
  const iso = wireToIsoDate(wire);
  if (!iso) return null;
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/**
 * The ids of the cases the statistics count (docs/decisions/011-statistics.md): the survey's Closed cases
 * (submitted, or closed automatically) that pass every filter given. A subquery, so that each aggregate
 * runs over the same cases inside the database.
 */
export function countedCases(db: Executor, surveyId: number, filters: StatisticsFilters = {}) {
  let query = db
    .selectFrom("patient_data as pd")
    .select("pd.id")
    .where("pd.survey_id", "=", surveyId)
    .where("pd.state", "=", "Closed");
  if (filters.TeamIdsFilter?.length) query = query.where("pd.team_id", "in", filters.TeamIdsFilter);
  if (filters.PatientIds?.length) {
    // A long list travels as one JSON parameter rather than as thousands of placeholders.
    const list = JSON.stringify(filters.PatientIds);
    query =
      dialectOf(db) === "postgres"
        ? query.where(sql<boolean>`pd.patient_id in (select jsonb_array_elements_text(${list}::jsonb))`)
        : query.where(sql<boolean>`pd.patient_id in (select value from json_each(${list}))`);
  }
  const from = filters.StartDateTime ? wireToIsoDate(filters.StartDateTime) : null;
  if (from) query = query.where("pd.created_at", ">=", from);
  const until = filters.EndDateTime ? dayAfter(filters.EndDateTime) : null;
  if (until) query = query.where("pd.closed_at", "<", until);
  for (const [attribute, options] of Object.entries(filters.PreliminaryQuestionsSelection ?? {})) {
    if (options.length === 0) continue;
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom("attribute_responses as ar")
          .select("ar.id")
          .whereRef("ar.patient_data_id", "=", "pd.id")
          .where("ar.attribute_id", "=", Number(attribute))
          .where("ar.answer_option_id", "in", options),
      ),
    );
  }
  return query;
}

/** POST /statistics/{id}/patient-ids: the patient ids of the counted cases (the "survey ids" filter's choices). */
export async function countedPatientIds(db: Executor, surveyId: number, filters: StatisticsFilters): Promise<string[]> {
  const ids = countedCases(db, surveyId, { ...filters, PatientIds: undefined });
  const rows = await db
    .selectFrom("patient_data")
    .select("patient_id")
    .where("id", "in", ids)
    .orderBy("patient_id")
    .execute();
  return rows.map((r) => r.patient_id);
}
