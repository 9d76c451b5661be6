import { sql, type RawBuilder } from "kysely";
import { schemaHelpers, type MigrationDb } from "./helpers";

/**
 * Each survey's answer counts over all its answer rows (docs/decisions/062-answer-counts.md), so that the
 * statistics of a large survey read a few hundred counts instead of grouping its millions of answers again.
 *
 * `answer_counts` holds, per survey and question, what the statistics' grouped passes count over every
 * answer row of the survey: the rows per answer option (kind `o`), the cases with an option chosen (`c`),
 * the rows per number (`n`), the date-time rows per day with the sum of their minutes into the day (`d`) and
 * the free-text rows (`t`). Triggers on `question_responses` note every change as signed counts in
 * `answer_count_changes`, in the writing statement's own transaction; only the statistics fold the notes into
 * the counts (answer-counts.server.ts). So a writer only ever inserts a note and never waits on a shared
 * count, and `answer_counts` plus the notes not yet folded always equals a count over the answers. The
 * answers of a survey being deleted are not noted: its counts go with it.
 */
export async function up(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);
  const columns = (table: string) =>
    db.schema
      .createTable(table)
      .addColumn("survey_id", "integer", (c) => c.notNull())
      .addColumn("question_id", "integer", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      // The key within the kind; 0 or '' where the kind has none.
      .addColumn("option_id", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("value", h.float, (c) => c.notNull().defaultTo(0))
      .addColumn("day", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("n", "integer", (c) => c.notNull())
      .addColumn("minutes", h.dialect === "postgres" ? "bigint" : "integer", (c) => c.notNull().defaultTo(0));
  await columns("answer_counts")
    .addForeignKeyConstraint("answer_counts_survey_fkey", ["survey_id"], "surveys", ["id"], (c) =>
      c.onDelete("cascade"),
    )
    .addPrimaryKeyConstraint("answer_counts_pkey", ["survey_id", "question_id", "kind", "option_id", "value", "day"])
    .$call(h.strict)
    .execute();
  // No key: the same count may change several times before it is folded.
  await columns("answer_count_changes").$call(h.strict).execute();
  await db.schema
    .createIndex("answer_count_changes_survey_idx")
    .on("answer_count_changes")
    .column("survey_id")
    .execute();

  // A date-time's minute of its day, from the stored "YYYY-MM-DDTHH:mm", as the statistics' pass reads it.
  // On PostgreSQL a value that is not two digits counts 0 (as SQLite casts it) rather than refusing the write.
  const minuteOfDay =
    h.dialect === "postgres"
      ? sql`(case when substr(r.date_time_response, 12, 2) ~ '^[0-9]{2}$' and substr(r.date_time_response, 15, 2) ~ '^[0-9]{2}$'
          then substr(r.date_time_response, 12, 2)::int * 60 + substr(r.date_time_response, 15, 2)::int else 0 end)`
      : sql`(cast(substr(r.date_time_response, 12, 2) as integer) * 60 + cast(substr(r.date_time_response, 15, 2) as integer))`;
  // SQLite's minute of the day of one trigger row (`new` or `old`).
  const minutes = (row: string) =>
    `(cast(substr(${row}.date_time_response, 12, 2) as integer) * 60 + cast(substr(${row}.date_time_response, 15, 2) as integer))`;
  // The counts of some signed answer rows (+1 added, -1 removed), inlined in each part (SQLite's triggers
  // take no WITH).
  const counts = (signed: RawBuilder<unknown>) => {
    const r = sql`(${signed}) r`;
    return sql`
      select survey_id, question_id, 'o' as kind, answer_option_id as option_id, 0 as value, '' as day,
        sum(sign) as n, 0 as minutes from ${r}
        where answer_option_id is not null group by survey_id, question_id, answer_option_id having sum(sign) <> 0
      union all
      select survey_id, question_id, 'n', 0, numerical_response, '', sum(sign), 0 from ${r}
        where numerical_response is not null group by survey_id, question_id, numerical_response having sum(sign) <> 0
      union all
      select survey_id, question_id, 'd', 0, 0, substr(date_time_response, 1, 10), sum(sign), sum(sign * ${minuteOfDay})
        from ${r} where date_time_response is not null
        group by survey_id, question_id, substr(date_time_response, 1, 10) having sum(sign) <> 0
      union all
      select survey_id, question_id, 't', 0, 0, '', sum(sign), 0 from ${r}
        where text_response is not null group by survey_id, question_id having sum(sign) <> 0`;
  };
  // A case's option rows of a question count as one: noted when its first option row comes or its last one
  // goes, which the question's rows as they are now tell (the per-case answer index).
  const answeringCases = (signed: RawBuilder<unknown>) => sql`
    select survey_id, question_id, 'c', 0, 0, '', sum(now_answered - before_answered), 0 from (
      select p.survey_id, p.question_id,
        case when p.now > 0 then 1 else 0 end as now_answered,
        case when p.now - p.change > 0 then 1 else 0 end as before_answered
      from (
        select g.survey_id, g.question_id, g.change, (select count(*) from question_responses q
            where q.patient_data_id = g.patient_data_id and q.question_id = g.question_id
            and q.answer_option_id is not null) as now
        from (select survey_id, patient_data_id, question_id, sum(sign) as change from (${signed}) r
          where answer_option_id is not null group by survey_id, patient_data_id, question_id) g
      ) p
    ) c group by survey_id, question_id having sum(now_answered - before_answered) <> 0`;
  const note = (signed: RawBuilder<unknown>) => sql`
    insert into answer_count_changes (survey_id, question_id, kind, option_id, value, day, n, minutes)
    ${counts(signed)} union all ${answeringCases(signed)}`;
  const rowColumns = sql.raw(
    "survey_id, patient_data_id, question_id, answer_option_id, numerical_response, date_time_response, text_response",
  );

  if (h.dialect === "postgres") {
    // Once per statement with the rows it added and removed: a batch of a thousand answers is one insert.
    const live = (table: string) =>
      sql.raw(`(select * from ${table} t where exists (select 1 from surveys s where s.id = t.survey_id))`);
    for (const [event, signed, referencing] of [
      ["insert", sql`select ${rowColumns}, 1 as sign from ${live("added")} a`, sql`new table as added`],
      ["delete", sql`select ${rowColumns}, -1 as sign from ${live("removed")} a`, sql`old table as removed`],
      [
        "update",
        sql`select ${rowColumns}, 1 as sign from ${live("added")} a union all select ${rowColumns}, -1 from ${live("removed")} b`,
        sql`new table as added old table as removed`,
      ],
    ] as const) {
      const fn = sql.id(`answer_counts_${event}`);
      await sql`create function ${fn}() returns trigger language plpgsql as $$
        begin ${note(signed)}; return null; end $$`.execute(db);
      await sql`create trigger ${sql.id(`question_responses_answer_counts_${event}`)} after ${sql.raw(event)}
        on question_responses referencing ${referencing} for each statement execute function ${fn}()`.execute(db);
    }
  } else {
    const row = (which: "new" | "old", sign: number) =>
      sql.raw(
        `select ${[
          "survey_id",
          "patient_data_id",
          "question_id",
          "answer_option_id",
          "numerical_response",
          "date_time_response",
          "text_response",
        ]
          .map((c) => `${which}.${c} as ${c}`)
          .join(", ")}, ${sign} as sign`,
      );
    const live = (which: "new" | "old") => sql.raw(`exists (select 1 from surveys s where s.id = ${which}.survey_id)`);
    // An added or removed row: one note per kind it holds, without grouping (a bulk insert runs this per row).
    // A removed row is gone when the trigger reads the case's other rows.
    const single = (which: "new" | "old", sign: number) => {
      const note = (kind: string, key: string, when: string) =>
        `select ${which}.survey_id, ${which}.question_id, '${kind}', ${key}, ${sign}, ${kind === "d" ? `${sign} * ${minutes(which)}` : "0"} where ${when}`;
      const chosen = `${which}.answer_option_id is not null`;
      const others = `not exists (select 1 from question_responses q where q.patient_data_id = ${which}.patient_data_id
        and q.question_id = ${which}.question_id and q.answer_option_id is not null and q.id <> ${which}.id)`;
      return sql.raw(`insert into answer_count_changes (survey_id, question_id, kind, option_id, value, day, n, minutes)
        ${[
          note("o", `${which}.answer_option_id, 0, ''`, chosen),
          note("c", `0, 0, ''`, `${chosen} and ${others}`),
          note("n", `0, ${which}.numerical_response, ''`, `${which}.numerical_response is not null`),
          note("d", `0, 0, substr(${which}.date_time_response, 1, 10)`, `${which}.date_time_response is not null`),
          note("t", `0, 0, ''`, `${which}.text_response is not null`),
        ].join(" union all ")}`);
    };
    await sql`create trigger question_responses_answer_counts_insert after insert on question_responses
      when ${live("new")} begin ${single("new", 1)}; end`.execute(db);
    await sql`create trigger question_responses_answer_counts_delete after delete on question_responses
      when ${live("old")} begin ${single("old", -1)}; end`.execute(db);
    await sql`create trigger question_responses_answer_counts_update after update on question_responses
      when ${live("new")} begin ${note(sql`${row("new", 1)} union all ${row("old", -1)}`)}; end`.execute(db);
  }

  // The counts of the answers given before.
  const all = sql`select ${rowColumns}, 1 as sign from question_responses`;
  await sql`insert into answer_counts (survey_id, question_id, kind, option_id, value, day, n, minutes)
    ${counts(all)}
    union all
    select survey_id, question_id, 'c', 0, 0, '', count(*), 0 from (
      select distinct survey_id, question_id, patient_data_id from question_responses where answer_option_id is not null
    ) c group by survey_id, question_id`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);
  for (const event of ["insert", "delete", "update"]) {
    if (h.dialect === "postgres")
      await sql`drop function if exists ${sql.id(`answer_counts_${event}`)}() cascade`.execute(db);
    else await sql`drop trigger if exists ${sql.id(`question_responses_answer_counts_${event}`)}`.execute(db);
  }
  await db.schema.dropTable("answer_count_changes").execute();
  await db.schema.dropTable("answer_counts").execute();
}
