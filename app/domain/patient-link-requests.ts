import { z } from "./zod";
import { ContentLanguageSchema } from "./content-languages";
import { PatientIdSchema } from "./fill-requests";
import { IdSchema } from "./id-schema";
import { LINK_EXPIRY_DEFAULT_DAYS, LINK_EXPIRY_MAX_DAYS, linkStates } from "./patient-links";

/** What staff send and get back about patients' links (docs/decisions/057-patient-links.md). */

const ExpiryDays = z
  .number()
  .int()
  .min(1)
  .max(LINK_EXPIRY_MAX_DAYS)
  .default(LINK_EXPIRY_DEFAULT_DAYS)
  .describe(`Days until the link expires (1 to ${LINK_EXPIRY_MAX_DAYS}, ${LINK_EXPIRY_DEFAULT_DAYS} when not said)`);

export const CreateLinkSchema = z.strictObject({
  SurveyId: IdSchema,
  PatientId: PatientIdSchema.describe("The case's patient id: its Open case, or a new case when it names none"),
  ExpiryDays: ExpiryDays,
  Language: ContentLanguageSchema.nullable()
    .optional()
    .describe("The language the link opens in: the survey's source language (null) or one it offers"),
});
export type CreateLink = z.infer<typeof CreateLinkSchema>;

export const RenewLinkSchema = z.strictObject({ ExpiryDays: ExpiryDays });

export const PatientLinkSchema = z
  .object({
    Id: z.number().int(),
    SurveyId: z.number().int(),
    PatientDataId: z.number().int(),
    PatientId: z.string(),
    Language: z.string().nullable(),
    State: z.enum(linkStates),
    ExpiresAt: z.string(),
    CreatedAt: z.string(),
    OpenedAt: z.string().nullable(),
    SubmittedAt: z.string().nullable(),
    RevokedAt: z.string().nullable(),
    RenewedFrom: z.number().int().nullable(),
  })
  .meta({ id: "PatientLink" });
export type PatientLink = z.infer<typeof PatientLinkSchema>;

export const MadeLinkSchema = z
  .object({
    Link: PatientLinkSchema,
    Token: z.string().describe("The token of the link's address /l/<token>: answered once, stored only hashed"),
    Code: z.string().describe("The short code to type on /l: answered once, stored only hashed"),
  })
  .meta({ id: "MadeLink" });
export type MadeLink = z.infer<typeof MadeLinkSchema>;
