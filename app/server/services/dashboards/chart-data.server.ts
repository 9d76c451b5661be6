import {
  INDIVIDUAL_SCORES_LIMIT,
  quantile,
  RANGE_ENTRIES_LIMIT,
  type Chart,
  type ChartType,
  type PlotType,
} from "~/domain/dashboards";
import { roundTo } from "~/domain/statistics";
import type { Survey } from "~/domain/survey";
import { allQuestions } from "~/domain/visibility";
import { maxScore } from "../statistics/figures.server";
import { aggregate } from "../statistics/aggregates.server";
import { countedCases } from "../statistics/cases.server";
import {
  caseScores,
  casesByClosing,
  correctWeights,
  countsByDay,
  scoreSumsByDay,
  type ChartScope,
} from "./scores.server";

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
  const latest = (await casesByClosing(s)).slice(-INDIVIDUAL_SCORES_LIMIT);
  const scores = await caseScores(s);
  const max = maxTotal(s);
  return latest.map((c) => ({
    PatientId: c.patientId,
    Date: c.closedAt.slice(0, 10),
    Score: scores.get(c.id) ?? 0,
    MaxScore: max,
  }));
}

async function averageScores(s: ChartScope): Promise<Series["AverageScoresByDates"]> {
  const [counts, sums] = await Promise.all([countsByDay(s), scoreSumsByDay(s)]);
  return counts.map((c) => ({
    Date: c.Date,
    Count: c.Count,
    AverageScore: roundTo((sums.get(c.Date) ?? 0) / c.Count, 2),
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
  const [rows, scores] = await Promise.all([
    preAnswers(s, attributeId).select(["ar.patient_data_id", "ar.answer_option_id"]).execute(),
    caseScores(s),
  ]);
  const byOption = new Map<number, number[]>();
  for (const r of rows) {
    const list = byOption.get(r.answer_option_id) ?? [];
    list.push(scores.get(r.patient_data_id) ?? 0);
    byOption.set(r.answer_option_id, list);
  }
  const attribute = survey.PatientForm.find((a) => a.Id === attributeId);
  return (attribute?.AnswerOptions ?? []).map((o) => {
    const sorted = (byOption.get(o.Id) ?? []).sort((a, b) => a - b);
    const q = (p: number) => {
      const v = quantile(sorted, p);
      return v === null ? null : roundTo(v, 2);
    };
    return {
      OptionId: o.Id,
      OptionText: o.Text,
      Count: sorted.length,
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
  const figures = await aggregate(s.db, s.surveyId, s.testQuestions, s.filters, { wordCloud: false });
  const weights = correctWeights(s);
  const sum = new Map<number, number>();
  for (const [question, counts] of figures.options) {
    let total = 0;
    for (const [option, n] of counts) total += n * (weights.get(option) ?? 0);
    sum.set(question, total);
  }
  const n = figures.answered;
  return survey.Categories.flatMap((c) => {
    const tests = allQuestions(c.Questions).filter((q) => q.IsTestQuestion && maxScore(q) > 0);
    if (tests.length === 0) return [];
    const done = tests.filter((q) => (n.get(q.Id) ?? 0) > 0);
    const actual = done.reduce((a, q) => a + (sum.get(q.Id) ?? 0) / n.get(q.Id)!, 0);
    const max = (done.length > 0 ? done : tests).reduce((a, q) => a + maxScore(q), 0);
    return [{ CategoryId: c.Id, CategoryText: c.Title, ActualScore: roundTo(actual, 2), MaxScore: max }];
  });
}

async function rangeEntries(s: ChartScope, type: "NumericalRange" | "DateTimeRange", q1: number, q2: number) {
  const column = type === "NumericalRange" ? "numerical_response" : "date_time_response";
  // The two questions' answers, paired per case in memory along the counted cases' closing order.
  const [answers, counted] = await Promise.all([
    s.db
      .selectFrom("question_responses as qr")
      .select(["qr.patient_data_id", "qr.question_id", `qr.${column} as v`])
      .where("qr.survey_id", "=", s.surveyId)
      .where("qr.question_id", "in", [q1, q2])
      .where(`qr.${column}`, "is not", null)
      .execute(),
    casesByClosing(s),
  ]);
  const first = new Map<number, unknown>();
  const second = new Map<number, unknown>();
  for (const a of answers) {
    if (a.question_id === q1) first.set(a.patient_data_id, a.v);
    if (a.question_id === q2) second.set(a.patient_data_id, a.v);
  }
  const value = (v: unknown) => (type === "NumericalRange" ? Number(v) : String(v));
  const entries: Series["RangeEntries"] = [];
  let total = 0;
  for (const c of counted) {
    if (!first.has(c.id) || !second.has(c.id)) continue;
    total++;
    if (entries.length < RANGE_ENTRIES_LIMIT) {
      entries.push({
        PatientId: c.patientId,
        Question1Value: value(first.get(c.id)),
        Question2Value: value(second.get(c.id)),
      });
    }
  }
  return { RangeEntries: entries, RangeEntriesTotal: total };
}

/** The data series of one chart under the scope's filters; only the series its chart type draws are filled. */
export async function chartData(s: ChartScope, survey: Survey, row: ChartRow): Promise<Chart> {
  const type = row.chart_type as ChartType;
  const series = empty();
  const attribute = row.attribute_id;
  if (type === "SurveyResponsesOverTime") series.ResponseCountsByDates = await countsByDay(s);
  if (type === "IndividualSurveyScores") series.SurveyScoresByDates = await individualScores(s);
  if (type === "ScoreResultsOverTime") series.AverageScoresByDates = await averageScores(s);
  if (type === "AmountPerPreQuestion" && attribute)
    series.ResponseCountsByPreQuestionOptions = await countsByOption(s, survey, attribute);
  if (type === "ScorePlotPerPreQuestion" && attribute)
    series.ScorePlotByPreQuestionOptions = await scorePlot(s, survey, attribute);
  if (type === "CategoryWithActualAndMaxScores") series.CategoryScores = await categoryScores(s, survey);
  if ((type === "NumericalRange" || type === "DateTimeRange") && row.question_id1 && row.question_id2)
    Object.assign(series, await rangeEntries(s, type, row.question_id1, row.question_id2));
  return {
    Id: row.id,
    ChartType: type,
    PlotType: row.plot_type as PlotType,
    AttributeId: row.attribute_id,
    QuestionId1: row.question_id1,
    QuestionId2: row.question_id2,
    Sort: row.sort,
    ...series,
  };
}
