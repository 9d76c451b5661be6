import { sql } from "kysely";
import {
  INDIVIDUAL_SCORES_LIMIT,
  isScoreChart,
  quantileOfCounts,
  RANGE_ENTRIES_LIMIT,
  type Chart,
  type ChartType,
  type PlotType,
} from "~/domain/dashboards";
import { roundTo } from "~/domain/statistics";
import type { Survey } from "~/domain/survey";
import { allQuestions } from "~/domain/visibility";
import { readBeside } from "~/server/db/db.server";
import { isScoredQuestion, maxScore } from "../statistics/figures.server";
import { aggregate } from "../statistics/aggregates.server";
import { countedCases, countedCondition } from "../statistics/cases.server";
import { correctWeights, dayFigures, latestScores, scoreCountsByOption, type ChartScope } from "./scores.server";

const cases = (s: ChartScope) => countedCases(s.db, s.surveyId, s.filters);

export interface ChartRow {
  id: number;
  chart_type: string;
  plot_type: string;
  attribute_id: number | null;
  question_id1: number | null;
  question_id2: number | null;
  sort: number;
}

type Series = Omit<Chart, "Id" | "ChartType" | "PlotType" | "AttributeId" | "QuestionId1" | "QuestionId2" | "Sort">;
const empty = (): Series => ({
  RangeEntries: [],
  RangeEntriesTotal: 0,
  ResponseCountsByDates: [],
  SurveyScoresByDates: [],
  AverageScoresByDates: [],
  ResponseCountsByPreQuestionOptions: [],
  ScorePlotByPreQuestionOptions: [],
  CategoryScores: [],
});

const maxTotal = (s: ChartScope) => s.testQuestions.reduce((sum, q) => sum + maxScore(q), 0);

async function individualScores(s: ChartScope): Promise<Series["SurveyScoresByDates"]> {
  const max = maxTotal(s);
  return (await latestScores(s, INDIVIDUAL_SCORES_LIMIT)).map((c) => ({
    PatientId: c.patientId,
    Date: c.closedAt.slice(0, 10),
    Score: c.score,
    MaxScore: max,
  }));
}

async function averageScores(s: ChartScope): Promise<Series["AverageScoresByDates"]> {
  return (await dayFigures(s, true)).map((d) => ({
    Date: d.Date,
    Count: d.Count,
    AverageScore: roundTo(d.ScoreSum / d.Count, 2),
  }));
}

function preAnswers(s: ChartScope, attributeId: number) {
  return s.db
    .selectFrom("attribute_responses as ar")
    .where("ar.attribute_id", "=", attributeId)
    .where("ar.patient_data_id", "in", cases(s));
}

async function countsByOption(s: ChartScope, survey: Survey, attributeId: number) {
  const rows = await preAnswers(s, attributeId)
    .select(["ar.answer_option_id", (eb) => eb.fn.countAll<number>().as("n")])
    .groupBy("ar.answer_option_id")
    .execute();
  const counts = new Map(rows.map((r) => [r.answer_option_id, Number(r.n)]));
  const attribute = survey.PatientForm.find((a) => a.Id === attributeId);
  return (attribute?.AnswerOptions ?? []).map((o) => ({
    OptionId: o.Id,
    OptionText: o.Text,
    Count: counts.get(o.Id) ?? 0,
  }));
}

async function scorePlot(s: ChartScope, survey: Survey, attributeId: number) {
  const byOption = await scoreCountsByOption(s, attributeId);
  const attribute = survey.PatientForm.find((a) => a.Id === attributeId);
  return (attribute?.AnswerOptions ?? []).map((o) => {
    const counts = byOption.get(o.Id) ?? [];
    const total = counts.reduce((sum, c) => sum + c.n, 0);
    const q = (p: number) => {
      const v = quantileOfCounts(counts, p);
      return v === null ? null : roundTo(v, 2);
    };
    return {
      OptionId: o.Id,
      OptionText: o.Text,
      Count: total,
      Min: q(0),
      Q1: q(0.25),
      Median: q(0.5),
      Q3: q(0.75),
      Max: q(1),
    };
  });
}

