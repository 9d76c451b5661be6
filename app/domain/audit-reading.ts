import { z } from "./zod";
import { DISPLAY_TIME_ZONE } from "./dates";
import { HANDOVER_ENDED_BY } from "./handover";
import { CaseSignatureSchema } from "./signatures";

/**
 * The audit trail as the app shows it (docs/decisions/028-audit-reading.md): a case's answer history per
 * question, and a survey's trail of changes to its structure and status.
 */

/** Times on these screens are shown in the app's display zone. */
export const AUDIT_TIME_ZONE = DISPLAY_TIME_ZONE;

/** How an answer reached the server: the answer API while filling online, or an offline fill's sync. */
export const AnswerSourceSchema = z.enum(["online", "sync"]);
export type AnswerSource = z.infer<typeof AnswerSourceSchema>;

/**
 * The patient who wrote a row (docs/decisions/057-patient-links.md): through link `Id`, or on the device of
 * staff member `Id` handed over to them (then the row's user and Name are that staff member's).
 */
export const AuditRespondentSchema = z.object({ Kind: z.enum(["link", "handover"]), Id: z.number().int() });
export type AuditRespondent = z.infer<typeof AuditRespondentSchema>;

export const AuditActorSchema = z.object({
  UserId: z.number().int().nullable(),
  /** The person's full name, or null when the row names no known user. */
  Name: z.string().nullable(),
  /** Set when the patient wrote the row, not staff. */
  Respondent: AuditRespondentSchema.nullable().optional(),
});
export type AuditActor = z.infer<typeof AuditActorSchema>;

/** An answer as a person reads it: option texts, not ids; the date as entered (DD.MM.YYYY HH:mm). */
export const ReadableValueSchema = z.object({
  Options: z.array(z.string()).optional(),
  Text: z.string().optional(),
  Number: z.number().optional(),
  DateTime: z.string().optional(),
});
export type ReadableValue = z.infer<typeof ReadableValueSchema>;

export const HistoryEntrySchema = z.object({
  Id: z.number().int(),
  At: z.string(),
  Actor: AuditActorSchema,
  Source: AnswerSourceSchema,
  Action: z.string(),
  /** Null: the question had no answer after this change. */
  Value: ReadableValueSchema.nullable(),
});

export const QuestionHistorySchema = z.object({
  QuestionId: z.number().int(),
  Title: z.string(),
  Entries: z.array(HistoryEntrySchema),
});
export type QuestionHistory = z.infer<typeof QuestionHistorySchema>;

/** The trail's rows of a hand-over's start and end (docs/decisions/058-hand-over.md). */
export const HANDOVER_EVENTS = ["handover.start", "handover.end"] as const;

/** A step of the case itself: the patient's submit (to review) and the case's close, oldest first. */
export const CaseEventSchema = z.object({
  Id: z.number().int(),
  At: z.string(),
  Actor: AuditActorSchema,
  Action: z.enum(["case.patientSubmit", "case.close", "case.autoClose", ...HANDOVER_EVENTS]),
  /** A hand-over's end: by the PIN, a fresh sign-in, or the PIN typed offline and sent later (decision 058). */
  EndedBy: z.enum(HANDOVER_ENDED_BY).optional(),
});
export type CaseEvent = z.infer<typeof CaseEventSchema>;

/** The locale key of a case's step in its history: "case.close" → close, a hand-over's end by how it ended. */
export function caseEventKey(action: CaseEvent["Action"], endedBy?: CaseEvent["EndedBy"] | null): string {
  if (action === "handover.start") return "audit.history.event.handoverStart";
  if (action === "handover.end") return `audit.history.event.handoverEnd${endedBy ? `_${endedBy}` : ""}`;
  return `audit.history.event.${action.replace("case.", "")}`;
}

export const CaseHistorySchema = z.object({
  SurveyId: z.number().int(),
  PatientId: z.string(),
  /** The preliminary questions (QuestionId is the preliminary question's id), in the survey's order. */
  PreliminaryQuestions: z.array(QuestionHistorySchema),
  Questions: z.array(QuestionHistorySchema),
  /** The electronic signatures of the case, oldest first (docs/decisions/029-signed-close.md). */
  Signatures: z.array(CaseSignatureSchema),
  /** The case's submit and close, who and when (docs/decisions/057-patient-links.md). */
  Events: z.array(CaseEventSchema).optional(),
});
export type CaseHistory = z.infer<typeof CaseHistorySchema>;

