import { sql, type Expression, type SqlBool } from "kysely";
import { wireToIsoDate } from "~/domain/dates";
import { AppError } from "~/domain/errors";
import type { StatisticsFilters } from "~/domain/statistics";
import { dialectOf } from "~/server/db/db.server";
import { requireSurvey, type SurveyAccess } from "../survey-access.server";
import type { SurveyCaller } from "../surveys.server";
import type { Executor } from "~/server/db/types.server";

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
 * Whether a case (`pd`, one of the survey's) counts for the statistics (docs/decisions/011-statistics.md):
 * Closed (submitted, or closed automatically) and passing every filter given.
 */
export function countedCondition(db: Executor, filters: StatisticsFilters = {}): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [sql<SqlBool>`pd.state = ${"Closed"}`];
  const ref = (column: string) => sql.ref(`pd.${column}`);
  if (filters.TeamIdsFilter?.length) {
    conditions.push(sql<SqlBool>`${ref("team_id")} in (${sql.join(filters.TeamIdsFilter)})`);
  }
  if (filters.PatientIds?.length) {
    // A long list travels as one JSON parameter rather than as thousands of placeholders.
    const list = JSON.stringify(filters.PatientIds);
    conditions.push(
      dialectOf(db) === "postgres"
        ? sql<SqlBool>`pd.patient_id in (select jsonb_array_elements_text(${list}::jsonb))`
        : sql<SqlBool>`pd.patient_id in (select value from json_each(${list}))`,
    );
  }
  const from = filters.StartDateTime ? wireToIsoDate(filters.StartDateTime) : null;
  if (from) conditions.push(sql<SqlBool>`${ref("created_at")} >= ${from}`);
  const until = filters.EndDateTime ? dayAfter(filters.EndDateTime) : null;
  if (until) conditions.push(sql<SqlBool>`${ref("closed_at")} < ${until}`);
  if (filters.Languages?.length) {
    // A case without a stored language was filled in its survey's source language (decision 054).
    const chosen = sql.join(filters.Languages);
    conditions.push(sql<SqlBool>`(${ref("language")} in (${chosen}) or (${ref("language")} is null and exists (
      select 1 from surveys as ls where ls.id = pd.survey_id and ls.source_language in (${chosen}))))`);
  }
  if (filters.Respondents?.length) {
    // Who answered (docs/decisions/057-patient-links.md): staff's cases have no respondent stored.
    const patients = filters.Respondents.filter((r) => r !== "staff");
    const staff = filters.Respondents.includes("staff");
    const byPatient = patients.length ? sql<SqlBool>`${ref("respondent")} in (${sql.join(patients)})` : null;
    const byStaff = staff ? sql<SqlBool>`${ref("respondent")} is null` : null;
    conditions.push(byPatient && byStaff ? sql<SqlBool>`(${byPatient} or ${byStaff})` : (byPatient ?? byStaff)!);
  }
  for (const [attribute, options] of Object.entries(filters.PreliminaryQuestionsSelection ?? {})) {
    if (options.length === 0) continue;
    conditions.push(sql<SqlBool>`exists (select 1 from attribute_responses as ar
      where ar.patient_data_id = pd.id and ar.attribute_id = ${Number(attribute)}
      and ar.answer_option_id in (${sql.join(options)}))`);
  }
  return sql<SqlBool>`(${sql.join(conditions, sql` and `)})`;
}

/**
 * The ids of the cases the statistics count: the survey's cases that meet `countedCondition`. A subquery,
 * so that each use runs over the same cases inside the database.
 */
export function countedCases(db: Executor, surveyId: number, filters: StatisticsFilters = {}) {
  return db
    .selectFrom("patient_data as pd")
    .select("pd.id")
    .where("pd.survey_id", "=", surveyId)
    .where(countedCondition(db, filters));
}

/**
 * The survey's cases split by whether they count: how many count, and the ids of the smaller side (the
 * counted ones when fewer than half count, otherwise the others). The counting stays in the database; only
 * the smaller side's ids are read out.
 */
export async function splitCases(
  db: Executor,
  surveyId: number,
  filters: StatisticsFilters,
): Promise<{ counted: number; total: number; fewCounted: boolean; ids: number[] }> {
  // A condition that is unknown (a filter over a missing value) does not count, on either side.
  const counts = sql<number>`case when ${countedCondition(db, filters)} then 1 else 0 end`;
  const totals = await db
    .selectFrom("patient_data as pd")
    .select((eb) => [eb.fn.countAll<number>().as("total"), eb.fn.sum<number>(counts).as("counted")])
    .where("pd.survey_id", "=", surveyId)
    .executeTakeFirstOrThrow();
  const total = Number(totals.total);
  const counted = Number(totals.counted ?? 0);
  const fewCounted = counted * 2 < total;
  const rows = await db
    .selectFrom("patient_data as pd")
    .select("pd.id")
    .where("pd.survey_id", "=", surveyId)
    .where(sql<SqlBool>`${counts} = ${fewCounted ? 1 : 0}`)
    .execute();
  return { counted, total, fewCounted, ids: rows.map((r) => r.id) };
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

/**
 * The surveys with closed cases, most closed cases first (all of them, or the first `limit`): those the
 * background work readies first.
 */
export async function busiestSurveys(db: Executor, limit?: number): Promise<number[]> {
  let query = db
    .selectFrom("patient_data")
    .select(["survey_id", (eb) => eb.fn.countAll<number>().as("n")])
    .where("state", "=", "Closed")
    .groupBy("survey_id")
    .orderBy("n", "desc")
    .orderBy("survey_id");
  if (limit !== undefined) query = query.limit(limit);
  const rows = await query.execute();
  return rows.map((r) => r.survey_id);
}
