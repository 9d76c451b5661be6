import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { seedDemoData } from "~/server/services/demo-data.server";
import { warmStatistics } from "~/server/services/statistics/statistics.server";
import { dialects, useTestDb } from "../support/databases";

/**
 * The statistics' warm-up after a start stops when it is told to (the server's SIGTERM): between its batches
 * of texts, not after the last one. A survey with many free texts not yet split into words (a bulk import)
 * keeps it busy for a while; it is told to stop once it has counted its first batch.
 */

const TEXTS = 12_000;

describe.each(dialects)("the statistics' warm-up on %s", (kind) => {
  const db = useTestDb(kind);

  it("stops between its batches when its signal is aborted", async () => {
    const [heart] = await seedDemoData(db());
    const texts = await db()
      .selectFrom("questions")
      .select("id")
      .where("survey_id", "=", heart!)
      .where("type", "=", 5)
      .execute();
    expect(texts.length).toBeGreaterThan(0);
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${TEXTS})
      insert into patient_data (survey_id, patient_id, state, created_at, modified_at, closed_at)
      select ${heart}, 'W' || i, 'Closed', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z'
      from n`.execute(db());
    await sql`insert into question_responses (survey_id, patient_data_id, question_id, text_response, created_at, updated_at)
      select ${heart}, p.id, ${texts[0]!.id}, 'Atemnot bei Belastung, Husten in der Nacht, Schwindel', '2026-01-01T00:00:00Z',
        '2026-01-01T00:00:00Z'
      from patient_data p where p.survey_id = ${heart} and p.patient_id like 'W%'`.execute(db());
    const pending = async () =>
      Number((await sql<{ n: number }>`select count(*) as n from response_words_pending`.execute(db())).rows[0]!.n);
    const before = await pending();
    expect(before).toBeGreaterThanOrEqual(TEXTS);

    const stop = new AbortController();
    const warming = warmStatistics(db(), stop.signal);
    // Told to stop once its first batch is counted.
    const watching = (async () => {
      while ((await pending()) === before) await new Promise((r) => setTimeout(r, 5));
      stop.abort();
    })();
    await expect(warming).rejects.toThrow(/abort/i);
    await watching;
    const left = await pending();
    expect(left).toBeLessThan(before);
    // It stopped well before the last batch: most texts are still waiting.
    expect(left).toBeGreaterThan(before / 2);
  }, 60_000);
});
