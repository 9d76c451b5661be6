import { z } from "./zod";

/**
 * Electronic signatures of cases (docs/decisions/029-signed-close.md): what a signature means, and how the
 * app shows one.
 */
export const SIGNATURE_MEANINGS = ["author", "reviewer", "approval"] as const;
export const SignatureMeaningSchema = z.enum(SIGNATURE_MEANINGS);
export type SignatureMeaningName = z.infer<typeof SignatureMeaningSchema>;

export function isSignatureMeaning(value: unknown): value is SignatureMeaningName {
  return typeof value === "string" && (SIGNATURE_MEANINGS as readonly string[]).includes(value);
}

/** Why a signing was refused at the callback; each has its message on the signing page (sign.errors.*). */
export const SIGNING_REFUSALS = [
  "stale",
  "otherAccount",
  "changed",
  "expired",
  "closed",
  "inactive",
  "failed",
] as const;
export type SigningRefusal = (typeof SIGNING_REFUSALS)[number];

export function isSigningRefusal(value: unknown): value is SigningRefusal {
  return typeof value === "string" && (SIGNING_REFUSALS as readonly string[]).includes(value);
}

export const CaseSignatureSchema = z
  .object({
    Id: z.number().int(),
    PatientDataId: z.number().int(),
    UserId: z.number().int().nullable(),
    SignerName: z.string(),
    Meaning: SignatureMeaningSchema,
    SignedAt: z.string().describe("ISO-8601 UTC"),
    AuthTime: z.string().describe("When the signer signed in afresh at the provider (ISO-8601 UTC)"),
    AnswersHash: z.string(),
  })
  .meta({ id: "CaseSignature" });
export type CaseSignature = z.infer<typeof CaseSignatureSchema>;
