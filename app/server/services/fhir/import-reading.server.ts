import { translate } from "~/server/locales.server";
import type { LossKind, LossPlace, Losses } from "./import-losses.server";
import {
  codeOfCondition,
  describeCondition,
  ITEM_KEYS,
  nameOf,
  optionOf as optionOfParts,
  type containedValueSets,
} from "./import-parts.server";
import { HELD_TYPES, questionsUnder } from "./import-items.server";
import type { ImportPlan, PlanQuestion } from "./import-plan-types.server";
import type { ImportAnswerOption, ImportEnableWhen, ImportItem, ImportQuestionnaire } from "./import-schema.server";
import { readTranslations } from "./translations.server";

/**
 * One Questionnaire's import as it is read (import-plan.server.ts): the plan being made, the losses noted,
 * what later steps need of what was read, and the steps every kind of item shares.
 */

/** A calculated item that adds up the answers' scores: the first that sums them all is the survey's total. */
export interface ScoreSum {
  item: ImportItem;
  kind: LossKind;
  names: Set<string>;
}

/** An item whose single condition is on another choice's answer: later, it becomes a sub-question there. */
export interface PendingMove {
  question: PlanQuestion;
  on: string;
  code: string;
  from: PlanQuestion[];
}

export type PlanCategory = ImportPlan["categories"][number];

export interface PlanReading {
  q: ImportQuestionnaire;
  culture: string | undefined;
  losses: Losses;
  plan: ImportPlan;
  valueSets: ReturnType<typeof containedValueSets>;
  /** Conditions name the questions they ask about by their texts. */
  textOf: Map<string, string>;
  prelimOf: Map<string, ImportPlan["prelims"][number]>;
  questionOf: Map<string, PlanQuestion>;
  totals: ScoreSum[];
  moves: PendingMove[];
  /** Categories whose every question was refused or left out: not made (an empty group's category is). */
  emptied: Set<PlanCategory>;
}

export const asQuestion = (item: ImportItem): LossPlace => ({
  linkId: item.linkId,
  name: nameOf(item),
  unit: "question",
});
export const asGroup = (item: ImportItem): LossPlace => ({ linkId: item.linkId, name: nameOf(item), unit: "group" });

export const quoted = (r: PlanReading, text: string) => translate(r.culture, "fhir.notKept.quoted", { text });

/** A condition as the editor reads it, the question it asks about by its text. */
export const condition = (r: PlanReading, w: ImportEnableWhen) =>
  describeCondition(w, (id) => quoted(r, r.textOf.get(id) ?? id));

/** An answer option of an item, its losses noted as the item's. */
export const optionOf = (r: PlanReading, o: ImportAnswerOption, item: ImportItem) =>
  optionOfParts<PlanQuestion>(o, asQuestion(item), r.losses);

/** A paragraph of the start text, with its translations. */
export function intro(r: PlanReading, item: ImportItem) {
  r.plan.intro.push(item.text!);
  r.plan.introTexts.push(readTranslations(item._text));
}

/** The properties of an item the import does not read: a required answer, a preset one, any other. */
export function otherProperties(r: PlanReading, item: ImportItem, at: LossPlace) {
  for (const [key, value] of Object.entries(item)) {
    if (key === "required" && value === true) {
      if (at.unit === "question") r.losses.note({ kind: "required", at });
      else r.losses.property(at, key, value);
    } else if (key === "initial") r.losses.note({ kind: "initial", at });
    else if (!ITEM_KEYS.has(key)) r.losses.property(at, key, value);
  }
}

/** A repeating group is refused with all it holds: a survey has no block that repeats per entry. */
export function refusedRepeat(r: PlanReading, item: ImportItem): boolean {
  if (item.repeats !== true) return false;
  if (item.type === "group") {
    r.losses.note({ kind: "repeatingGroup", at: asGroup(item), count: questionsUnder(item.item) });
    return true;
  }
  // A choice that repeats takes several answers; a file item that repeats takes several files.
  if (item.type === "choice" || item.type === "open-choice" || !HELD_TYPES.has(item.type)) return false;
  r.losses.note({ kind: "repeatingItem", at: asQuestion(item), count: 1 + questionsUnder(item.item) });
  return true;
}

/**
 * A rule from conditions on preliminary questions; null when there are no conditions, undefined when they
 * make no rule.
 */
export function ruleOf(r: PlanReading, conditions: ImportEnableWhen[], behavior: string | undefined) {
  if (conditions.length === 0) return null;
  const refs = conditions.map((w) => ({ linkId: w.question, code: codeOfCondition(w), op: w.operator }));
  const onPrelims = refs.every((ref) => r.prelimOf.has(ref.linkId) && ref.code !== null);
  const ops = new Set(refs.map((ref) => ref.op));
  const single = refs.length === 1;
  if (onPrelims && ops.size === 1 && ops.has("=") && (single || behavior !== "all"))
    return { type: "SHOW" as const, refs: refs.map((ref) => ({ linkId: ref.linkId, code: ref.code! })) };
  if (onPrelims && ops.size === 1 && ops.has("!=") && (single || behavior === "all"))
    return { type: "HIDE" as const, refs: refs.map((ref) => ({ linkId: ref.linkId, code: ref.code! })) };
  return undefined;
}
