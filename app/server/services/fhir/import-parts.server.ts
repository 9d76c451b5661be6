import {
  ValueSetSchema,
  type ImportAnswerOption,
  type ImportExtension,
  type ImportEnableWhen,
  type ImportItem,
  type ImportQuestionnaire,
} from "./import-schema.server";
import { isScore } from "~/domain/scores";
import type { LossPlace, Losses } from "./import-losses.server";
import { readTranslations, type LanguageTexts } from "./translations.server";
import { EXT, HL7 } from "./types.server";

/** The pieces of a Questionnaire's import (import-plan.server.ts): known properties, answers, conditions. */

/** An answer option as the import keeps it; `sub` holds its sub-questions. */
export interface PlanOptionOf<Q> {
  code: string;
  /** The code's system. */
  system: string | null;
  text: string;
  /** The text's translations (docs/decisions/056-statistics-languages.md). */
  texts: LanguageTexts;
  /** The answer's score in its instrument (ordinalValue, itemWeight). */
  score: number | null;
  /** A test question's weight: the product's own extension only. */
  weight: number | null;
  weightingState: number;
  exit: boolean;
  x: number | null;
  y: number | null;
  sub: Q[];
}

/**
 * An item's properties the import reads, or that say nothing when they are false (required, readOnly); any
 * other is listed as not kept.
 */
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
  "required",
  "readOnly",
  "code",
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
  "_title",
  "_description",
  "language",
  "contained",
  "item",
  "subjectType",
  "contact",
  "copyright",
  "code",
  "experimental",
  "purpose",
  "jurisdiction",
  "useContext",
]);

export const isOwn = (url: string, path: string) => url.endsWith(path);
export const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);
export const nameOf = (item: ImportItem) => item.text?.trim() || item.linkId;

/** The answers of the ValueSets the Questionnaire contains, by "#id" and by url. */
export function containedValueSets(
  q: ImportQuestionnaire,
): Map<string, { code: string; system: string | null; text: string }[]> {
  const valueSets = new Map<string, { code: string; system: string | null; text: string }[]>();
  for (const r of q.contained ?? []) {
    const vs = ValueSetSchema.safeParse(r);
    if (!vs.success) continue;
    const concepts = [
      ...(vs.data.compose?.include.flatMap((i) => (i.concept ?? []).map((c) => ({ ...c, system: i.system }))) ?? []),
      ...(vs.data.expansion?.contains ?? []),
    ].map((c) => ({ code: c.code, system: c.system?.trim() || null, text: c.display ?? c.code }));
    if (vs.data.id) valueSets.set(`#${vs.data.id}`, concepts);
    if (vs.data.url) valueSets.set(vs.data.url, concepts);
  }
  return valueSets;
}

/** A score's value in an extension, when it is one the product holds (−9999 to 9999, 4 decimals). */
function scoreIn(e: ImportExtension): { score: number } | { raw: string } {
  const value = e.valueDecimal ?? e.valueInteger;
  return typeof value === "number" && isScore(value) ? { score: value + 0 } : { raw: String(value) };
}

const isScoreExtension = (url: string) => url === HL7.ordinalValue || url === HL7.itemWeight;

/**
 * An answer option: its code, system and text, its score (ordinalValue or itemWeight, on the option or on its
 * coding: a score, not a right answer), and the product's own exit, weighting-state, test-weight and
 * image-marker extensions; null when it has no value. What else it carries is noted as a loss of its question
 * (`at`). Exports from before test-weight wrote a test weight as ordinalValue on the coding beside
 * weighting-state: read so, that ordinalValue is the weight.
 */
export function optionOf<Q>(o: ImportAnswerOption, at: LossPlace, losses: Losses): PlanOptionOf<Q> | null {
  const coding = o.valueCoding;
  const raw = coding
    ? (coding.code ?? coding.display)
    : (o.valueString ?? o.valueInteger ?? o.valueDate ?? o.valueTime);
  if (raw === undefined) return null;
  const code = String(raw);
  const text = coding ? (coding.display ?? code) : code;
  const option: PlanOptionOf<Q> = {
    code,
    system: coding?.code !== undefined ? coding.system?.trim() || null : null,
    text,
    texts: coding ? readTranslations(coding._display) : readTranslations(o._valueString),
    score: null,
    weight: null,
    weightingState: 2,
    exit: false,
    x: null,
    y: null,
    sub: [],
  };
  if (o.initialSelected === true) losses.note({ kind: "initial", at });
  const own = o.extension ?? [];
  const legacyWeight =
    own.some((e) => isOwn(e.url, EXT.weightingState)) && !own.some((e) => isOwn(e.url, EXT.testWeight));
  let state: number | null = null;
  for (const e of [...(coding?.extension ?? []), ...own]) {
    const url = e.url;
    if (isScoreExtension(url)) {
      const read = scoreIn(e);
      if (legacyWeight && coding?.extension?.includes(e)) {
        if ("score" in read && [1, 2, 3].includes(read.score)) option.weight = read.score;
      } else if ("raw" in read) losses.note({ kind: "score", at, values: [read.raw] });
      // The first score stands: ordinalValue and itemWeight say the same where both are given.
      else option.score ??= read.score;
    } else if (isOwn(url, EXT.exitAnswer)) option.exit = e.valueBoolean === true;
    else if (isOwn(url, EXT.weightingState) && [0, 1, 2].includes(Number(e.valueInteger)))
      state = Number(e.valueInteger);
    else if (isOwn(url, EXT.testWeight) && [1, 2, 3].includes(Number(e.valueInteger)))
      option.weight = Number(e.valueInteger);
    else if (isOwn(url, EXT.imageMarker)) {
      const parts = (e.extension ?? []) as { url: string; valueDecimal?: number }[];
      option.x = parts.find((p) => p.url === "x")?.valueDecimal ?? null;
      option.y = parts.find((p) => p.url === "y")?.valueDecimal ?? null;
    } else losses.extension(at, e);
  }
  // A weighted answer counts as correct unless the product's own extension says otherwise; only a correct
  // answer has a weight (1 unless given).
  option.weightingState = state ?? (option.weight === null ? 2 : 1);
  option.weight = option.weightingState === 1 ? (option.weight ?? 1) : null;
  return option;
}

/**
 * A condition as the editor reads it: the question it asks about by its text (`nameOf`, by linkId), the
 * operator, and the answer by its text or value; no system URLs.
 */
export function describeCondition(w: ImportEnableWhen, nameOf: (linkId: string) => string): string {
  const answer = Object.entries(w).find(([k]) => k.startsWith("answer"))?.[1];
  const coding = answer as { code?: unknown; display?: unknown } | null;
  const value =
    coding && typeof coding === "object"
      ? String(coding.display ?? coding.code ?? "")
      : answer === undefined
        ? ""
        : String(answer as string | number | boolean);
  return `${nameOf(w.question)} ${w.operator} ${value}`.trim();
}

/** The answer code a condition compares with, or null when it compares something else (a number, a date). */
export function codeOfCondition(w: ImportEnableWhen): string | null {
  const c = w.answerCoding as { code?: string; display?: string } | undefined;
  if (c) return c.code ?? c.display ?? null;
  if (typeof w.answerString === "string") return w.answerString;
  return null;
}
