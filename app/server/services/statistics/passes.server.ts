import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from "kysely";
import { dialectOf, readBeside } from "~/server/db/db.server";
import type { Executor } from "~/server/db/types.server";

/** The survey's questions by the column their answers are stored in. */
export interface QuestionKinds {
  /** Questions answered by choosing options (one row per chosen option). */
  options: number[];
  /**
   * Those of them that may have more than one option chosen. The others have one row per answering case
   * (the answer writers keep it so), which their option counts add up to.
   */
  multiple: number[];
  numbers: number[];
  dates: number[];
  texts: number[];
  /** Questions with file attachments. */
  files: number[];
}

/**
 * Whose answers a pass reads: every answer row of the survey (the statistics indexes alone), or the rows
 * of some cases. Cases are an id subquery, or a list of ids that travels as one JSON parameter.
 */
export type Scope = { kind: "survey" } | { kind: "cases"; ids: number[] };

/** Additive figures over the answer rows of one scope: they can be summed and subtracted. */
export interface Counts {
  /** question → answer option → rows */
  options: Map<number, Map<number, number>>;
  /** question → distinct cases among its option rows (questions that take several options) */
  optionCases: Map<number, number>;
  /** question → value → rows */
  numbers: Map<number, Map<number, number>>;
  /** question → day (YYYY-MM-DD) → date-time rows of that day */
  dates: Map<number, Map<string, number>>;
  /** question → its date-times' sum in seconds since 1970 (as if UTC), for their average */
  dateSeconds: Map<number, number>;
  /**
   * question → earliest and latest date-time of the scope's rows. Not additive (a subtraction cannot tell
   * whether the earliest row went with the cases taken away), so read anew for the counted cases.
   */
  dateEnds: Map<number, DateEnds>;
  /** question → cloud word → uses in the scope's texts (only when the word clouds are wanted) */
  words: Map<number, Map<string, number>>;
  /** question → text rows */
  textRows: Map<number, number>;
  /** question → files */
  files: Map<number, number>;
}

/** A question's earliest and latest stored date-time ("YYYY-MM-DDTHH:mm"). */
export interface DateEnds {
  first: string;
  last: string;
}

export function emptyCounts(): Counts {
  return {
    options: new Map(),
    optionCases: new Map(),
    numbers: new Map(),
    dates: new Map(),
    dateSeconds: new Map(),
    dateEnds: new Map(),
    words: new Map(),
    textRows: new Map(),
    files: new Map(),
  };
}

function nested<K, V>(map: Map<number, Map<K, V>>, key: number) {
  let inner = map.get(key);
  if (!inner) map.set(key, (inner = new Map()));
  return inner;
}

/** A list in two (the first half the longer). */
function halves<T>(list: T[]): T[][] {
  const middle = Math.ceil(list.length / 2);
  return [list.slice(0, middle), list.slice(middle)];
}

