import { sql, type RawBuilder } from "kysely";
import { expect, it } from "vitest";
import { describeEachDialect, useTestDb } from "../support/databases";

/**
 * The statistics aggregates must read covering indexes, not the response rows (see docs on the statistics
 * budget). SQLite's plan is deterministic, so it is checked here; the timing itself is a benchmark.
 */
describeEachDialect("statistics indexes", (kind) => {
  const db = useTestDb(kind);

  async function plan(query: RawBuilder<unknown>): Promise<string> {
    const explained = await sql`explain query plan ${query}`.execute(db());
    return (explained.rows as { detail: string }[]).map((r) => r.detail).join("\n");
  }

  it.skipIf(kind !== "sqlite")("answer counts per option use a covering index", async () => {
    const detail = await plan(
      sql`select answer_option_id, count(*) from question_responses
          where survey_id = 1 and question_id = 2 group by answer_option_id`,
    );
    expect(detail).toMatch(/USING COVERING INDEX question_responses_option_stats_idx/);
    expect(detail).not.toMatch(/TEMP B-TREE/);
  });

  it.skipIf(kind !== "sqlite")(
    "min, max and average of numbers use a covering index, also filtered by case",
    async () => {
      const plain = await plan(
        sql`select min(numerical_response), max(numerical_response), avg(numerical_response), count(numerical_response)
          from question_responses where survey_id = 1 and question_id = 2`,
      );
      expect(plain).toMatch(/USING COVERING INDEX question_responses_numerical_stats_idx/);
      const filtered = await plan(
        sql`select avg(r.numerical_response) from question_responses r
          join patient_data p on p.id = r.patient_data_id
          where r.survey_id = 1 and r.question_id = 2 and p.team_id in (3, 4) and p.created_at >= '2026-01-01'`,
      );
      expect(filtered).toMatch(/USING COVERING INDEX question_responses_numerical_stats_idx/);
      const dates = await plan(
        sql`select date_time_response, count(*) from question_responses
          where survey_id = 1 and question_id = 2 group by date_time_response`,
      );
      expect(dates).toMatch(/USING COVERING INDEX question_responses_date_time_stats_idx/);
    },
  );

  it.skipIf(kind !== "sqlite")("a case's answers and preliminary answers are read by index", async () => {
    const answers = await plan(sql`select * from question_responses where patient_data_id = 1`);
    expect(answers).toMatch(/USING INDEX question_responses_answer_key/);
    const counts = await plan(
      sql`select answer_option_id, count(*) from attribute_responses
          where survey_id = 1 and attribute_id = 2 group by answer_option_id`,
    );
    expect(counts).toMatch(/USING COVERING INDEX attribute_responses_stats_idx/);
  });

  it("every statistics index exists", async () => {
    const tables = await db().introspection.getTables();
    expect(tables.length).toBeGreaterThan(0);
    const names =
      kind === "sqlite"
        ? await sql<{ name: string }>`select name from sqlite_master where type = 'index'`.execute(db())
        : await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = 'public'`.execute(
            db(),
          );
    expect(names.rows.map((r) => r.name)).toEqual(
      expect.arrayContaining([
        "question_responses_answer_key",
        "question_responses_option_stats_idx",
        "question_responses_numerical_stats_idx",
        "question_responses_date_time_stats_idx",
        "attribute_responses_stats_idx",
        "patient_data_survey_state_idx",
        "audit_log_survey_idx",
        "audit_log_patient_data_idx",
        "sessions_expires_at_idx",
      ]),
    );
  });
});