/** Each scored category: the sum of its answered test questions' average scores against the sum of their maxima. */
async function categoryScores(s: ChartScope, survey: Survey) {
  if (s.testQuestions.length === 0) return [];
  // The option counts and answering cases of the test questions, as the results tab computes them.
  const figures = await aggregate(s.db, s.surveyId, s.testQuestions, s.filters, {
    wordCloud: false,
    notAnswered: false,
  });
  const weights = correctWeights(s);
  const sum = new Map<number, number>();
  for (const [question, counts] of figures.options) {
    let total = 0;
    for (const [option, n] of counts) total += n * (weights.get(option) ?? 0);
    sum.set(question, total);
  }
  const n = figures.answered;
  return survey.Categories.flatMap((c) => {
    const tests = allQuestions(c.Questions).filter(isScoredQuestion);
    if (tests.length === 0) return [];
    const done = tests.filter((q) => (n.get(q.Id) ?? 0) > 0);
    const actual = done.reduce((a, q) => a + (sum.get(q.Id) ?? 0) / n.get(q.Id)!, 0);
    const max = (done.length > 0 ? done : tests).reduce((a, q) => a + maxScore(q), 0);
    return [{ CategoryId: c.Id, CategoryText: c.Title, ActualScore: roundTo(actual, 2), MaxScore: max }];
  });
}

/**
 * The counted cases that answered both questions, paired in the database (one grouped pass over the two
 * questions' answers), the first ones in closing order listed and all of them counted.
 */
async function rangeEntries(s: ChartScope, type: "NumericalRange" | "DateTimeRange", q1: number, q2: number) {
  const column = type === "NumericalRange" ? "numerical_response" : "date_time_response";
  const value = sql.ref(`qr.${column}`);
  const pairs = s.db
    .selectFrom("question_responses as qr")
    .select([
      "qr.patient_data_id",
      sql<string | number>`max(case when qr.question_id = ${q1} then ${value} end)`.as("v1"),
      sql<string | number>`max(case when qr.question_id = ${q2} then ${value} end)`.as("v2"),
    ])
    .where("qr.survey_id", "=", s.surveyId)
    .where("qr.question_id", "in", [q1, q2])
    .where(`qr.${column}`, "is not", null)
    .groupBy("qr.patient_data_id");
  const rows = await readBeside(
    s.db,
    s.db
      .selectFrom(pairs.as("p"))
      .innerJoin("patient_data as pd", "pd.id", "p.patient_data_id")
      .select(["pd.patient_id", "p.v1", "p.v2", sql<number>`count(*) over ()`.as("total")])
      .where("pd.survey_id", "=", s.surveyId)
      .where(countedCondition(s.db, s.filters))
      .where("p.v1", "is not", null)
      .where("p.v2", "is not", null)
      .orderBy("pd.closed_at")
      .orderBy("pd.id")
      .limit(RANGE_ENTRIES_LIMIT),
  );
  const asValue = (v: string | number) => (type === "NumericalRange" ? Number(v) : String(v));
  return {
    RangeEntries: rows.map((r) => ({
      PatientId: r.patient_id,
      Question1Value: asValue(r.v1),
      Question2Value: asValue(r.v2),
    })),
    RangeEntriesTotal: rows.length > 0 ? Number(rows[0].total) : 0,
  };
}

/** The series a chart's type draws, under the scope's filters; the others stay empty. */
async function seriesOf(s: ChartScope, survey: Survey, row: ChartRow, type: ChartType): Promise<Series> {
  const series = empty();
  // Without a scored question every case scores 0: such a chart says so (HasScoredQuestions) and reads nothing.
  if (isScoreChart(type) && s.testQuestions.length === 0) return series;
  const attribute = row.attribute_id;
  if (type === "SurveyResponsesOverTime")
    series.ResponseCountsByDates = (await dayFigures(s, false)).map((d) => ({ Date: d.Date, Count: d.Count }));
  if (type === "IndividualSurveyScores") series.SurveyScoresByDates = await individualScores(s);
  if (type === "ScoreResultsOverTime") series.AverageScoresByDates = await averageScores(s);
  if (type === "AmountPerPreQuestion" && attribute)
    series.ResponseCountsByPreQuestionOptions = await countsByOption(s, survey, attribute);
  if (type === "ScorePlotPerPreQuestion" && attribute)
    series.ScorePlotByPreQuestionOptions = await scorePlot(s, survey, attribute);
  if (type === "CategoryWithActualAndMaxScores") series.CategoryScores = await categoryScores(s, survey);
  if ((type === "NumericalRange" || type === "DateTimeRange") && row.question_id1 && row.question_id2)
    Object.assign(series, await rangeEntries(s, type, row.question_id1, row.question_id2));
  return series;
}

/** The data series of one chart under the scope's filters; only the series its chart type draws are filled. */
export async function chartData(s: ChartScope, survey: Survey, row: ChartRow): Promise<Chart> {
  const type = row.chart_type as ChartType;
  return {
    Id: row.id,
    ChartType: type,
    PlotType: row.plot_type as PlotType,
    AttributeId: row.attribute_id,
    QuestionId1: row.question_id1,
    QuestionId2: row.question_id2,
    Sort: row.sort,
    ...(await seriesOf(s, survey, row, type)),
  };
}
