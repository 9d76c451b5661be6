import { z } from "./zod";
import { wireToIsoDate } from "./dates";
import { questionTypes } from "./question-types";
import { surveyStatuses } from "./survey-status";
import { IdSchema } from "./id-schema";
import { CodesSchema, InstrumentSchema, type Coding } from "./instrument";
import { ContentLanguageSchema, contentLanguages, TranslationsSchema } from "./content-languages";

/** The longest retention period the start tab offers: 100 years. */
export const RETENTION_MONTHS_MAX = 1200;
/** The longest title of a survey's total score. */
export const SCORE_TITLE_MAX = 200;

export const SurveyStatusSchema = z.enum(surveyStatuses);
export const QuestionTypeSchema = z.enum(questionTypes);

/** DD.MM.YYYY on the wire; "" clears the date. */
export const WireDateSchema = z
  .string()
  .refine((v) => v === "" || wireToIsoDate(v) !== null, { message: "Expected a date as DD.MM.YYYY" });

const id = IdSchema;

export const DependenceSchema = z
  .object({
    Type: z.enum(["SHOW", "HIDE"]),
    PreliminaryAnswerOptions: z.array(id),
  })
  .meta({ id: "Dependence" });
export type Dependence = z.infer<typeof DependenceSchema>;

interface AnswerOptionFields {
  Id: number;
  QuestionId: number;
  SurveyId: number;
  Value: string | null;
  IsExitAnswer: boolean;
  Weight: number | null;
  WeightingState: number;
  Sort: number;
  /** Image answer options: marker position as fractions 0..1. */
  X: number | null;
  Y: number | null;
  /** The answer's score as its instrument defines it (0 is a score, null none), apart from the weight. */
  Score: number | null;
  /** The code system of Value, e.g. http://loinc.org. */
  System: string | null;
  SubQuestions: Question[];
}

/** An answer of a choice question: its Text. */
export interface ChoiceAnswerOption extends AnswerOptionFields {
  Text: string;
  Title?: never;
}

/** An answer marker of an image question (section 3): its Title, at X and Y. */
export interface ImageAnswerOption extends AnswerOptionFields {
  Title: string;
  Text?: never;
}

export type AnswerOption = ChoiceAnswerOption | ImageAnswerOption;

export { answerText } from "./answer-text";

export interface Question {
  Id: number;
  CategoryId: number;
  SurveyId: number;
  /** Set for a sub-question: the answer option it belongs to. */
  ParentAnswerOptionId: number | null;
  Title: string;
  Type: z.infer<typeof QuestionTypeSchema>;
  Sort: number;
  AllowFileAttachments: boolean;
  AllowMultipleAnswers: boolean;
  Unit: string | null;
  IsTestQuestion: boolean;
  ImageSrc: string | null;
  Dependence: Dependence | null;
  /** A help text shown under the question when filling. */
  Hint: string | null;
  /** The instrument's codes of the item. */
  Codes: Coding[];
  AnswerOptions: AnswerOption[];
}

const answerOptionShape = {
  Id: id,
  QuestionId: id,
  SurveyId: id,
  Value: z.string().nullable(),
  IsExitAnswer: z.boolean(),
  Weight: z.number().int().min(1).max(3).nullable(),
  WeightingState: z.number().int().min(0).max(2),
  Sort: z.number().int(),
  X: z.number().min(0).max(1).nullable(),
  Y: z.number().min(0).max(1).nullable(),
  Score: z
    .number()
    .nullable()
    .default(null)
    .describe("The answer's score in its instrument (docs/decisions/051-instrument-scores.md); null: none"),
  System: z.string().nullable().default(null).describe("The code system of Value"),
};

export const ChoiceAnswerOptionSchema: z.ZodType<ChoiceAnswerOption> = z
  .object({
    ...answerOptionShape,
    Text: z.string(),
    get SubQuestions() {
      return z.array(QuestionSchema);
    },
  })
  .meta({ id: "AnswerOption", description: "An answer of a choice question" });

