/**
 * What a fill sends and gets back (section 3 Responses and Patient record, section 7 Patients and
 * Responses), in the specification's field names. One schema per input, shared by the pages and the API;
 * the API adds the checks that need the database (the question's kind, its options, visibility).
 */
import { z } from "./zod";
import { SignatureMeaningSchema } from "./signatures";
import { isValidPatientId, PATIENT_ID_MAX_LENGTH } from "./patient-id";
import { isValidDateTimeResponse, isValidNumericalResponse, TEXT_RESPONSE_MAX_LENGTH } from "./response-values";
import { IdParamSchema, IdSchema } from "./id-schema";
import { ContentLanguageSchema } from "./content-languages";

const id = IdSchema;

/** A typed patient id: letters, digits and underscore; "" allowed where noted. */
export const PatientIdTextSchema = z
  .string()
  .max(PATIENT_ID_MAX_LENGTH * 4)
  .refine(isValidPatientId, { message: "Only letters, digits and underscore are allowed (surveyPatientIdInputError)" });

/** A patient id that names a case: not empty. */
export const PatientIdSchema = PatientIdTextSchema.refine((v) => v !== "", { message: "A patient id is required" });

const answerBase = {
  PatientId: PatientIdSchema,
  SurveyId: id,
  QuestionId: id,
  PatientFormId: id.nullable().optional().describe("Accepted for compatibility; not needed"),
};

export const SingleSelectionRequestSchema = z.object({ ...answerBase, AnswerOptionId: id });
export const MultipleSelectionRequestSchema = z.object({
  ...answerBase,
  AnswerOptionIds: z.array(id).max(500).describe("An empty list deletes the answer"),
});
export const FreeTextRequestSchema = z.object({
  ...answerBase,
  TextResponse: z
    .string()
    .max(TEXT_RESPONSE_MAX_LENGTH, `At most ${TEXT_RESPONSE_MAX_LENGTH} characters`)
    .describe("Blank text deletes the answer"),
});
export const DateTimeRequestSchema = z.object({
  ...answerBase,
  DateTimeResponse: z
    .string()
    .refine(isValidDateTimeResponse, { message: "Expected a date and time as DD.MM.YYYY HH:mm" }),
});
export const NumericalRequestSchema = z.object({
  ...answerBase,
  NumericalResponse: z
    .number()
    .refine(isValidNumericalResponse, { message: "Expected a finite number in steps of 0.01" }),
});
export const DeleteQuestionResponseSchema = z.object({
  SurveyId: id,
  PatientId: PatientIdSchema,
  QuestionId: id,
});

export type SingleSelectionRequest = z.infer<typeof SingleSelectionRequestSchema>;
export type MultipleSelectionRequest = z.infer<typeof MultipleSelectionRequestSchema>;
export type FreeTextRequest = z.infer<typeof FreeTextRequestSchema>;
export type DateTimeRequest = z.infer<typeof DateTimeRequestSchema>;
export type NumericalRequest = z.infer<typeof NumericalRequestSchema>;
export type DeleteQuestionResponse = z.infer<typeof DeleteQuestionResponseSchema>;

export const AttributeResponseRequestSchema = z.object({
  PatientId: PatientIdSchema,
  SurveyId: id,
  PatientFormId: id.nullable().optional(),
  PatientFormAttributeId: id,
  PatientFormAnswerOptionId: id.nullable().describe("null deletes the answer"),
});
export type AttributeResponseRequest = z.infer<typeof AttributeResponseRequestSchema>;

/** One recorded answer as GET /question-responses lists it. */
export const QuestionResponseSchema = z
  .object({
    QuestionId: id,
    AnswerOptionId: id.optional().describe("Single selection (and a single-answer image question)"),
    AnswerOptionIds: z.array(id).optional().describe("Multiple selection (and a multiple-answer image question)"),
    TextResponse: z.string().optional(),
    NumericalResponse: z.number().optional(),
    DateTimeResponse: z.string().optional().describe("DD.MM.YYYY HH:mm"),
  })
  .meta({ id: "QuestionResponse" });
