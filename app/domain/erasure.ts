import { z } from "~/domain/zod";
import { PatientIdSchema } from "./fill-requests";
import { IdSchema } from "./id-schema";
import { RETENTION_MONTHS_MAX } from "./survey";

/** Why a case is erased (docs/decisions/042-retention-and-erasure.md). */
export const ERASURE_REASONS = ["consent", "retention", "wrongPatient"] as const;
export const ErasureReasonSchema = z.enum(ERASURE_REASONS);
export type ErasureReasonName = z.infer<typeof ErasureReasonSchema>;

/** An erasure asked for by a survey's approver: which patient id's case, and why. */
export const ErasureRequestSchema = z.strictObject({
  SurveyId: IdSchema,
  PatientId: PatientIdSchema,
  Reason: ErasureReasonSchema,
});
export type ErasureRequest = z.infer<typeof ErasureRequestSchema>;

/** What an erasure of a case would remove, for the confirmation that names it. */
export const ErasurePreviewSchema = z.object({
  PatientId: z.string(),
  Closed: z.boolean(),
  ClosedAt: z.string().nullable(),
  Answers: z.number().int(),
  PreliminaryAnswers: z.number().int(),
  Attachments: z.number().int(),
  Signatures: z.number().int(),
});
export type ErasurePreview = z.infer<typeof ErasurePreviewSchema>;

/** What an erasure removed; its tombstone's id and time. */
export const ErasureResultSchema = ErasurePreviewSchema.omit({ Closed: true, ClosedAt: true }).extend({
  ErasureId: z.number().int(),
  ErasedAt: z.string(),
  Reason: ErasureReasonSchema,
  AuditRows: z.number().int().describe("Audit rows whose values were removed; the chain still verifies"),
});
export type ErasureResult = z.infer<typeof ErasureResultSchema>;

/** A patient id whose case was erased, as the audit pages say it: when (ISO and as shown) and why. */
export interface ErasedCase {
  atIso: string | null;
  at: string | null;
  reason: ErasureReasonName | null;
}

/** What a retention period would erase on the next daily round: the survey's closed cases closed before `Before`. */
export const RetentionPreviewSchema = z.object({
  Months: z.number().int(),
  Before: z.string().describe("Cases closed before this moment are past the period"),
  Cases: z.number().int().describe("Closed cases of the survey the next daily round would erase with this period"),
});
export type RetentionPreview = z.infer<typeof RetentionPreviewSchema>;

/** The period asked about, in months (1 to the longest period a survey takes). */
export const RetentionMonthsQuery = z.coerce.number().int().min(1).max(RETENTION_MONTHS_MAX);
