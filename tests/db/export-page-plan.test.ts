import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { casesPage } from "~/server/services/statistics/export.server";
import { dialects, useTestDb } from "../support/databases";

/**
 * The export walks a survey's counted cases a page at a time with their kept lines (casesPage). On a
 * database of 1,000,000 cases PostgreSQL chose a merge join that read the kept lines from their first row on
 * every page: 221 ms a page at the middle, an export growing with the square of the cases. Bounded on the
 * kept side too, both sides of the merge start at the page. The planner's choice follows the tables'
 * statistics, so the test makes it choose a merge join as it did there.
 */
/** The plan chosen on the large database: index scans merged, as a small table would not be read. */
const SETTINGS = ["enable_nestloop", "enable_hashjoin", "enable_bitmapscan", "enable_seqscan"];

describe.skipIf(!dialects.includes("postgres"))("the export's page of cases [postgres]", () => {
  const db = useTestDb("postgres");

  it("reads the kept lines from the page's first case on, not from the first one kept", async () => {
    const survey = await db()
      .insertInto("surveys")
      .values({ title: "Pages" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const cases = await db()
      .insertInto("patient_data")
      .values(
        Array.from({ length: 400 }, (_, i) => ({
          survey_id: survey.id,
          patient_id: `P${i}`,
          state: "Closed" as const,
        })),
      )
      .returning("id")
      .execute();
    await db()
      .insertInto("case_export_rows")
      .values(cases.map((c) => ({ patient_data_id: c.id, answers_version: 1, layout: "x", line: "a;b" })))
      .execute();
    const after = cases[300]!.id;
    const page = casesPage(db(), survey.id, {}, after, 50);
    const rows = await db()
      .connection()
      .execute(async (conn) => {
        for (const setting of SETTINGS) await sql.raw(`set ${setting} = off`).execute(conn);
        try {
          const query = page.compile();
          const plan = await conn.executeQuery<{ "QUERY PLAN": string }>({
            ...query,
            sql: `explain (analyze, format text) ${query.sql}`,
          });
          return { plan: plan.rows.map((r) => r["QUERY PLAN"]).join("\n"), page: await conn.executeQuery(query) };
        } finally {
          for (const setting of SETTINGS) await sql.raw(`reset ${setting}`).execute(conn);
        }
      });
    expect(rows.page.rows).toHaveLength(50);
    expect(rows.plan).toMatch(/Merge Left Join/);
    // The kept lines' index scan is bounded by the page, and reads about a page of rows, not 300 and more.
    const kept = rows.plan.split("\n").findIndex((line) => line.includes("on case_export_rows kept"));
    expect(kept).toBeGreaterThan(-1);
    expect(rows.plan.split("\n")[kept + 1]).toMatch(/Index Cond: \(patient_data_id > /);
    const read = Number(/actual time=[\d.]+\.\.[\d.]+ rows=(\d+)/.exec(rows.plan.split("\n")[kept]!)?.[1]);
    expect(read).toBeLessThanOrEqual(51);
  });
});