export const ImageAnswerOptionSchema: z.ZodType<ImageAnswerOption> = z
  .object({
    ...answerOptionShape,
    Title: z.string(),
    get SubQuestions() {
      return z.array(QuestionSchema);
    },
  })
  .meta({ id: "ImageAnswerOption", description: "An answer marker of an image question, at X and Y" });

/** An answer of a choice question (Text) or a marker of an image question (Title). */
export const AnswerOptionSchema: z.ZodType<AnswerOption> = z.union([ImageAnswerOptionSchema, ChoiceAnswerOptionSchema]);

export const QuestionSchema: z.ZodType<Question> = z
  .object({
    Id: id,
    CategoryId: id,
    SurveyId: id,
    ParentAnswerOptionId: id.nullable(),
    Title: z.string(),
    Type: QuestionTypeSchema,
    Sort: z.number().int(),
    AllowFileAttachments: z.boolean(),
    AllowMultipleAnswers: z.boolean(),
    Unit: z.string().nullable(),
    IsTestQuestion: z.boolean(),
    ImageSrc: z.string().nullable(),
    Dependence: DependenceSchema.nullable(),
    Hint: z.string().nullable().default(null).describe("A help text shown under the question"),
    Codes: CodesSchema.default([]).describe("The instrument's codes of the item"),
    get AnswerOptions() {
      return z.array(AnswerOptionSchema);
    },
  })
  .meta({ id: "Question" });

export const CategorySchema = z
  .object({
    Id: id,
    SurveyId: id,
    Title: z.string(),
    Sort: z.number().int(),
    Codes: CodesSchema.default([]).describe("The instrument's codes of the group"),
    Questions: z.array(QuestionSchema),
  })
  .meta({ id: "Category" });
export type Category = z.infer<typeof CategorySchema>;

export const PatientFormAnswerOptionSchema = z
  .object({ Id: id, Text: z.string(), Value: z.string().nullable(), IsExitAnswer: z.boolean(), Sort: z.number().int() })
  .meta({ id: "PatientFormAnswerOption" });

export const PatientFormAttributeSchema = z
  .object({
    Id: id,
    PatientFormId: id,
    SurveyId: id,
    Title: z.string(),
    Enabled: z.boolean(),
    PreSelected: z.boolean(),
    Sort: z.number().int(),
    AnswerOptions: z.array(PatientFormAnswerOptionSchema),
  })
  .meta({ id: "PatientFormAttribute" });
export type PatientFormAttribute = z.infer<typeof PatientFormAttributeSchema>;

export const SurveyRightsSchema = z.object({
  CanParticipate: z.boolean(),
  CanEdit: z.boolean(),
  CanApprove: z.boolean(),
});

