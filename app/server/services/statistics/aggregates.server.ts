import type { StatisticsFilters } from "~/domain/statistics";
import type { Question } from "~/domain/survey";
import { hasAnswerOptions, mayHoldSeveralOptions } from "~/domain/question-types";

import { shownCounts } from "./asked.server";
import { countedCases, countedCondition, splitCases } from "./cases.server";
import { keptCounts } from "./answer-counts.server";
import { countsOf, subtract, wordsAndFiles, type DateEnds, type QuestionKinds } from "./passes.server";
import { countedTotals, scoredQuestions } from "./totals.server";
import { countPendingWords } from "./words.server";
import type { Executor } from "~/server/db/types.server";

/** How many latest free-text answers each question's short list carries (12 slots, 11 shown). */
export const LATEST_TEXTS = 11;

export interface Aggregates {
  cases: number;
  /** question → answer option → answers */
  options: Map<number, Map<number, number>>;
  /** question → cases that answered it */
  answered: Map<number, number>;
  /** question → value → count (numbers) */
  numbers: Map<number, Map<number, number>>;
  /** question → day (YYYY-MM-DD) → date-times that day */
  dates: Map<number, Map<string, number>>;
  /** question → the sum of its date-times in seconds since 1970 (as if UTC) */
  dateSeconds: Map<number, number>;
  /** question → its earliest and latest date-time */
  dateEnds: Map<number, DateEnds>;
  /** question → latest answers */
  latestTexts: Map<number, { PatientId: string; Response: string; DateTime: string }[]>;
  /** question → cloud word → uses (for the word cloud; empty when it is not wanted) */
  words: Map<number, Map<string, number>>;
  /** question → files */
  files: Map<number, number>;
  /** question with a Dependence → the counted cases it was shown to (empty when not asked for) */
  shown: Map<number, number>;
  /** A case's total score in ten-thousandths → the counted cases with it (empty without a total). */
  totals: Map<number, number>;
}

export interface AggregateOptions {
  /** Whether the word clouds are wanted (the words of texts not yet counted are counted first); default yes. */
  wordCloud?: boolean;
  /** Whether the cases each question was shown to are wanted (for its "not answered"); default yes. */
  notAnswered?: boolean;
  /** Forces one way of computing (the tests compare them); by default the share of counted cases decides. */
  path?: "subtract" | "cases";
  /**
   * Where the subtraction takes the survey's counts from: its kept answer counts (by default; decision 062)
   * or a count over all its answers (the tests compare them).
   */
  survey?: "kept" | "counted";
  /** Stops the work between its steps when aborted (the background warm-up, when the server stops). */
  signal?: AbortSignal;
  /**
   * A survey with a total score: answer option → its score in ten-thousandths (`optionScoreUnits`); the
   * counted cases' totals are read beside the other passes (totals.server.ts).
   */
  scores?: ReadonlyMap<number, number>;
}

/** The survey's questions (sub-questions included) by where their answers are stored. */
export function kindsOf(questions: readonly Question[]): QuestionKinds {
  const ids = (keep: (q: Question) => boolean) => questions.filter(keep).map((q) => q.Id);
  return {
    options: ids((q) => hasAnswerOptions(q.Type)),
    multiple: ids((q) => mayHoldSeveralOptions(q.Type)),
    numbers: ids((q) => q.Type === "Numerical"),
    dates: ids((q) => q.Type === "DateTime"),
    texts: ids((q) => q.Type === "FreeText"),
    files: ids((q) => q.AllowFileAttachments),
  };
}

/** The latest free-text answers of the counted cases, per question: read newest first, stopping at the list's size. */
async function latestTexts(db: Executor, surveyId: number, questions: number[], filters: StatisticsFilters) {
  const latest = (questionId: number) =>
    db
      .selectFrom(
        db
          .selectFrom("question_responses as qr")
          .innerJoin("patient_data as pd", "pd.id", "qr.patient_data_id")
          .select(["qr.id", "qr.question_id", "qr.text_response", "qr.updated_at", "pd.patient_id"])
          .where("qr.survey_id", "=", surveyId)
          .where("qr.question_id", "=", questionId)
          .where("qr.text_response", "is not", null)
          .where(countedCondition(db, filters))
          .orderBy("qr.updated_at", "desc")
          .orderBy("qr.id", "desc")
          .limit(LATEST_TEXTS)
          .as(`t${questionId}`),
      )
      .selectAll();
  if (questions.length === 0) return [];
  let query = latest(questions[0]);
  for (const id of questions.slice(1)) query = query.unionAll(latest(id));
  return query.execute();
}

/**
 * Each date-time question's earliest and latest answer among the counted cases: the question's rows read in
 * the order of their date-times from either end, stopping at the first counted case (at once when most
 * cases count, which is when this is asked).
 */