/** `column in (ids)` with the ids as one JSON parameter, however many there are. */
export function inIdList(db: Executor, column: string, ids: readonly (number | string)[]): Expression<SqlBool> {
  const list = JSON.stringify(ids);
  return dialectOf(db) === "postgres"
    ? sql<SqlBool>`${sql.ref(column)} in (select (jsonb_array_elements_text(${list}::jsonb))::int)`
    : sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${list}))`;
}

/**
 * The grouped passes over one scope, one query per kind of figure for the whole survey. Each pass names
 * the questions of its kind, so that it reads only their ranges of the covering statistics index (over
 * the survey) or only the scope's cases (through the per-case answer index).
 */
export async function countsOf(
  db: Executor,
  surveyId: number,
  kinds: QuestionKinds,
  scope: Scope,
  withWords: boolean,
): Promise<Counts> {
  const out = emptyCounts();
  if (scope.kind === "cases" && scope.ids.length === 0) return out;
  const rows = (questions: number[]) => {
    const query = db.selectFrom("question_responses as qr");
    if (scope.kind === "survey") {
      return query.where("qr.survey_id", "=", surveyId).where("qr.question_id", "in", questions);
    }
    // A few cases: read through the per-case answer index. The unary plus keeps the planners off the
    // statistics indexes, which would read every row of the questions and check each one's case.
    return query
      .where(sql<SqlBool>`+qr.survey_id = ${surveyId}`)
      .where(sql<SqlBool>`+qr.question_id in (${sql.join(questions)})`)
      .where(inIdList(db, "qr.patient_data_id", scope.ids));
  };
  const none = Promise.resolve([]);
  type Rows = ReturnType<typeof rows>;
  // Over the survey, one grouped query per question, joined by UNION ALL: each reads its question's range
  // of the index in order and groups as it goes (given an IN list, PostgreSQL hashed every row instead,
  // spilling to disk). Over a few cases, one query for all the questions, driven by the cases.
  const grouped = <O>(questions: number[], make: (rows: Rows) => SelectQueryBuilder<never, never, O>) => {
    if (questions.length === 0) return Promise.resolve([] as O[]);
    if (scope.kind === "cases") return readBeside(db, make(rows(questions)));
    let query = make(rows([questions[0]]));
    for (const id of questions.slice(1)) query = query.unionAll(make(rows([id])));
    return readBeside(db, query);
  };
  // Each question's distinct cases on its own, so that the case index is read in its order and nothing
  // is sorted; one statement for all of them.
  const answeringCases = (questions: number[]) => {
    const one = (questionId: number) =>
      db
        .selectFrom(
          rows([questionId])
            .select("qr.patient_data_id")
            .distinct()
            .where("qr.answer_option_id", "is not", null)
            .as(`c${questionId}`),
        )
        .select([sql<number>`${sql.lit(questionId)}`.as("question_id"), (eb) => eb.fn.countAll<number>().as("n")]);
    let query = one(questions[0]);
    for (const id of questions.slice(1)) query = query.unionAll(one(id));
    return readBeside(db, query);
  };
  // A date-time's minute of its day, from the stored "YYYY-MM-DDTHH:mm" (cheaper than a date parse).
  const minuteOfDay =
    dialectOf(db) === "postgres"
      ? sql<number>`(substr(v.value, 12, 2)::int * 60 + substr(v.value, 15, 2)::int)`
      : sql<number>`(cast(substr(v.value, 12, 2) as integer) * 60 + cast(substr(v.value, 15, 2) as integer))`;
  const [optionRows, caseRows, numberRows, dateRows, textRows, wordRows, fileRows] = await Promise.all([
    // The largest pass over the survey in two halves that can run at the same time (over a few cases each
    // half would read every answer of the cases again).
    Promise.all(
      (scope.kind === "survey" ? halves(kinds.options) : [kinds.options]).map((part) =>
        grouped(part, (r) =>
          r
            .select(["qr.question_id", "qr.answer_option_id", (eb) => eb.fn.countAll<number>().as("n")])
            .where("qr.answer_option_id", "is not", null)
            .groupBy(["qr.question_id", "qr.answer_option_id"]),
        ),
      ),
    ).then((parts) => parts.flat()),
    kinds.multiple.length ? answeringCases(kinds.multiple) : none,
    grouped(kinds.numbers, (r) =>
      r
        .select(["qr.question_id", "qr.numerical_response", (eb) => eb.fn.countAll<number>().as("n")])
        .where("qr.numerical_response", "is not", null)
        .groupBy(["qr.question_id", "qr.numerical_response"]),
    ),
    // Grouped by value first (in the index's order, nothing sorted), then by day: a question's date-times
    // may have as many values as answers, and only the days are listed.
    grouped(kinds.dates, (r) =>
      db
        .selectFrom(
          r
            .select(["qr.question_id", "qr.date_time_response as value", (eb) => eb.fn.countAll<number>().as("n")])
            .where("qr.date_time_response", "is not", null)
            .groupBy(["qr.question_id", "qr.date_time_response"])
            .as("v"),
        )
        .select((eb) => [
          "v.question_id",
          sql<string>`substr(v.value, 1, 10)`.as("day"),
          eb.fn.sum<number>("v.n").as("n"),
          sql<number>`sum(v.n * ${minuteOfDay})`.as("minutes"),
          eb.fn.min<string>("v.value").as("first"),
          eb.fn.max<string>("v.value").as("last"),
        ])
        .groupBy(["v.question_id", sql`substr(v.value, 1, 10)`]),
    ),
    kinds.texts.length
      ? readBeside(
          db,
          rows(kinds.texts)
            .select(["qr.question_id", (eb) => eb.fn.countAll<number>().as("n")])
            .where("qr.text_response", "is not", null)
            .groupBy("qr.question_id"),
        )
      : none,
    withWords && kinds.texts.length ? wordsOf(db, surveyId, kinds.texts, scope) : none,
    filesOf(db, surveyId, kinds.files, scope),
  ]);
  for (const r of optionRows) nested(out.options, r.question_id).set(r.answer_option_id!, Number(r.n));
  for (const r of caseRows) out.optionCases.set(r.question_id, Number(r.n));
  for (const r of numberRows) nested(out.numbers, r.question_id).set(Number(r.numerical_response), Number(r.n));
  for (const r of dateRows) {
    nested(out.dates, r.question_id).set(r.day, Number(r.n));
    // Seconds since 1970: the day's start for each answer, and each answer's minutes into its day.
    const seconds = (Date.parse(`${r.day}T00:00:00Z`) / 1000) * Number(r.n) + Number(r.minutes) * 60;
    out.dateSeconds.set(r.question_id, (out.dateSeconds.get(r.question_id) ?? 0) + seconds);
    const ends = out.dateEnds.get(r.question_id);
    if (!ends) out.dateEnds.set(r.question_id, { first: r.first, last: r.last });
    else {
      if (r.first < ends.first) ends.first = r.first;
      if (r.last > ends.last) ends.last = r.last;
    }
  }
  for (const r of textRows) out.textRows.set(r.question_id, Number(r.n));
  for (const r of wordRows) nested(out.words, r.question_id).set(r.word, Number(r.n));
  for (const r of fileRows) out.files.set(r.question_id, Number(r.n));
  return out;
}

/** The word clouds' and the files' counts over one scope (those of `countsOf` that the kept counts leave out). */
export async function wordsAndFiles(
  db: Executor,
  surveyId: number,
  kinds: QuestionKinds,
  scope: Scope,
  withWords: boolean,
): Promise<Pick<Counts, "words" | "files">> {
  const [wordRows, fileRows] = await Promise.all([
    withWords && kinds.texts.length ? wordsOf(db, surveyId, kinds.texts, scope) : [],
    filesOf(db, surveyId, kinds.files, scope),
  ]);
  const out: Pick<Counts, "words" | "files"> = { words: new Map(), files: new Map() };
  for (const r of wordRows) nested(out.words, r.question_id).set(r.word, Number(r.n));
  for (const r of fileRows) out.files.set(r.question_id, Number(r.n));
  return out;
}

/** Files per question over one scope. */
async function filesOf(db: Executor, surveyId: number, questions: number[], scope: Scope) {
  if (questions.length === 0 || (scope.kind === "cases" && scope.ids.length === 0)) return [];
  return (
    scope.kind === "cases"
      ? db.selectFrom("file_attachments").where(inIdList(db, "patient_data_id", scope.ids))
      : db.selectFrom("file_attachments")
  )
    .select(["question_id", (eb) => eb.fn.countAll<number>().as("n")])
    .where("survey_id", "=", surveyId)
    .where("question_id", "in", questions)
    .groupBy("question_id")
    .execute();
}

/**
 * The word clouds' counts over one scope: over the survey, each question's totals (`question_words`, kept
 * by words.server.ts: a few hundred rows however many texts); over some cases, their words counted per
 * answer (`response_words`) through the per-case index.
 */
function wordsOf(db: Executor, surveyId: number, questions: number[], scope: Scope) {
  if (scope.kind === "survey") {
    return readBeside(
      db,
      db
        .selectFrom("question_words")
        .select(["question_id", "word", "n"])
        .where("survey_id", "=", surveyId)
        .where("question_id", "in", questions),
    );
  }
  return readBeside(
    db,
    db
      .selectFrom("response_words as rw")
      .select(["rw.question_id", "rw.word", (eb) => eb.fn.sum<number>("rw.n").as("n")])
      .where(inIdList(db, "rw.patient_data_id", scope.ids))
      .where(sql<SqlBool>`+rw.survey_id = ${surveyId}`)
      .where(sql<SqlBool>`+rw.question_id in (${sql.join(questions)})`)
      .groupBy(["rw.question_id", "rw.word"]),
  );
}

function minusEach<K>(all: Map<number, Map<K, number>>, part: Map<number, Map<K, number>>) {
  for (const [question, values] of part) {
    const from = all.get(question);
    if (!from) continue;
    for (const [key, n] of values) {
      const left = (from.get(key) ?? 0) - n;
      if (left > 0) from.set(key, left);
      else from.delete(key);
    }
    if (from.size === 0) all.delete(question);
  }
}

function minus(all: Map<number, number>, part: Map<number, number>) {
  for (const [question, n] of part) {
    const left = (all.get(question) ?? 0) - n;
    if (left > 0) all.set(question, left);
    else all.delete(question);
  }
}

/**
 * The survey's counts less those of some of its cases (a part of the same rows), in place. The date-times'
 * ends are not additive: they are left empty for the caller to read over the cases that remain.
 */
export function subtract(all: Counts, part: Counts): Counts {
  minusEach(all.options, part.options);
  minus(all.optionCases, part.optionCases);
  minusEach(all.numbers, part.numbers);
  minusEach(all.dates, part.dates);
  // A sum of seconds may be zero or below (dates before 1970): kept while the question has dates left.
  for (const [question, seconds] of part.dateSeconds) {
    if (all.dates.has(question)) all.dateSeconds.set(question, (all.dateSeconds.get(question) ?? 0) - seconds);
    else all.dateSeconds.delete(question);
  }
  all.dateEnds.clear();
  minusEach(all.words, part.words);
  minus(all.textRows, part.textRows);
  minus(all.files, part.files);
  return all;
}
