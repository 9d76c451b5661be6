import { sql } from "kysely";
import { expect, it } from "vitest";
import { describeEachDialect, useTestDb } from "../support/databases";

/**
 * The word counting reads a survey's pending texts in id order, a batch at a time (words.server.ts). Read
 * by an index on the survey alone, PostgreSQL with stale table statistics sorted all of them for every batch
 * (2.5 M pending after a bulk import: 8 s a batch); on (survey, text) a batch is read in order and the read
 * stops at its end (migration 0015).
 */
describeEachDialect("pending words", (kind) => {
  const db = useTestDb(kind);
  const batch = sql`select qr.id from response_words_pending p join question_responses qr on qr.id = p.response_id
    where p.survey_id = 1 and p.response_id > 0 order by p.response_id limit 2000`;

  it("a batch is read in order from the index on survey and text", async () => {
    if (kind === "sqlite") {
      const { rows } = await sql<{ detail: string }>`explain query plan ${batch}`.execute(db());
      const detail = rows.map((r) => r.detail).join("\n");
      expect(detail).toMatch(/response_words_pending_survey_response_idx/);
      expect(detail).not.toMatch(/TEMP B-TREE/);
    } else {
      // PostgreSQL's plan follows the table's statistics (an empty table is sorted whole): the index itself.
      const { rows } = await sql<{ indexdef: string }>`select indexdef from pg_indexes
        where tablename = 'response_words_pending' and indexname = 'response_words_pending_survey_response_idx'`.execute(
        db(),
      );
      expect(rows.map((r) => r.indexdef)).toEqual([expect.stringMatching(/\(survey_id, response_id\)/)]);
    }
  });
});
