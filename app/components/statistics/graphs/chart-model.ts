import { isoToWireDate } from "~/domain/dates";
import { quarterOf, type Chart, type ChartType, type Dashboard } from "~/domain/dashboards";
import { formatNumber } from "~/domain/number-format";
import { storedToWireDateTime } from "~/domain/response-values";

/** One chart's drawing and its figures table, free of React (the text alternative shows every figure). */
export type ChartModel =
  | { kind: "none" }
  | { kind: "line" | "bar"; points: { label: string; value: number }[]; table: Table }
  | {
      kind: "box";
      boxes: { label: string; min: number; q1: number; median: number; q3: number; max: number }[];
      table: Table;
    }
  | { kind: "radar"; axes: { label: string; actual: number; max: number }[]; table: Table }
  /** One point per case; date-times as milliseconds of their wall-clock time (as if UTC). */
  | { kind: "scatter"; dates: boolean; points: { x: number; y: number }[]; table: Table };

export interface Table {
  /** Locale keys under statistics.graphs. */
  headers: string[];
  rows: (string | number | null)[][];
}

/** What an axis shows: a locale key under statistics.graphs.axis, or the chart's chosen question(s). */
export type AxisKey =
  | "quarter"
  | "completed"
  | "score"
  | "averageScore"
  | "closedOn"
  | "surveys"
  | "preQuestion"
  | "question1"
  | "question2";

/** The horizontal and vertical axis of each chart type (a radar has none). */
export function axesOf(type: ChartType): { x: AxisKey; y: AxisKey } | null {
  switch (type) {
    case "SurveyResponsesOverTime":
      return { x: "quarter", y: "completed" };
    case "IndividualSurveyScores":
      return { x: "surveys", y: "score" };
    case "ScoreResultsOverTime":
      return { x: "closedOn", y: "averageScore" };
    case "AmountPerPreQuestion":
      return { x: "preQuestion", y: "completed" };
    case "ScorePlotPerPreQuestion":
      return { x: "preQuestion", y: "score" };
    case "CategoryWithActualAndMaxScores":
      return null;
    case "NumericalRange":
    case "DateTimeRange":
      return { x: "question1", y: "question2" };
  }
}

/** The names of what a chart was set to: its preliminary question, or its two questions (with their units). */
export interface ChartNames {
  preQuestion?: string;
  question1?: { Title: string; Unit?: string | null };
  question2?: { Title: string; Unit?: string | null };
}

export function namesOf(chart: Chart, choices: Dashboard["Choices"]): ChartNames {
  const questions = choicesFor(chart, choices);
  const find = (id: number | null) => (id === null ? undefined : questions.find((q) => q.Id === id));
  return {
    preQuestion: find(chart.AttributeId)?.Title,
    question1: find(chart.QuestionId1),
    question2: find(chart.QuestionId2),
  };
}

/**
 * A figure as the page writes it: numbers in the interface's language (a decimal comma in German), days and
 * date-times as DD.MM.YYYY (HH:mm), anything else as it is.
 */
export function figureText(value: string | number | null, locale: string): string {
  if (value === null) return "–";
  if (typeof value === "number") return formatNumber(value, locale);
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return isoToWireDate(value);
  return storedToWireDateTime(value) || value;
}

/** Whether a chart still waits for its questions (it opens in edit mode then). */
export function needsChoice(chart: Chart): boolean {
  if (chart.ChartType === "NumericalRange" || chart.ChartType === "DateTimeRange")
    return !chart.QuestionId1 || !chart.QuestionId2;
  if (chart.ChartType === "AmountPerPreQuestion" || chart.ChartType === "ScorePlotPerPreQuestion")
    return !chart.AttributeId;
  return false;
}

/** The questions a chart's edit form offers. */
export function choicesFor(chart: Chart, choices: Dashboard["Choices"]) {
  if (chart.ChartType === "NumericalRange") return choices.NumericalQuestions;
  if (chart.ChartType === "DateTimeRange") return choices.DateTimeQuestions;
  return choices.PreliminaryQuestions;
}