export const TrailEntrySchema = z.object({
  Id: z.number().int(),
  At: z.string(),
  Actor: AuditActorSchema,
  Action: z.string(),
  Entity: z.string(),
  EntityId: z.string().nullable(),
  Before: z.string().nullable(),
  After: z.string().nullable(),
});
export type TrailEntry = z.infer<typeof TrailEntrySchema>;

export const TRAIL_PAGE_SIZE = 50;

export const SurveyTrailSchema = z.object({
  Entries: z.array(TrailEntrySchema),
  Total: z.number().int(),
  Page: z.number().int(),
  PageSize: z.number().int(),
  /** The people and actions of the survey's trail, for the filter's choices. */
  Actors: z.array(AuditActorSchema),
  Actions: z.array(z.string()),
});
export type SurveyTrail = z.infer<typeof SurveyTrailSchema>;

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .optional()
  .or(z.literal("").transform(() => undefined));

/** The trail's filter, as the plain GET form sends it (empty fields mean no filter). */
export const TrailFilterSchema = z.object({
  actor: z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number)
    .optional()
    .or(z.literal("").transform(() => undefined)),
  action: z.string().max(100).optional(),
  from: isoDay,
  to: isoDay,
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type TrailFilter = z.infer<typeof TrailFilterSchema>;

/** The trail filter from a page's search parameters; an invalid field is dropped rather than refused. */
export function trailFilterOf(params: URLSearchParams): TrailFilter {
  const raw = Object.fromEntries(["actor", "action", "from", "to", "page"].map((k) => [k, params.get(k) ?? undefined]));
  const parsed = TrailFilterSchema.safeParse(raw);
  if (parsed.success) return { ...parsed.data, action: parsed.data.action || undefined };
  const out: TrailFilter = { page: 1 };
  for (const key of ["actor", "action", "from", "to", "page"] as const) {
    const one = TrailFilterSchema.shape[key].safeParse(raw[key]);
    if (one.success && one.data !== undefined && one.data !== "") Object.assign(out, { [key]: one.data });
  }
  return out;
}

/** The offset of a zone from UTC at an instant, in milliseconds. */
function zoneOffset(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(instant));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return asUtc - instant;
}

/** The instant a day (YYYY-MM-DD) starts in a zone, as an ISO timestamp in UTC. */
export function dayStartIn(day: string, timeZone: string, plusDays = 0): string {
  const [y, m, d] = day.split("-").map(Number);
  const local = Date.UTC(y, m - 1, d + plusDays);
  let instant = local - zoneOffset(local, timeZone);
  instant = local - zoneOffset(instant, timeZone);
  return new Date(instant).toISOString();
}

/** One audit row as the API shows it (docs/decisions/014-audit-log.md). */
export const AuditEntrySchema = z.object({
  Id: z.number().int(),
  At: z.string(),
  ActorUserId: z.number().int().nullable(),
  ActorSub: z.string().nullable(),
  Action: z.string(),
  Entity: z.string(),
  EntityId: z.string().nullable(),
  SurveyId: z.number().int().nullable(),
  PatientDataId: z.number().int().nullable(),
  PatientId: z.string().nullable(),
  Before: z.string().nullable(),
  After: z.string().nullable(),
  /** When an erasure removed Before and After (docs/decisions/042-retention-and-erasure.md). */
  ErasedAt: z.string().nullable(),
  /** The digest of [Before, After] that the row's hash covers (decision 042); it outlives an erasure. */
  ValuesHash: z.string().nullable(),
  /** The row's hash and the previous row's in its survey's chain (docs/decisions/027-audit-chain.md). */
  Hash: z.string().nullable(),
  PrevHash: z.string().nullable(),
});
export type AuditEntryView = z.infer<typeof AuditEntrySchema>;

/** The verdict on a survey's chain as the API answers it. */
export const AuditVerdictSchema = z.object({
  Ok: z.boolean(),
  Rows: z.number().int(),
  Erased: z
    .number()
    .int()
    .optional()
    .describe("Rows whose values an erasure removed (docs/decisions/042-retention-and-erasure.md); they verify"),
  FirstBad: z
    .object({
      Id: z.number().int(),
      Kind: z.enum(["changed", "removed", "inserted", "signature"]),
      PatientId: z
        .string()
        .nullable()
        .optional()
        .describe("For `signature`: the patient id of the signed case whose answers changed after signing"),
    })
    .optional(),
});
export type AuditVerdictView = z.infer<typeof AuditVerdictSchema>;
