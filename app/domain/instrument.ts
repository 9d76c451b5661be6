import { z } from "./zod";

/**
 * What keeps an imported instrument's identity (docs/decisions/051-instrument-scores.md): the codes of its
 * items and groups, and the instrument itself (name, identifiers, date, subject types, codes, copyright, and
 * the codes of its total score, docs/decisions/040-fhir.md).
 * Stored as JSON text; the editor shows them and keeps them, and only an import or the API sets them.
 */

export const instrumentLimits = {
  codes: 50,
  system: 500,
  code: 200,
  display: 500,
  name: 500,
  identifiers: 20,
  date: 30,
  subjectTypes: 20,
  subjectType: 100,
  copyright: 5000,
} as const;

const L = instrumentLimits;

export const CodingSchema = z
  .strictObject({
    System: z.string().max(L.system).nullable().describe("The code system, e.g. http://loinc.org"),
    Code: z.string().min(1).max(L.code),
    Display: z.string().max(L.display).nullable(),
  })
  .meta({ id: "Coding" });
export type Coding = z.infer<typeof CodingSchema>;

export const CodesSchema = z.array(CodingSchema).max(L.codes);

export const InstrumentSchema = z
  .strictObject({
    Name: z.string().max(L.name).nullable(),
    Identifier: z
      .array(z.strictObject({ System: z.string().max(L.system).nullable(), Value: z.string().min(1).max(L.code) }))
      .max(L.identifiers),
    Date: z.string().max(L.date).nullable().describe("The instrument's date as its publisher gives it"),
    SubjectType: z.array(z.string().min(1).max(L.subjectType)).max(L.subjectTypes),
    Codes: CodesSchema,
    Copyright: z.string().max(L.copyright).nullable(),
    ScoreCodes: CodesSchema.optional().describe(
      "The codes of the instrument's total score (e.g. LOINC 44261-6), when the survey computes it (ScoreTitle)",
    ),
  })
  .meta({ id: "Instrument", description: "The identity of the instrument a survey holds" });
export type Instrument = z.infer<typeof InstrumentSchema>;

/** Stored codes as the API shows them; a damaged value reads as none. */
export function codesOf(json: string | null | undefined): Coding[] {
  const parsed = CodesSchema.safeParse(parseJson(json));
  return parsed.success ? parsed.data : [];
}

/** A stored instrument as the API shows it; none, or a damaged value, reads as null. */
export function instrumentOf(json: string | null | undefined): Instrument | null {
  const parsed = InstrumentSchema.safeParse(parseJson(json));
  return parsed.success ? parsed.data : null;
}

function parseJson(json: string | null | undefined): unknown {
  if (!json) return null;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return null;
  }
}

/** Codes as stored: JSON text, "[]" for none. */
export const storedCodes = (codes: readonly Coding[]) => JSON.stringify(codes);

/** An instrument as stored: JSON text, or null. */
export const storedInstrument = (instrument: Instrument | null) => (instrument ? JSON.stringify(instrument) : null);
