import { z } from "~/domain/zod";
import { PatientIdSchema } from "./fill-requests";

/** Why a case is erased (docs/decisions/042-retention-and-erasure.md). */
export const ERASURE_REASONS = ["consent", "retention", "wrongPatient"] as const;
export const ErasureReasonSchema = z.enum(ERASURE_REASONS);
export type ErasureReasonName = z.infer<typeof ErasureReasonSchema>;

/** An erasure asked for by a survey's approver: which patient id's case, and why. */
export const ErasureRequestSchema = z.object({
  SurveyId: z.number().int().positive(),
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