/** Four quarters of the latest year with responses (section 9). */
function quarters(chart: Chart) {
  const days = chart.ResponseCountsByDates;
  if (days.length === 0) return [];
  const year = days[days.length - 1].Date.slice(0, 4);
  const counts = new Map<string, number>();
  for (const d of days) counts.set(quarterOf(d.Date), (counts.get(quarterOf(d.Date)) ?? 0) + d.Count);
  return [1, 2, 3, 4].map((q) => ({ label: `${year}-Q${q}`, value: counts.get(`${year}-Q${q}`) ?? 0 }));
}

/** A range chart's value as a number: a date-time as the milliseconds of its wall-clock time (as if UTC). */
const rangeValue = (v: string | number) => (typeof v === "number" ? v : Date.parse(`${v}:00Z`));

export function chartModel(chart: Chart): ChartModel {
  switch (chart.ChartType) {
    case "SurveyResponsesOverTime": {
      const points = quarters(chart);
      return points.length === 0
        ? { kind: "none" }
        : {
            kind: "bar",
            points,
            table: { headers: ["quarter", "count"], rows: points.map((p) => [p.label, p.value]) },
          };
    }
    case "IndividualSurveyScores": {
      const list = chart.SurveyScoresByDates;
      if (list.length === 0) return { kind: "none" };
      return {
        kind: "line",
        points: list.map((s) => ({ label: s.PatientId, value: s.Score })),
        table: {
          headers: ["patientId", "date", "score", "maxScore"],
          rows: list.map((s) => [s.PatientId, s.Date, s.Score, s.MaxScore]),
        },
      };
    }
    case "ScoreResultsOverTime": {
      const list = chart.AverageScoresByDates;
      if (list.length === 0) return { kind: "none" };
      return {
        kind: "line",
        points: list.map((s) => ({ label: s.Date, value: s.AverageScore })),
        table: { headers: ["date", "average", "count"], rows: list.map((s) => [s.Date, s.AverageScore, s.Count]) },
      };
    }
    case "AmountPerPreQuestion": {
      const list = chart.ResponseCountsByPreQuestionOptions;
      if (list.length === 0) return { kind: "none" };
      const points = list.map((o) => ({ label: o.OptionText, value: o.Count }));
      return {
        kind: "bar",
        points,
        table: { headers: ["option", "count"], rows: points.map((p) => [p.label, p.value]) },
      };
    }
    case "ScorePlotPerPreQuestion": {
      const list = chart.ScorePlotByPreQuestionOptions;
      const drawn = list.filter((o) => o.Count > 0);
      if (drawn.length === 0) return { kind: "none" };
      return {
        kind: "box",
        boxes: drawn.map((o) => ({
          label: o.OptionText,
          min: o.Min!,
          q1: o.Q1!,
          median: o.Median!,
          q3: o.Q3!,
          max: o.Max!,
        })),
        table: {
          headers: ["option", "count", "min", "q1", "median", "q3", "max"],
          rows: list.map((o) => [o.OptionText, o.Count, o.Min, o.Q1, o.Median, o.Q3, o.Max]),
        },
      };
    }
    case "CategoryWithActualAndMaxScores": {
      const list = chart.CategoryScores;
      if (list.length === 0) return { kind: "none" };
      return {
        kind: "radar",
        axes: list.map((c) => ({ label: c.CategoryText, actual: c.ActualScore, max: c.MaxScore })),
        table: {
          headers: ["category", "actual", "maxScore"],
          rows: list.map((c) => [c.CategoryText, c.ActualScore, c.MaxScore]),
        },
      };
    }
    case "NumericalRange":
    case "DateTimeRange": {
      const list = chart.RangeEntries;
      if (list.length === 0) return { kind: "none" };
      return {
        kind: "scatter",
        dates: chart.ChartType === "DateTimeRange",
        points: list.map((e) => ({ x: rangeValue(e.Question1Value), y: rangeValue(e.Question2Value) })),
        table: {
          headers: ["patientId", "question1", "question2"],
          rows: list.map((e) => [e.PatientId, e.Question1Value, e.Question2Value]),
        },
      };
    }
  }
}
