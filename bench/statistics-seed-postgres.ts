// The PostgreSQL seed of bench/statistics-seed.ts, made in the database: the cases and their answer rows come
// from generate_series and random() in large batches (nothing travels through the client), with the answers'
// secondary indexes built once at the end and the app's triggers set aside for the bulk insert. What those
// triggers would have written is written in the same transaction, so the database afterwards is the one the
// app's own writes would have left: every case's answers version moved once, every free text noted for
// counting, the survey's statistics counter moved. One transaction: a kept database never holds half a seed.
import pg from "pg";

/** Cases per answer statement (about 52 rows each): long enough to be cheap, short enough to show progress. */
const CASE_BATCH = 50_000;

const WORDS =
  "Atemnot Husten Schwindel Müdigkeit Ödeme Herzrasen Schlaf besser schlechter Treppe Nacht Belastung Schmerzen Brust Beine Appetit Gewicht Tabletten Arzt Kontrolle";

/**
 * One batch of cases' answer rows, with the distributions of the JavaScript seed (answersOf in
 * statistics-seed.ts): a single selection picks one of 5 options, a multiple selection one and, every
 * second time, another; a number 40 to 120 in quarters; a date-time in 2024 on the quarter hour; a free text
 * every second time, "Seit gestern" and 3 to 8 of the 20 words. r1 to r3 are drawn once per case and question
 * (the `offset 0` keeps the planner from copying random() into every use).
 */
const ANSWERS = `
  insert into question_responses (survey_id, patient_data_id, question_id, answer_option_id, text_response,
    numerical_response, date_time_response, created_at, updated_at)
  select $1, case_id, question_id,
    case when type = 1 or (type = 2 and k = 1) then opts[1 + floor(r1 * 5)::int]
         when type = 2 then opts[1 + (floor(r1 * 5)::int + 1 + floor(r3 * 4)::int) % 5] end,
    case when type = 5 then 'Seit gestern ' || (select string_agg(
      (string_to_array($4, ' '))[1 + floor(random() * 20)::int], ' ') from generate_series(1, 3 + floor(r2 * 6)::int)) end,
    case when type = 3 then round((40 + r1 * 80) * 4) / 4 end,
    case when type = 4 then to_char(timestamp '2024-01-01' + floor(r1 * 365) * interval '1 day'
      + floor(r2 * 96) * interval '15 minutes', 'YYYY-MM-DD"T"HH24:MI') end,
    closed_at, closed_at
  from (
    select d.*, generate_series(1, case when type = 2 and r2 < 0.5 then 2 when type = 5 and r3 >= 0.5 then 0 else 1 end) as k
    from (
      select pd.id as case_id, pd.closed_at, q.id as question_id, q.type, q.opts,
        random() as r1, random() as r2, random() as r3
      from patient_data pd cross join (
        select q.id, q.type, array(select o.id from answer_options o where o.question_id = q.id order by o.sort) as opts
        from questions q join categories c on c.id = q.category_id where q.survey_id = $1
        order by c.sort, q.sort) q
      where pd.survey_id = $1 and pd.id between $2 and $3
      offset 0) d) rows`;

/** Seeds `cases` closed cases and their answers into the survey; returns the answer rows written. */
export async function seedPostgresInDatabase(url: string, surveyId: number, cases: number): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const started = performance.now();
  const progress = (what: string) =>
    console.log(`postgres seed: ${what} after ${((performance.now() - started) / 1000).toFixed(0)} s`);
  try {
    await client.query("begin");
    await client.query("set local work_mem = '256MB'");
    await client.query("set local maintenance_work_mem = '1GB'");
    // The seed's rows are consistent by construction: neither the foreign keys' checks nor the app's triggers
    // run row by row (their effects follow below).
    await client.query("set local session_replication_role = replica");
    await client.query("select setseed(0.42)");
    const cased = await client.query<{ first: number; last: number }>(
      `with added as (
         insert into patient_data (survey_id, patient_id, state, created_at, modified_at, closed_at, answers_version)
         select $1, 'S' || i, 'Closed', to_char(t, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           to_char(t + interval '1 hour', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           to_char(t + interval '1 hour', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 1
         from generate_series(0, $2::int - 1) i, lateral (select timestamp '2024-01-01' + i * interval '1 minute' as t) x
         order by i returning id)
       select min(id) as first, max(id) as last from added`,
      [surveyId, cases],
    );
    const { first, last } = cased.rows[0];
    // The answers' indexes but the primary key, built once over all rows instead of row by row.
    const indexes = await client.query<{ name: string; definition: string }>(
      `select i.indexname as name, i.indexdef as definition from pg_indexes i
       where i.schemaname = current_schema() and i.tablename = 'question_responses'
         and i.indexname not in (select conname from pg_constraint where conrelid = 'question_responses'::regclass)`,
    );
    for (const index of indexes.rows) await client.query(`drop index ${pg.escapeIdentifier(index.name)}`);
    let rows = 0;
    for (let from = first; from <= last; from += CASE_BATCH) {
      const inserted = await client.query(ANSWERS, [surveyId, from, Math.min(last, from + CASE_BATCH - 1), WORDS]);
      rows += inserted.rowCount ?? 0;
      progress(`${rows.toLocaleString("en-US")} answer rows`);
    }
    for (const index of indexes.rows) await client.query(index.definition);
    progress(`answers' indexes built`);
    // What the triggers would have written (migrations 0009, 0010): the texts noted, the counter moved.
    await client.query(
      `insert into response_words_pending (response_id, survey_id)
       select id, survey_id from question_responses where survey_id = $1 and text_response is not null`,
      [surveyId],
    );
    await client.query("update statistics_versions set version = version + 1 where survey_id = $1", [surveyId]);
    await client.query("commit");
    for (const table of ["patient_data", "question_responses", "response_words_pending"])
      await client.query(`vacuum analyze ${table}`);
    progress("vacuumed and analysed");
    return rows;
  } catch (error) {
    await client.query("rollback").catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