export const SurveySchema = z
  .object({
    Id: id,
    Title: z.string(),
    Description: z.string(),
    Status: SurveyStatusSchema,
    StartDate: z.string().describe("DD.MM.YYYY or empty"),
    EndDate: z.string().describe("DD.MM.YYYY or empty"),
    IntroText: z.string(),
    OutroText: z.string(),
    TargetNumberOfResponses: z.number().int(),
    IsPatientIdAutoGenerationEnabled: z.boolean(),
    IsPatientFormEnabled: z.boolean(),
    RequiresSignature: z
      .boolean()
      .default(false)
      .describe("Cases are submitted with an electronic signature (docs/decisions/029-signed-close.md)"),
    PatientSubmitReview: z
      .boolean()
      .default(false)
      .describe(
        "A case a patient submits through their link waits for staff to review and close it (docs/decisions/057-patient-links.md)",
      ),
    PreliminaryByPatient: z
      .boolean()
      .default(false)
      .describe(
        "The patient answers the preliminary questions too: a link starts with them, a hand-over may come before them (docs/decisions/058-hand-over.md)",
      ),
    RetentionMonths: z
      .number()
      .int()
      .default(0)
      .describe(
        "Closed cases are erased this many months after closing; 0 keeps them (docs/decisions/042-retention-and-erasure.md)",
      ),
    ScoreTitle: z
      .string()
      .nullable()
      .default(null)
      .describe("Set: each case has a total score under this title (docs/decisions/051-instrument-scores.md)"),
    Instrument: InstrumentSchema.nullable().default(null),
    SourceLanguage: ContentLanguageSchema.default("de").describe(
      "The language the survey's texts are written in (docs/decisions/054-content-languages.md)",
    ),
    Languages: z
      .array(ContentLanguageSchema)
      .default([])
      .describe("The languages the survey's texts are offered in besides the source language"),
    Translations: TranslationsSchema.default({}),
    TagIds: z.array(id),
    UserTeamPermissions: z.array(id),
    EditorTeamPermissions: z.array(id),
    ApproverTeamPermissions: z.array(id),
    TeamPermissions: z.array(id).describe("All teams named in any of the three permission lists"),
    Hash: z.string(),
    Categories: z.array(CategorySchema),
    PatientFormId: id.nullable(),
    PatientForm: z.array(PatientFormAttributeSchema),
    Rights: SurveyRightsSchema,
    SourceSurveyId: id.nullable(),
  })
  .meta({ id: "Survey" });
export type Survey = z.infer<typeof SurveySchema>;

export const SurveyListEntrySchema = z
  .object({
    Id: id,
    Title: z.string(),
    StartDate: z.string(),
    EndDate: z.string(),
    Status: SurveyStatusSchema,
    Hash: z.string(),
    Rights: SurveyRightsSchema,
  })
  .meta({ id: "SurveyListEntry" });
export type SurveyListEntry = z.infer<typeof SurveyListEntrySchema>;

export const SurveyListSchema = z.object({ Data: z.array(SurveyListEntrySchema), Total: z.number().int() });

const title = z.string().trim().min(1, "Title is required").max(200);

export const CreateSurveySchema = z.strictObject({
  Title: title,
  TeamPermissions: z.array(id).optional().describe("Teams that may take part; empty means all"),
});

/** PUT /surveys/{id}: any subset of these fields (section 5 rules). */
export const UpdateSurveySchema = z
  .object({
    Title: title,
    Description: z.string().max(5000),
    StartDate: WireDateSchema,
    EndDate: WireDateSchema,
    IntroText: z.string().max(200_000),
    OutroText: z.string().max(200_000),
    TargetNumberOfResponses: z.number().int().min(0).max(9999),
    IsPatientIdAutoGenerationEnabled: z.boolean(),
    IsPatientFormEnabled: z.boolean(),
    RequiresSignature: z.boolean(),
    PatientSubmitReview: z.boolean(),
    PreliminaryByPatient: z.boolean(),
    RetentionMonths: z.number().int().min(0).max(RETENTION_MONTHS_MAX),
    ScoreTitle: z
      .string()
      .trim()
      .max(SCORE_TITLE_MAX)
      .nullable()
      .transform((v) => v || null)
      .describe("A title turns the total score on; null or blank turns it off"),
    Instrument: InstrumentSchema.nullable(),
    SourceLanguage: ContentLanguageSchema,
    Languages: z
      .array(ContentLanguageSchema)
      .max(contentLanguages.length)
      .describe("The offered translations; the source language is left out of them"),
    TagIds: z.array(id).max(100),
    UserTeamPermissions: z.array(id).max(500),
    EditorTeamPermissions: z.array(id).max(500),
    ApproverTeamPermissions: z.array(id).max(500),
  })
  .partial()
  .strict();
export type UpdateSurvey = z.infer<typeof UpdateSurveySchema>;

export const BenchmarkEntrySchema = z
  .object({ Id: id, Title: z.string(), StartDate: z.string(), EndDate: z.string(), Status: SurveyStatusSchema })
  .meta({ id: "BenchmarkEntry" });
export type BenchmarkEntry = z.infer<typeof BenchmarkEntrySchema>;
