import { z } from "./zod";
import { PATIENT_ID_MAX_LENGTH } from "./patient-id";
import { CultureSchema } from "./user";
import { IdSchema } from "./id-schema";
import { ContentLanguageSchema } from "./content-languages";

/**
 * The schemas of the plain page forms that only the server reads (decision 025): the survey list, the
 * archive, the language switch, the start page, the fill pages' fixed fields and the statistics downloads.
 * Their pages stay free of zod (their JavaScript budget); a refusal goes back to the page with its message.
 */

const id = IdSchema;
/** The form's key (decision 018): the same form sent twice has the effect of one. */
const formKey = z.string().max(64).optional();
/** The list's search, kept across its actions. */
const q = z
  .string()
  .max(200)
  .optional()
  .transform((v) => v ?? "");

export const SurveyListFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("create"), formKey, q }),
  z.object({ intent: z.literal("clone"), id, formKey, q }),
  z.object({ intent: z.literal("archive"), id, q }),
]);

export const ArchiveFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("restore"), id, q }),
  z.object({ intent: z.literal("delete"), id, q }),
]);

export const LanguageFormSchema = z.object({ locale: CultureSchema, redirectTo: z.string().max(2000).optional() });

/** The start form: the typed patient id (its rules are the start page's own, start-state.ts). */
export const StartFormSchema = z.object({
  intent: z.enum(["start", "open", "clear"]).optional(),
  patientId: z
    .string()
    .max(PATIENT_ID_MAX_LENGTH * 4, "start.surveyPatientIdInputError")
    .optional()
    .transform((v) => v ?? ""),
  closedId: z
    .string()
    .max(PATIENT_ID_MAX_LENGTH * 4)
    .optional(),
  formKey,
  /** The language a new case is filled in (docs/decisions/055-fill-languages.md); the API checks the survey has it. */
  language: ContentLanguageSchema.optional(),
});

/**
 * Where a fill page's form goes after saving (`exit`: a preliminary answer that ends the survey, confirmed: the
 * case ends; `submitAnyway`: a patient's submit confirmed while questions are unanswered, decision 067). The answers' fields (q{id}, a{id}, f{id}) follow the survey's
 * questions: fill-forms.server.ts reads them by question, and the API checks each value.
 */
const go = z
  .string()
  .regex(/^(stay|back|continue|outro|submit|submitAnyway|exit|language|category:\d+)$/)
  .optional()
  .transform((v) => v ?? "stay");

/** The language the fill header's switch names (`go`: language), or its own form on a page without answers. */
const language = ContentLanguageSchema.optional();

export const FillPageFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("savePreliminary"), go, formKey, language }),
  // The category shown (absent: the page goes on to the first one).
  z.object({ intent: z.literal("savePage"), categoryId: id.optional(), go, formKey, language }),
  // The switch on a page without a form of its own (the intro, the end page): only the language changes.
  z.object({ intent: z.literal("language"), language: ContentLanguageSchema }),
]);

/** The statistics screen's downloads: the CSV export, one attachment, a question's attachments as a zip. */
export const StatisticsDownloadFormSchema = z.discriminatedUnion("intent", [
  // The language of the survey's labels in the codebook and the scripts (docs/decisions/056-statistics-languages.md).
  z.object({ intent: z.literal("export"), language: ContentLanguageSchema.optional() }),
  z.object({ intent: z.literal("fhir") }),
  z.object({ intent: z.literal("file"), id }),
  z.object({ intent: z.literal("zip"), question: id, id: z.array(id).min(1).max(10_000) }),
]);
