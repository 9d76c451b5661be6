import { sql } from "kysely";
import type { StatisticsFilters } from "~/domain/statistics";
import type { Executor } from "../survey-access.server";
import { countedCases } from "./cases.server";

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
  /** question → stored date-time → count */
  dates: Map<number, Map<string, number>>;
  /** question → latest answers */
  latestTexts: Map<number, { PatientId: string; Response: string; DateTime: string }[]>;
  /** question → every text (for the word cloud) */
  texts: Map<number, string[]>;
  /** question → files */
  files: Map<number, number>;
}

function nested<K, V>(map: Map<number, Map<K, V>>, key: number) {
  let inner = map.get(key);
  if (!inner) map.set(key, (inner = new Map()));
  return inner;
}

/**
 * Every figure the statistics need from the answers of the counted cases, one grouped query per kind of
 * figure for the whole survey (never one per question), reading the statistics indexes.
 */
export async function aggregate(db: Executor, surveyId: number, filters: StatisticsFilters): Promise<Aggregates> {
  const cases = () => countedCases(db, surveyId, filters);
  const answers = () =>
    db
      .selectFrom("question_responses as qr")
      .where("qr.survey_id", "=", surveyId)
      .where("qr.patient_data_id", "in", cases());

  const [count, optionRows, answeredRows, numberRows, dateRows, latestRows, textRows, fileRows] = await Promise.all([
    db
      .selectFrom(cases().as("c"))
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
    answers()
      .select(["qr.question_id", "qr.answer_option_id", (eb) => eb.fn.countAll<number>().as("n")])
      .where("qr.answer_option_id", "is not", null)
      .groupBy(["qr.question_id", "qr.answer_option_id"])
      .execute(),
    answers()
      .select(["qr.question_id", (eb) => eb.fn.count<number>("qr.patient_data_id").distinct().as("n")])
      .groupBy("qr.question_id")
      .execute(),
    answers()
      .select(["qr.question_id", "qr.numerical_response", (eb) => eb.fn.countAll<number>().as("n")])
      .where("qr.numerical_response", "is not", null)
      .groupBy(["qr.question_id", "qr.numerical_response"])
      .execute(),
    answers()
      .select(["qr.question_id", "qr.date_time_response", (eb) => eb.fn.countAll<number>().as("n")])
      .where("qr.date_time_response", "is not", null)
      .groupBy(["qr.question_id", "qr.date_time_response"])
      .execute(),
    db
      .selectFrom(
        answers()
          .innerJoin("patient_data as p", "p.id", "qr.patient_data_id")
          .select([
            "qr.question_id",
            "qr.text_response",
            "qr.updated_at",
            "p.patient_id",
            sql<number>`row_number() over (partition by qr.question_id order by qr.updated_at desc, qr.id desc)`.as(
              "rank",
            ),
          ])
          .where("qr.text_response", "is not", null)
          .as("t"),
      )
      .selectAll()
      .where("t.rank", "<=", LATEST_TEXTS)
      .orderBy("t.question_id")
      .orderBy("t.rank")
      .execute(),
    answers().select(["qr.question_id", "qr.text_response"]).where("qr.text_response", "is not", null).execute(),
    db
      .selectFrom("file_attachments")
      .select(["question_id", (eb) => eb.fn.countAll<number>().as("n")])
      .where("survey_id", "=", surveyId)
      .where("patient_data_id", "in", cases())
      .groupBy("question_id")
      .execute(),
  ]);

  const out: Aggregates = {
    cases: Number(count.n),
    options: new Map(),
    answered: new Map(answeredRows.map((r) => [r.question_id, Number(r.n)])),
    numbers: new Map(),
    dates: new Map(),
    latestTexts: new Map(),
    texts: new Map(),
    files: new Map(fileRows.map((r) => [r.question_id, Number(r.n)])),
  };
  for (const r of optionRows) nested(out.options, r.question_id).set(r.answer_option_id!, Number(r.n));
  for (const r of numberRows) nested(out.numbers, r.question_id).set(Number(r.numerical_response), Number(r.n));
  for (const r of dateRows) nested(out.dates, r.question_id).set(r.date_time_response!, Number(r.n));
  for (const r of latestRows) {
    const list = out.latestTexts.get(r.question_id) ?? [];
    list.push({ PatientId: r.patient_id, Response: r.text_response!, DateTime: r.updated_at });
    out.latestTexts.set(r.question_id, list);
  }
  for (const r of textRows) {
    const list = out.texts.get(r.question_id) ?? [];
    list.push(r.text_response!);
    out.texts.set(r.question_id, list);
  }
  return out;
}