async function dateEndsOf(db: Executor, surveyId: number, questions: number[], filters: StatisticsFilters) {
  const end = (questionId: number, direction: "asc" | "desc") =>
    db
      .selectFrom(
        db
          .selectFrom("question_responses as qr")
          .innerJoin("patient_data as pd", "pd.id", "qr.patient_data_id")
          .select(["qr.question_id", "qr.date_time_response"])
          .where("qr.survey_id", "=", surveyId)
          .where("qr.question_id", "=", questionId)
          .where("qr.date_time_response", "is not", null)
          .where(countedCondition(db, filters))
          .orderBy("qr.date_time_response", direction)
          .limit(1)
          .as(`${direction}${questionId}`),
      )
      .selectAll();
  const out = new Map<number, DateEnds>();
  if (questions.length === 0) return out;
  let query = end(questions[0], "asc").unionAll(end(questions[0], "desc"));
  for (const id of questions.slice(1)) query = query.unionAll(end(id, "asc")).unionAll(end(id, "desc"));
  for (const r of await query.execute()) {
    const value = r.date_time_response!;
    const ends = out.get(r.question_id);
    if (!ends) out.set(r.question_id, { first: value, last: value });
    else {
      if (value < ends.first) ends.first = value;
      if (value > ends.last) ends.last = value;
    }
  }
  return out;
}

/**
 * Every figure the statistics need from the answers of the counted cases, one grouped query per kind of
 * figure for the whole survey (never one per question). When at least half of the survey's cases count,
 * the figures are those of all its answer rows, read from their kept counts (decision 062), less those of
 * the cases that do not count (Open ones and those the filters drop); when fewer count, they are read case
 * by case. Both give the same figures (docs/decisions/011-statistics.md).
 */
export async function aggregate(
  db: Executor,
  surveyId: number,
  questions: readonly Question[],
  filters: StatisticsFilters,
  options: AggregateOptions = {},
): Promise<Aggregates> {
  const wordCloud = options.wordCloud ?? true;
  const kinds = kindsOf(questions);
  if (wordCloud && kinds.texts.length > 0) await countPendingWords(db, surveyId, options.signal);
  options.signal?.throwIfAborted();
  const [split, latest, shown, totals] = await Promise.all([
    splitCases(db, surveyId, filters),
    latestTexts(db, surveyId, kinds.texts, filters),
    options.notAnswered === false ? new Map<number, number>() : shownCounts(db, surveyId, questions, filters),
    countedTotals(db, surveyId, scoredQuestions(questions, options.scores ?? new Map()), filters),
  ]);
  // The ids are those of the smaller side; a forced way that needs the other side reads it.
  const byCase = options.path ? options.path === "cases" : split.fewCounted;
  let ids = split.ids;
  if (byCase !== split.fewCounted) {
    const counted = (await countedCases(db, surveyId, filters).execute()).map((r) => r.id);
    if (byCase) ids = counted;
    else {
      const keep = new Set(counted);
      const every = await db.selectFrom("patient_data").select("id").where("survey_id", "=", surveyId).execute();
      ids = every.map((r) => r.id).filter((id) => !keep.has(id));
    }
  }
  const counts = byCase
    ? await countsOf(db, surveyId, kinds, { kind: "cases", ids }, wordCloud)
    : subtract(
        ...(await Promise.all([
          options.survey === "counted"
            ? countsOf(db, surveyId, kinds, { kind: "survey" }, wordCloud)
            : wordsAndFiles(db, surveyId, kinds, { kind: "survey" }, wordCloud).then((rest) =>
                keptCounts(db, surveyId, kinds, rest),
              ),
          countsOf(db, surveyId, kinds, { kind: "cases", ids }, wordCloud),
        ])),
      );

  // A subtraction cannot tell the ends of the date-times that remain: they are read for the counted cases.
  const dateEnds = byCase ? counts.dateEnds : await dateEndsOf(db, surveyId, [...counts.dates.keys()], filters);

  const answered = new Map(counts.optionCases);
  const sum = (values: Map<unknown, number>) => [...values.values()].reduce((a, b) => a + b, 0);
  const several = new Set(kinds.multiple);
  for (const [q, values] of counts.options) if (!several.has(q)) answered.set(q, sum(values));
  for (const [q, values] of counts.numbers) answered.set(q, sum(values));
  for (const [q, values] of counts.dates) answered.set(q, sum(values));
  for (const [q, n] of counts.textRows) answered.set(q, n);

  const out: Aggregates = {
    cases: split.counted,
    options: counts.options,
    answered,
    numbers: counts.numbers,
    dates: counts.dates,
    dateSeconds: counts.dateSeconds,
    dateEnds,
    latestTexts: new Map(),
    words: counts.words,
    files: counts.files,
    shown,
    totals,
  };
  // Each question's rows newest first (the union's order is not its parts' order).
  latest.sort((a, b) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : b.id - a.id));
  for (const r of latest) {
    const list = out.latestTexts.get(r.question_id) ?? [];
    list.push({ PatientId: r.patient_id, Response: r.text_response!, DateTime: r.updated_at });
    out.latestTexts.set(r.question_id, list);
  }
  return out;
}
