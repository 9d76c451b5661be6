import { InstrumentSchema, instrumentLimits as L, type Coding, type Instrument } from "~/domain/instrument";
import type { ImportQuestionnaire } from "./import-schema.server";

/**
 * An imported instrument's identity (docs/decisions/040-fhir.md): the codes of its items and groups, and the
 * Questionnaire's name, identifiers, date, subject types, codes and copyright, held as the product's
 * `Codes` and `Instrument` (app/domain/instrument.ts), each within its limits.
 */

const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);
const text = (value: unknown, max: number) => (typeof value === "string" && value.trim() ? cut(value, max) : null);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** FHIR codings (an item's or a group's `code`) as the product's codes; one without a code is none. */
export function codesOf(codings: unknown): Coding[] {
  return list(codings)
    .flatMap((c) => {
      const coding = (c ?? {}) as { system?: unknown; code?: unknown; display?: unknown };
      const code = text(coding.code, L.code);
      return code
        ? [{ System: text(coding.system, L.system), Code: code, Display: text(coding.display, L.display) }]
        : [];
    })
    .slice(0, L.codes);
}

/**
 * The Questionnaire's identity, with the codes of the total score it calculates (`scoreCodes`); null when it
 * states none of it.
 */
export function instrumentOf(q: ImportQuestionnaire, scoreCodes: Coding[]): Instrument | null {
  const instrument: Instrument = {
    Name: text(q.name, L.name),
    Identifier: list(q.identifier)
      .flatMap((i) => {
        const id = (i ?? {}) as { system?: unknown; value?: unknown };
        const value = text(id.value, L.code);
        return value ? [{ System: text(id.system, L.system), Value: value }] : [];
      })
      .slice(0, L.identifiers),
    Date: text(q.date, L.date),
    SubjectType: list(q.subjectType)
      .flatMap((t) => text(t, L.subjectType) ?? [])
      .slice(0, L.subjectTypes),
    Codes: codesOf(q.code),
    Copyright: text(q.copyright, L.copyright),
    ...(scoreCodes.length > 0 ? { ScoreCodes: scoreCodes } : {}),
  };
  const empty =
    instrument.Name === null &&
    instrument.Identifier.length === 0 &&
    instrument.Date === null &&
    instrument.SubjectType.length === 0 &&
    instrument.Codes.length === 0 &&
    instrument.Copyright === null &&
    scoreCodes.length === 0;
  return empty ? null : InstrumentSchema.parse(instrument);
}
