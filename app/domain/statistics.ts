import { z } from "./zod";
import { WireDateSchema } from "./survey";
import { IdKeySchema, IdSchema } from "./id-schema";
import { ContentLanguageSchema, contentLanguages } from "./content-languages";
import { respondentKinds } from "./respondents";

/**
 * The statistics screen's wire shapes (section 3: Statistics, Filters, Free-text response, Attachment) and
 * the pure rules the server and the page share: percent and average rounding, score flags, CSV cells and
 * file names. Field names as the specification writes them.
 */

const id = IdSchema;

/** POST /statistics/{surveyId} and the other statistics calls: every filter optional, empty means all. */
export const StatisticsFiltersSchema = z
  .object({
    TeamIdsFilter: z.array(id).max(1000).optional(),
    /** The cases' patient ids (the "survey ids" multi-select), as listed by POST /statistics/{id}/patient-ids. */
    PatientIds: z.array(z.string().max(200)).max(200_000).optional(),
    /** Preliminary question id → chosen option ids; a case needs one of them for each question listed. */
    PreliminaryQuestionsSelection: z.record(IdKeySchema, z.array(id).max(1000)).optional(),
    StartDateTime: WireDateSchema.nullable().optional().describe("DD.MM.YYYY: cases started on or after it"),
    EndDateTime: WireDateSchema.nullable().optional().describe("DD.MM.YYYY: cases closed on or before it"),
    Languages: z
      .array(ContentLanguageSchema)
      .max(contentLanguages.length)
      .optional()
      .describe(
        "The cases filled in one of these languages; a case without a stored language is in the source language",
      ),
    Respondents: z
      .array(z.enum(respondentKinds))
      .max(respondentKinds.length)
      .optional()
      .describe(
        "The cases answered by one of these: staff, the patient through a one-time link (link), the patient on a " +
          "staff member's device handed over to them (handover)",
      ),
  })
  .meta({ id: "StatisticsFilters" });
export type StatisticsFilters = z.infer<typeof StatisticsFiltersSchema>;

/** 1 red (low), 2 yellow (medium), 3 green (high), 4 gray (insufficient data). */
export const ScoreFlagSchema = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);
export type ScoreFlag = z.infer<typeof ScoreFlagSchema>;
export const SCORE_FLAG = { Red: 1, Yellow: 2, Green: 3, Gray: 4 } as const;

export const CountedValueSchema = z
  .object({
    Value: z.union([z.number(), z.string()]).describe("A number, or a date-time's day as YYYY-MM-DD"),
    Count: z.number().int(),
  })
  .meta({ id: "CountedValue" });

export const CountedValuesStatisticsSchema = z
  .object({
    CountedValues: z.array(CountedValueSchema),
    /** True when only the most frequent values are listed (Min, Max and Average still cover all). */
    CountedValuesTruncated: z.boolean(),
    Min: z.union([z.number(), z.string()]).nullable(),
    Max: z.union([z.number(), z.string()]).nullable(),
    /** Numbers: 2 decimals; date-times: an ISO timestamp. */
    Average: z.union([z.number(), z.string()]).nullable(),
  })
  .meta({ id: "CountedValuesStatistics" });
export type CountedValuesStatistics = z.infer<typeof CountedValuesStatisticsSchema>;

export const WordCloudEntrySchema = z
  .object({ Text: z.string(), Count: z.number().int() })
  .meta({ id: "WordCloudEntry" });
export type WordCloudEntry = z.infer<typeof WordCloudEntrySchema>;

export const FreeTextResponseSchema = z
  .object({ PatientId: z.string(), Response: z.string(), DateTime: z.string().describe("ISO timestamp") })
  .meta({ id: "FreeTextResponse" });
export type FreeTextResponse = z.infer<typeof FreeTextResponseSchema>;

export const FreeTextPageSchema = z
  .object({ Data: z.array(FreeTextResponseSchema), Total: z.number().int() })
  .meta({ id: "FreeTextPage" });
export type FreeTextPage = z.infer<typeof FreeTextPageSchema>;