export type QuestionResponse = z.infer<typeof QuestionResponseSchema>;

export const AttributeResponseSchema = z
  .object({ PatientFormAttributeId: id, PatientFormAnswerOptionId: id })
  .meta({ id: "AttributeResponse" });

/** What an answer write changed besides the answer itself. */
export const AnswerWriteResultSchema = z
  .object({
    RemovedQuestionIds: z
      .array(id)
      .describe("Questions whose answers were removed because they are no longer visible (sub-questions, dependence)"),
    Version: z
      .number()
      .int()
      .describe("The case's answers version after the write (unchanged when the write changed nothing)"),
  })
  .meta({ id: "AnswerWriteResult" });
export type AnswerWriteResult = z.infer<typeof AnswerWriteResultSchema>;

export const patientStates = ["Open", "Nonexistent", "Closed"] as const;
export type PatientState = (typeof patientStates)[number];

/** The version of a case's answers and preliminary answers: it moves with every change of them. */
const CaseVersionSchema = z
  .number()
  .int()
  .describe("The case's answers version: it moves with every change of its answers or preliminary answers");

export const PatientRecordSchema = z
  .object({
    State: z.enum(patientStates),
    PatientDataId: id.optional(),
    Version: CaseVersionSchema.optional(),
    ClosedAt: z.string().nullable().optional().describe("When a Closed case closed (ISO-8601 UTC)"),
    Language: ContentLanguageSchema.nullable()
      .optional()
      .describe("The language the case is filled in; null: the survey's source language (decision 054)"),
    Signature: z
      .object({ SignerName: z.string(), Meaning: SignatureMeaningSchema, SignedAt: z.string() })
      .nullable()
      .optional()
      .describe("The electronic signature that closed the case, where one did (decision 029)"),
    Respondent: z
      .enum(["link", "handover"])
      .nullable()
      .optional()
      .describe("Who answered: null staff, the patient through a link or on a handed-over device (decision 057)"),
    SubmittedByPatient: z
      .object({ LinkId: z.number().int(), At: z.string() })
      .nullable()
      .optional()
      .describe("An Open case the patient submitted through their link, waiting for staff's review (decision 057)"),
  })
  .meta({ id: "PatientRecord" });
export type PatientRecord = z.infer<typeof PatientRecordSchema>;

export const PatientLookupSchema = z
  .object({ OpenIds: z.array(z.string()), IsClosed: z.boolean() })
  .meta({ id: "PatientLookup" });

export const OpenResponseSchema = z
  .object({
    PatientId: z.string(),
    ModifiedDate: z.string().describe("ISO-8601 UTC"),
    Version: CaseVersionSchema,
    ToReview: z
      .boolean()
      .optional()
      .describe("Submitted by the patient through their link, waiting for staff's review (decision 057)"),
  })
  .meta({ id: "OpenResponse" });

export const NewPatientSchema = z.object({ PatientId: z.string(), PatientDataId: id }).meta({ id: "NewPatient" });

/** How many of a survey's most recently changed Open cases GET /patients/latest lists unless asked. */
export const LATEST_DEFAULT = 10;

/** A case of a survey, as the API's query names it: ?patientId&surveyId. */
export const CaseQuery = z.object({ patientId: PatientIdSchema, surveyId: IdParamSchema });

/** POST /patients/add: the case, and the language it is filled in (docs/decisions/055-fill-languages.md). */
export const NewCaseQuery = CaseQuery.extend({
  language: ContentLanguageSchema.optional().describe(
    "The language the case is filled in: the survey's source language or one it offers (default: the source)",
  ),
});

/** POST /patients/language: the language the case is filled in from now on. */
export const CaseLanguageSchema = z
  .strictObject({ Language: ContentLanguageSchema })
  .meta({ id: "CaseLanguage", description: "The survey's source language or one it offers" });
