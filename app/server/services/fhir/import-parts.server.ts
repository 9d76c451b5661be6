import {
  ValueSetSchema,
  type ImportAnswerOption,
  type ImportEnableWhen,
  type ImportItem,
  type ImportQuestionnaire,
} from "./import-schema.server";
import { EXT, HL7 } from "./types.server";

/** The pieces of a Questionnaire's import (import-plan.server.ts): known properties, answers, conditions. */

/** Says what cannot be held: a message of fhir.notKept and its values. */
export type Note = (key: string, vars: Record<string, string>) => void;

/** An answer option as the import keeps it; `sub` holds its sub-questions. */
export interface PlanOptionOf<Q> {
  code: string;
  text: string;
  weight: number | null;
  weightingState: number;
  exit: boolean;
  x: number | null;
  y: number | null;
  sub: Q[];
}

/** An item's properties the import reads; any other is listed as not kept. */
export const ITEM_KEYS = new Set([
  "linkId",
  "text",
  "_text",
  "type",
  "repeats",
  "extension",
  "enableWhen",
  "enableBehavior",
  "answerOption",
  "answerValueSet",
  "item",
  "id",
]);

/** A Questionnaire's properties that either become the survey's or say nothing about its content. */
export const QUESTIONNAIRE_KEYS = new Set([
  "resourceType",
  "id",
  "meta",
  "text",
  "url",
  "identifier",
  "version",
  "name",
  "title",
  "status",
  "date",
  "publisher",
  "description",
  "language",
  "contained",
  "item",
  "subjectType",
  "contact",
  "copyright",
  "experimental",
  "purpose",
  "jurisdiction",
  "useContext",
]);

export const isOwn = (url: string, path: string) => url.endsWith(path);
export const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);
export const nameOf = (item: ImportItem) => item.text?.trim() || item.linkId;

/** The answers of the ValueSets the Questionnaire contains, by "#id" and by url. */
export function containedValueSets(q: ImportQuestionnaire): Map<string, { code: string; text: string }[]> {
  const valueSets = new Map<string, { code: string; text: string }[]>();
  for (const r of q.contained ?? []) {
    const vs = ValueSetSchema.safeParse(r);
    if (!vs.success) continue;
    const concepts = [
      ...(vs.data.compose?.include.flatMap((i) => i.concept ?? []) ?? []),
      ...(vs.data.expansion?.contains ?? []),
    ].map((c) => ({ code: c.code, text: c.display ?? c.code }));
    if (vs.data.id) valueSets.set(`#${vs.data.id}`, concepts);
    if (vs.data.url) valueSets.set(vs.data.url, concepts);
  }
  return valueSets;
}

/**
 * An answer option: its code and text, a weight from ordinalValue (1 to 3), and the product's own exit,
 * weighting-state and image-marker extensions; null when it has no value.
 */
export function optionOf<Q>(o: ImportAnswerOption, item: ImportItem, note: Note): PlanOptionOf<Q> | null {
  const coding = o.valueCoding;
  const raw = coding
    ? (coding.code ?? coding.display)
    : (o.valueString ?? o.valueInteger ?? o.valueDate ?? o.valueTime);
  if (raw === undefined) return null;
  const code = String(raw);
  const text = coding ? (coding.display ?? code) : code;
  const option: PlanOptionOf<Q> = {
    code,
    text,
    weight: null,
    weightingState: 2,
    exit: false,
    x: null,
    y: null,
    sub: [],
  };
  let state: number | null = null;
  for (const e of [...(coding?.extension ?? []), ...(o.extension ?? [])] as Record<string, unknown>[]) {
    const url = String(e.url);
    if (url === HL7.ordinalValue || url.endsWith("/itemWeight")) {
      const w = Number(e.valueDecimal ?? e.valueInteger);
      if (Number.isInteger(w) && w >= 1 && w <= 3) option.weight = w;
      else note("weight", { item: nameOf(item), option: text, weight: String(w) });
    } else if (isOwn(url, EXT.exitAnswer)) option.exit = e.valueBoolean === true;
    else if (isOwn(url, EXT.weightingState) && [0, 1, 2].includes(Number(e.valueInteger)))
      state = Number(e.valueInteger);
    else if (isOwn(url, EXT.imageMarker)) {
      const parts = (e.extension ?? []) as { url: string; valueDecimal?: number }[];
      option.x = parts.find((p) => p.url === "x")?.valueDecimal ?? null;
      option.y = parts.find((p) => p.url === "y")?.valueDecimal ?? null;
    } else note("extension", { item: nameOf(item), url });
  }
  // A weighted answer counts as correct unless the product's own extension says otherwise.
  option.weightingState = state ?? (option.weight === null ? 2 : 1);
  return option;
}

/** A condition as the editor reads it in the list of what is not kept. */
export function describeCondition(w: ImportEnableWhen): string {
  const answer = Object.entries(w).find(([k]) => k.startsWith("answer"));
  const value = answer ? JSON.stringify(answer[1]) : "";
  return `${w.question} ${w.operator} ${value}`;
}

/** The answer code a condition compares with, or null when it compares something else (a number, a date). */
export function codeOfCondition(w: ImportEnableWhen): string | null {
  const c = w.answerCoding as { code?: string; display?: string } | undefined;
  if (c) return c.code ?? c.display ?? null;
  if (typeof w.answerString === "string") return w.answerString;
  return null;
}