export interface AnswerStatistics {
  AnswerOptionId: number;
  AnswerOptionText: string;
  /** Of the cases that answered the question, 2 decimals. */
  PercentageAnswerOptionResponses: number;
  TotalAnswerOptionResponses: number;
  /** The sub-questions under this answer, counted over the cases that chose it. */
  SubQuestionStatistics: QuestionStatistics[];
  /** Inside a benchmark: the paired answer option of the main survey, or null. */
  PairedId?: number | null;
}

export interface QuestionStatistics {
  QuestionId: number;
  QuestionTitle: string;
  /** Type code: 1 SingleSelection, 2 MultipleSelection, 3 Numerical, 4 DateTime, 5 FreeText, 6 Image, 7 MultipleChoice. */
  Type: number;
  Unit: string | null;
  IsScoredQuestion: boolean;
  ScoreFlag: ScoreFlag | null;
  ScorePercentage: number | null;
  ScoreResult: number | null;
  ScoreMax: number | null;
  /** The cases that answered it. */
  TotalQuestionResponses: number;
  /**
   * The counted cases that were shown it and gave no answer: shown means its Dependence let it show and,
   * for a sub-question, the case chose the answer it stands under.
   */
  NotAnswered: number;
  AnswerStatistics: AnswerStatistics[];
  WordCloud: WordCloudEntry[];
  /** The latest free-text answers (a short list; the rest through the free-text endpoint). */
  Responses: FreeTextResponse[];
  CountedValuesStatistics: CountedValuesStatistics | null;
  AllowFileAttachments: boolean;
  NumberOfFileAttachments: number;
  /** Inside a benchmark: the paired question of the main survey, or null. */
  PairedId?: number | null;
}

export const AnswerStatisticsSchema: z.ZodType<AnswerStatistics> = z
  .object({
    AnswerOptionId: id,
    AnswerOptionText: z.string(),
    PercentageAnswerOptionResponses: z.number(),
    TotalAnswerOptionResponses: z.number().int(),
    get SubQuestionStatistics() {
      return z.array(QuestionStatisticsSchema);
    },
    PairedId: id.nullable().optional(),
  })
  .meta({ id: "AnswerStatistics" });

export const QuestionStatisticsSchema: z.ZodType<QuestionStatistics> = z
  .object({
    QuestionId: id,
    QuestionTitle: z.string(),
    Type: z.number().int().min(1).max(7),
    Unit: z.string().nullable(),
    IsScoredQuestion: z.boolean(),
    ScoreFlag: ScoreFlagSchema.nullable(),
    ScorePercentage: z.number().nullable(),
    ScoreResult: z.number().nullable(),
    ScoreMax: z.number().nullable(),
    TotalQuestionResponses: z.number().int(),
    NotAnswered: z.number().int(),
    get AnswerStatistics() {
      return z.array(AnswerStatisticsSchema);
    },
    WordCloud: z.array(WordCloudEntrySchema),
    Responses: z.array(FreeTextResponseSchema),
    CountedValuesStatistics: CountedValuesStatisticsSchema.nullable(),
    AllowFileAttachments: z.boolean(),
    NumberOfFileAttachments: z.number().int(),
    PairedId: id.nullable().optional(),
  })
  .meta({ id: "QuestionStatistics" });

export const CategoryStatisticsSchema = z
  .object({
    CategoryId: id,
    CategoryText: z.string(),
    IsScoredCategory: z.boolean(),
    ScoreFlag: ScoreFlagSchema.nullable(),
    ScorePercentage: z.number().nullable(),
    ScoreResult: z.number().nullable(),
    ScoreMax: z.number().nullable(),
    QuestionStatistics: z.array(QuestionStatisticsSchema),
    PairedId: id.nullable().optional(),
  })
  .meta({ id: "CategoryStatistics" });
export type CategoryStatistics = z.infer<typeof CategoryStatisticsSchema>;

