import { z } from "./zod";
import { StatisticsFiltersSchema } from "./statistics";
import { IdSchema } from "./id-schema";

/**
 * The statistics dashboard's wire shapes (section 3: Dashboard, Chart; section 7: Dashboards) and the chart
 * types it supports. Field names as the specification writes them.
 */

export const chartTypes = [
  "SurveyResponsesOverTime",
  "IndividualSurveyScores",
  "ScoreResultsOverTime",
  "AmountPerPreQuestion",
  "ScorePlotPerPreQuestion",
  "CategoryWithActualAndMaxScores",
  "NumericalRange",
  "DateTimeRange",
] as const;
export const ChartTypeSchema = z.enum(chartTypes).meta({ id: "ChartType" });
export type ChartType = z.infer<typeof ChartTypeSchema>;

export const plotTypes = ["LineChart", "BarChart", "BoxPlot", "RadarChart"] as const;
export const PlotTypeSchema = z.enum(plotTypes).meta({ id: "PlotType" });
export type PlotType = z.infer<typeof PlotTypeSchema>;

export interface SupportedChartType {
  type: ChartType;
  plot: PlotType;
  /** Locale keys under statistics.graphs.types.{type}. */
  nameKey: string;
  descriptionKey: string;
}

const defaultPlots: Record<ChartType, PlotType> = {
  SurveyResponsesOverTime: "BarChart",
  IndividualSurveyScores: "LineChart",
  ScoreResultsOverTime: "LineChart",
  AmountPerPreQuestion: "BarChart",
  ScorePlotPerPreQuestion: "BoxPlot",
  CategoryWithActualAndMaxScores: "RadarChart",
  NumericalRange: "LineChart",
  DateTimeRange: "LineChart",
};

export const supportedChartTypes: SupportedChartType[] = chartTypes.map((type) => ({
  type,
  plot: defaultPlots[type],
  nameKey: `statistics.graphs.types.${type}.name`,
  descriptionKey: `statistics.graphs.types.${type}.description`,
}));

/** Charts that compare two questions of one kind. */
export const rangeQuestionType = { NumericalRange: "Numerical", DateTimeRange: "DateTime" } as const;
export const isRangeChart = (t: ChartType): t is keyof typeof rangeQuestionType => t in rangeQuestionType;
/** Charts that split the cases by a preliminary question's answers. */
export const isPreQuestionChart = (t: ChartType) => t === "AmountPerPreQuestion" || t === "ScorePlotPerPreQuestion";
/** Charts of the cases' scores: without a scored question in the survey they have nothing to show. */
export const isScoreChart = (t: ChartType) =>
  t === "IndividualSurveyScores" ||
  t === "ScoreResultsOverTime" ||
  t === "ScorePlotPerPreQuestion" ||
  t === "CategoryWithActualAndMaxScores";

/** Latest cases an IndividualSurveyScores chart lists at most. */
export const INDIVIDUAL_SCORES_LIMIT = 200;
/** Cases a range chart lists at most (RangeEntriesTotal counts all). */
export const RANGE_ENTRIES_LIMIT = 1000;

const id = IdSchema;

export const SupportedChartTypeSchema = z
  .object({ ChartType: ChartTypeSchema, PlotType: PlotTypeSchema, Name: z.string(), Description: z.string() })
  .meta({ id: "SupportedChartType" });
export const SupportedChartTypesSchema = z.object({ Data: z.array(SupportedChartTypeSchema) });

export const ChartAddRequestSchema = z.strictObject({ ChartType: ChartTypeSchema }).meta({ id: "ChartAddRequest" });
export const ChartsAddSchema = z
  .strictObject({
    ChartAddRequests: z.array(ChartAddRequestSchema).min(1, "Choose at least one chart type").max(20),
    Filters: StatisticsFiltersSchema.default({}),
  })
  .meta({ id: "ChartsAdd" });

export const ChartUpdateSchema = z
  .strictObject({
    AttributeId: id.nullable().optional(),
    QuestionId1: id.nullable().optional(),
    QuestionId2: id.nullable().optional(),
    Filters: StatisticsFiltersSchema.default({}),
  })
  .meta({ id: "ChartUpdate" });
