import { quarterOf, type Chart, type Dashboard } from "~/domain/dashboards";

/** One chart's drawing and its figures table, free of React (the text alternative shows every figure). */
export type ChartModel =
  | { kind: "none" }
  | { kind: "line" | "bar"; points: { label: string; value: number }[]; table: Table }
  | {
      kind: "box";
      boxes: { label: string; min: number; q1: number; median: number; q3: number; max: number }[];
      table: Table;
    }
  | { kind: "radar"; axes: { label: string; actual: number; max: number }[]; table: Table };

export interface Table {
  /** Locale keys under statistics.graphs. */
  headers: string[];
  rows: (string | number | null)[][];
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

const dateValue = (v: string | number) => (typeof v === "number" ? v : Date.parse(`${v}:00Z`) / 86_400_000);

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
      const sorted = [...list].sort((a, b) => dateValue(a.Question1Value) - dateValue(b.Question1Value));
      return {
        kind: "line",
        points: sorted.map((e) => ({ label: String(e.Question1Value), value: dateValue(e.Question2Value) })),
        table: {
          headers: ["patientId", "question1", "question2"],
          rows: list.map((e) => [e.PatientId, e.Question1Value, e.Question2Value]),
        },
      };
    }
  }
}