export const ScoreThresholdsSchema = z
  .object({
    /** Below this percentage: red. */
    RedBelow: z.number().min(0).max(100),
    /** Below this percentage (and not red): yellow; otherwise green. */
    YellowBelow: z.number().min(0).max(100),
    /** Fewer answering cases than this: gray (insufficient data). */
    MinResponses: z.number().int().min(1),
  })
  .meta({ id: "ScoreThresholds" });
export type ScoreThresholds = z.infer<typeof ScoreThresholdsSchema>;

export const DEFAULT_SCORE_THRESHOLDS: ScoreThresholds = { RedBelow: 50, YellowBelow: 75, MinResponses: 5 };

export const TotalBandSchema = z
  .object({
    From: z.number(),
    To: z.number().describe("Equal to From: the bar of one total; else the totals from From to below To"),
    Count: z.number().int(),
  })
  .meta({ id: "TotalBand" });

/** A survey's total score over the counted cases (docs/decisions/051-instrument-scores.md). */
export const ScoreTotalStatisticsSchema = z
  .object({
    Title: z.string().describe("The survey's ScoreTitle"),
    Cases: z.number().int().describe("The counted cases that have a total"),
    Mean: z.number().nullable().describe("2 decimals"),
    Median: z.number().nullable(),
    Min: z.number().nullable(),
    Max: z.number().nullable(),
    Distribution: z.array(TotalBandSchema),
  })
  .meta({ id: "ScoreTotalStatistics" });
export type ScoreTotalStatistics = z.infer<typeof ScoreTotalStatisticsSchema>;

const statisticsBody = {
  SurveyId: id,
  Title: z.string(),
  /** The cases counted: Closed cases that pass the filters. */
  NumSurveyResponses: z.number().int(),
  CategoryStatistics: z.array(CategoryStatisticsSchema),
  /** The total score of a survey with a ScoreTitle; null without one. */
  ScoreTotal: ScoreTotalStatisticsSchema.nullable(),
};

export const BenchmarkStatisticsSchema = z.object(statisticsBody).meta({ id: "BenchmarkStatistics" });
export type BenchmarkStatistics = z.infer<typeof BenchmarkStatisticsSchema>;

export const StatisticsSchema = z
  .object({
    ...statisticsBody,
    ScoreThresholds: ScoreThresholdsSchema,
    /** With ?benchmarkSurveyId: the other survey's figures; its entries carry PairedId (this survey's ids). */
    Benchmark: BenchmarkStatisticsSchema.nullable(),
  })
  .meta({ id: "Statistics" });
export type Statistics = z.infer<typeof StatisticsSchema>;

/** GET /statisticsFilterData?surveyId */
export const StatisticsFilterDataSchema = z
  .object({
    Teams: z.array(z.object({ Id: id, Name: z.string(), Disabled: z.boolean() })),
    PreliminaryQuestions: z.array(
      z.object({
        Id: id,
        Title: z.string(),
        AnswerOptions: z.array(z.object({ Id: id, Text: z.string() })),
      }),
    ),
    Languages: z
      .array(ContentLanguageSchema)
      .describe("The languages the cases can be filtered by: the survey's source language first, then those it offers"),
    Respondents: z
      .array(z.enum(respondentKinds))
      .describe("Who can have answered a case, to filter by: staff, link, handover"),
  })
  .meta({ id: "StatisticsFilterData" });
export type StatisticsFilterData = z.infer<typeof StatisticsFilterDataSchema>;

/** POST /file-attachments/get-by-question-id/{id}: one entry of Data. */
export const StatisticsAttachmentSchema = z
  .object({ Id: id, FileName: z.string(), FileExtension: z.string(), PatientId: z.string() })
  .meta({ id: "StatisticsAttachment" });
export type StatisticsAttachment = z.infer<typeof StatisticsAttachmentSchema>;

export const StatisticsAttachmentListSchema = z.object({ Data: z.array(StatisticsAttachmentSchema) });

/** POST /file-attachments/get-archived */
export const ArchivedAttachmentsRequestSchema = z.object({
  QuestionId: id,
  SurveyFileAttachmentIds: z.array(id).min(1).max(10_000),
});

export * from "./statistics-rules";