export type ChartUpdate = z.infer<typeof ChartUpdateSchema>;

export const DashboardRequestSchema = z.object({ Filters: StatisticsFiltersSchema.default({}) });

const day = z.string().describe("YYYY-MM-DD");

export const ChartSchema = z
  .object({
    Id: id,
    ChartType: ChartTypeSchema,
    PlotType: PlotTypeSchema,
    AttributeId: id.nullable(),
    QuestionId1: id.nullable(),
    QuestionId2: id.nullable(),
    Sort: z.number().int(),
    RangeEntries: z.array(
      z.object({
        PatientId: z.string(),
        Question1Value: z.union([z.number(), z.string()]),
        Question2Value: z.union([z.number(), z.string()]),
      }),
    ),
    RangeEntriesTotal: z.number().int(),
    ResponseCountsByDates: z.array(z.object({ Date: day, Count: z.number().int() })),
    SurveyScoresByDates: z.array(
      z.object({ PatientId: z.string(), Date: day, Score: z.number(), MaxScore: z.number() }),
    ),
    AverageScoresByDates: z.array(z.object({ Date: day, AverageScore: z.number(), Count: z.number().int() })),
    ResponseCountsByPreQuestionOptions: z.array(
      z.object({ OptionId: id, OptionText: z.string(), Count: z.number().int() }),
    ),
    ScorePlotByPreQuestionOptions: z.array(
      z.object({
        OptionId: id,
        OptionText: z.string(),
        Count: z.number().int(),
        Min: z.number().nullable(),
        Q1: z.number().nullable(),
        Median: z.number().nullable(),
        Q3: z.number().nullable(),
        Max: z.number().nullable(),
      }),
    ),
    CategoryScores: z.array(
      z.object({ CategoryId: id, CategoryText: z.string(), ActualScore: z.number(), MaxScore: z.number() }),
    ),
  })
  .meta({ id: "Chart" });
export type Chart = z.infer<typeof ChartSchema>;

/** A question an edit form offers; a numerical question with its unit (the range chart's axis says it). */
const choice = z.object({ Id: id, Title: z.string(), Unit: z.string().nullable().optional() });
export const DashboardSchema = z
  .object({
    Id: id,
    SurveyId: id,
    Charts: z.array(ChartSchema),
    /**
     * Whether the survey has a scored question (a test question with a correct option); without one the
     * score charts say so instead of drawing every case at 0.
     */
    HasScoredQuestions: z.boolean(),
    /** What the charts' edit forms offer. */
    Choices: z.object({
      NumericalQuestions: z.array(choice),
      DateTimeQuestions: z.array(choice),
      PreliminaryQuestions: z.array(choice),
    }),
  })
  .meta({ id: "Dashboard" });
export type Dashboard = z.infer<typeof DashboardSchema>;

/** A sorted list's quantile by linear interpolation between the closest ranks. */
export function quantile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const at = (sorted.length - 1) * p;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

/**
 * The same quantile of a list given as counted values, `{ score, n }` in ascending order of score (the
 * list holds each score n times): the box plots read their scores grouped this way.
 */
export function quantileOfCounts(counts: readonly { score: number; n: number }[], p: number): number | null {
  const total = counts.reduce((sum, c) => sum + c.n, 0);
  if (total === 0) return null;
  const at = (total - 1) * p;
  const valueAt = (index: number) => {
    let seen = 0;
    for (const c of counts) {
      seen += c.n;
      if (index < seen) return c.score;
    }
    return counts[counts.length - 1].score;
  };
  const lo = valueAt(Math.floor(at));
  return lo + (valueAt(Math.ceil(at)) - lo) * (at - Math.floor(at));
}

/** A chart label cut to 15 characters (section 9). */
export function chartLabel(text: string): string {
  return text.length > 15 ? `${text.slice(0, 14)}…` : text;
}

/** "YYYY-Qn" of a YYYY-MM-DD day. */
export function quarterOf(day: string): string {
  return `${day.slice(0, 4)}-Q${Math.floor((Number(day.slice(5, 7)) - 1) / 3) + 1}`;
}
