import { sql } from "kysely";
import { schemaHelpers, type MigrationDb } from "./helpers";

/**
 * Each free-text question's cloud words over all its answers (docs/decisions/030-question-words.md), so that
 * a survey's word cloud reads a few hundred words instead of grouping every answer's words again.
 *
 * `question_words` holds the sum of `response_words` per survey, question and word. Only the counting of
 * noted texts (words.server.ts) writes it: it adds the words it inserts, and it folds in
 * `response_words_gone`, where a trigger notes every word row that leaves `response_words` (a changed or
 * removed answer, a removed case or question), in the deleting statement's own transaction. So a writer
 * only ever inserts a note and never waits on a shared total, and `question_words` less the notes not yet
 * folded always equals the sum of `response_words`. The words of a survey being deleted are not noted:
 * its totals go with it.
 */
export async function up(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);
  await db.schema
    .createTable("question_words")
    .addColumn("survey_id", "integer", (c) => c.notNull().references("surveys.id").onDelete("cascade"))
    .addColumn("question_id", "integer", (c) => c.notNull())
    .addColumn("word", "text", (c) => c.notNull())
    .addColumn("n", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("question_words_pkey", ["survey_id", "question_id", "word"])
    .$call(h.strict)
    .execute();
  // No key: the same word of the same question may leave several times before it is folded.
  await db.schema
    .createTable("response_words_gone")
    .addColumn("survey_id", "integer", (c) => c.notNull())
    .addColumn("question_id", "integer", (c) => c.notNull())
    .addColumn("word", "text", (c) => c.notNull())
    .addColumn("n", "integer", (c) => c.notNull())
    .$call(h.strict)
    .execute();
  await db.schema.createIndex("response_words_gone_survey_idx").on("response_words_gone").column("survey_id").execute();

  if (h.dialect === "postgres") {
    // Once per statement with the rows it removed: a batch of a thousand answers is one insert.
    await sql`create function response_words_gone_note() returns trigger language plpgsql as $$
      begin
        insert into response_words_gone (survey_id, question_id, word, n)
          select g.survey_id, g.question_id, g.word, sum(g.n) from gone g
          where exists (select 1 from surveys s where s.id = g.survey_id)
          group by g.survey_id, g.question_id, g.word;
        return null;
      end $$`.execute(db);
    await sql`create trigger response_words_gone_note after delete on response_words
      referencing old table as gone for each statement execute function response_words_gone_note()`.execute(db);
  } else {
    await sql`create trigger response_words_gone_note after delete on response_words
      when exists (select 1 from surveys s where s.id = old.survey_id)
      begin
        insert into response_words_gone (survey_id, question_id, word, n)
          values (old.survey_id, old.question_id, old.word, old.n);
      end`.execute(db);
  }
  // The words counted before.
  await sql`insert into question_words (survey_id, question_id, word, n)
    select survey_id, question_id, word, sum(n) from response_words group by survey_id, question_id, word`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  const h = schemaHelpers(db);
  if (h.dialect === "postgres") await sql`drop function if exists response_words_gone_note() cascade`.execute(db);
  else await sql`drop trigger if exists response_words_gone_note`.execute(db);
  await db.schema.dropTable("response_words_gone").execute();
  await db.schema.dropTable("question_words").execute();
}
