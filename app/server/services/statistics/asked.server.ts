import { sql, type Expression, type SqlBool } from "kysely";
import type { StatisticsFilters } from "~/domain/statistics";
import type { Question } from "~/domain/survey";

import { countedCondition } from "./cases.server";
import type { Executor } from "~/server/db/types.server";

/**
 * How many of the counted cases were shown each question that has a Dependence (section 4, Visibility): SHOW
 * when one of its preliminary answers was chosen, HIDE when none was; a sub-question also needs the answer
 * it stands under. The other questions were shown to every counted case (top level) or to the cases that
 * chose their answer (sub-questions), which the option counts already tell. One grouped count per such
 * question, each a pass over the counted cases with two indexed lookups per case; most surveys have few.
 */
export async function shownCounts(
  db: Executor,
  surveyId: number,
  questions: readonly Question[],
  filters: StatisticsFilters,
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  const ruled = questions.filter((q) => q.Dependence && q.Dependence.PreliminaryAnswerOptions.length > 0);
  if (ruled.length === 0) return out;
  const questionOf = new Map(questions.flatMap((q) => q.AnswerOptions.map((o) => [o.Id, q.Id] as const)));
  const shown = (q: Question) => {
    const rule = q.Dependence!;
    const chosen = sql<SqlBool>`exists (select 1 from attribute_responses as ar
      where ar.patient_data_id = pd.id and ar.answer_option_id in (${sql.join(rule.PreliminaryAnswerOptions)}))`;
    const conditions: Expression<SqlBool>[] = [rule.Type === "SHOW" ? chosen : sql<SqlBool>`not ${chosen}`];
    const parent = q.ParentAnswerOptionId;
    if (parent !== null) {
      const parentQuestion = questionOf.get(parent);
      conditions.push(sql<SqlBool>`exists (select 1 from question_responses as qr
        where qr.patient_data_id = pd.id
        ${parentQuestion === undefined ? sql`` : sql`and qr.question_id = ${parentQuestion}`}
        and qr.answer_option_id = ${parent})`);
    }
    return db
      .selectFrom("patient_data as pd")
      .select([sql<number>`cast(${q.Id} as integer)`.as("question_id"), sql<number>`count(*)`.as("n")])
      .where("pd.survey_id", "=", surveyId)
      .where(countedCondition(db, filters))
      .where(sql<SqlBool>`(${sql.join(conditions, sql` and `)})`);
  };
  let query = shown(ruled[0]);
  for (const q of ruled.slice(1)) query = query.unionAll(shown(q));
  for (const r of await query.execute()) out.set(Number(r.question_id), Number(r.n));
  return out;
}
