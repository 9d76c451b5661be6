/**
 * The offline sync contract (section 3 "Offline sync payload", section 7 "Offline sync", section 8 sync
 * errors): one fill made without a network, replayed in one request to POST /survey-offline-sync/{surveyId}.
 * Shared by the API, the offline store and the sync client.
 */
import { z } from "./zod";
import { IDEMPOTENCY_KEY } from "./idempotency";
import { PatientIdSchema } from "./fill-requests";
import { isValidDateTimeResponse, isValidNumericalResponse, TEXT_RESPONSE_MAX_LENGTH } from "./response-values";
import { IdSchema } from "./id-schema";
import { ContentLanguageSchema } from "./content-languages";

const id = IdSchema;

/** One question's answer in a sync payload: exactly the fields of its kind. */
export const SyncQuestionAnswerSchema = z.object({
  QuestionId: id,
  AnswerOptionId: id.nullable().optional(),
  AnswerOptionIds: z.array(id).max(500).nullable().optional(),
  TextResponse: z.string().max(TEXT_RESPONSE_MAX_LENGTH).nullable().optional(),
  NumericalResponse: z
    .number()
    .refine(isValidNumericalResponse, { message: "Expected a finite number in steps of 0.01" })
    .nullable()
    .optional(),
  DateTimeResponse: z
    .string()
    .refine(isValidDateTimeResponse, { message: "Expected a date and time as DD.MM.YYYY HH:mm" })
    .nullable()
    .optional(),
});
export type SyncQuestionAnswer = z.infer<typeof SyncQuestionAnswerSchema>;

export const SyncPreliminaryAnswerSchema = z.object({ QuestionId: id, AnswerOptionId: id });
export type SyncPreliminaryAnswer = z.infer<typeof SyncPreliminaryAnswerSchema>;

export const MAX_SYNC_ANSWERS = 2000;

export const OfflineSyncRequestSchema = z
  .object({
    PatientId: PatientIdSchema,
    SurveyHash: z.string().min(1).max(200).describe("The Hash of the survey the fill was made with"),
    Overwrite: z.boolean().default(false).describe("Replace the answers of an existing Open case of this patient id"),
    /** Whether the fill was submitted offline: the case is then closed once the answers are applied. */
    Close: z.boolean().default(false),
    QuestionAnswers: z.array(SyncQuestionAnswerSchema).max(MAX_SYNC_ANSWERS),
    PreliminaryQuestionAnswers: z.array(SyncPreliminaryAnswerSchema).max(MAX_SYNC_ANSWERS),
    AuthorId: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe(
        "Who made the fill (the provider's subject the device kept with it): a sync by anyone else is refused " +
          "with 403 SYNC_FILL_OTHER_AUTHOR, so a fill is only ever synced under the person who made it",
      ),
    BaseVersion: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        "The answers version of the Open case this fill continues (as the device had it): the answers are then " +
          "only the changes since, applied unless the case changed meanwhile (then SYNC_SURVEY_PATIENTID_CLASH)",
      ),
    RemovedQuestionIds: z
      .array(id)
      .max(MAX_SYNC_ANSWERS)
      .optional()
      .describe("With BaseVersion: questions whose answers the fill removed"),
    Respondent: z
      .literal("handover")
      .optional()
      .describe(
        "The fill was made while the device was handed over to the patient (docs/decisions/058-hand-over.md): " +
          "the case is then recorded as answered by the patient on the caller's device; absent: as it was",
      ),
    Language: ContentLanguageSchema.optional().describe(
      "The language the case was filled in on the device (the survey's source language or one it offers); " +
        "absent: the case keeps its language (docs/decisions/055-fill-languages.md)",
    ),
  })
  .superRefine((body, ctx) => {
    if (body.BaseVersion !== undefined && body.Overwrite) {
      ctx.addIssue({ code: "custom", path: ["Overwrite"], message: "Overwrite replaces the case: no BaseVersion" });
    }
    if (body.RemovedQuestionIds?.length && body.BaseVersion === undefined) {
      ctx.addIssue({ code: "custom", path: ["RemovedQuestionIds"], message: "Removed answers need the BaseVersion" });
    }
  })
  .meta({ id: "OfflineSyncRequest" });
export type OfflineSyncRequest = z.input<typeof OfflineSyncRequestSchema>;
/** A sync payload as the API has checked it (defaults applied). */
export type OfflineSyncPayload = z.output<typeof OfflineSyncRequestSchema>;

/** The answer of a sync: the case's id (section 7: "response data is the patient data id"). */
export const OfflineSyncResultSchema = z
  .object({
    Data: id.describe("PatientDataId of the case the fill went to"),
    Version: z
      .number()
      .int()
      .optional()
      .describe("The case's answers version right after this fill: a device continues the case from it"),
    SignatureRequired: z
      .literal(true)
      .optional()
      .describe(
        "Present when the fill asked to Close a case of a survey that requires an electronic signature: the " +
          "answers were saved and the case left Open, to be signed online",
      ),
  })
  .meta({ id: "OfflineSyncResult" });
export type OfflineSyncResult = z.infer<typeof OfflineSyncResultSchema>;

export const IdempotencyKeySchema = z.string().regex(IDEMPOTENCY_KEY, "8 to 100 letters, digits, '-' and '_'");

export { IDEMPOTENCY_HEADER, isSyncErrorType, syncErrorTypes, syncRecovery, type SyncErrorType } from "./sync-errors";
