import { z } from "~/domain/zod";
import { CaseHistorySchema, ReadableValueSchema, type AuditActor } from "./audit-reading";

/**
 * What is stored about one patient id in a survey (docs/decisions/042-retention-and-erasure.md, GDPR Art. 15):
 * the case, its answers as they are now in the survey's order, its files, the history of changes and the
 * signatures. The same data makes the printable page and the download.
 */
export const PatientDataSchema = z.object({
  SurveyId: z.number().int(),
  SurveyTitle: z.string(),
  PatientId: z.string(),
  State: z.enum(["Open", "Closed"]),
  CreatedAt: z.string(),
  ClosedAt: z.string().nullable(),
  Preliminary: z.array(z.object({ Title: z.string(), Value: ReadableValueSchema.nullable() })),
  Answers: z.array(z.object({ Title: z.string(), Value: ReadableValueSchema.nullable() })),
  Attachments: z.array(z.object({ Question: z.string(), FileName: z.string(), Size: z.number().int() })),
  History: CaseHistorySchema,
});
export type PatientData = z.infer<typeof PatientDataSchema>;

/** A patient's data as the page and its print show it: values and times formatted for the reader. */
export interface PatientDataShown {
  state: "Open" | "Closed";
  createdIso: string;
  created: string;
  closedIso: string | null;
  closed: string | null;
  preliminary: { title: string; value: string | null }[];
  answers: { title: string; value: string | null }[];
  attachments: { Question: string; FileName: string; Size: number }[];
  history: {
    id: number;
    title: string;
    entries: {
      key: string;
      atIso: string;
      at: string;
      /** Who gave the value: staff by name, the patient through a link or on a device handed over. */
      actor: AuditActor;
      value: string | null;
    }[];
  }[];
  signatures: { id: number; atIso: string; at: string; name: string; meaning: string }[];
}
