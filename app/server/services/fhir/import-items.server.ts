import { lastPart, type LossKind } from "./import-losses.server";
import type { ImportItem } from "./import-schema.server";
import type { ImportPlan, PlanQuestion } from "./import-plan-types.server";

/**
 * What a Questionnaire's items are to a survey (import-plan.server.ts): the types it holds as questions, the
 * items it does not ask, the questions a refused item takes with it, and the calculated total it computes.
 */

/** The item types a survey holds as questions: everything else is left out, and so are their repeats. */
export const HELD_TYPES = new Set([
  "choice",
  "open-choice",
  "string",
  "text",
  "date",
  "dateTime",
  "time",
  "integer",
  "decimal",
]);

/**
 * An item that is shown but not answered, or not shown at all: a survey has no place for it, and as a
 * question it would ask someone to type what the form computes or keeps to itself.
 */
export function notAsked(item: ImportItem): LossKind | null {
  const parts = (item.extension ?? []).map((e) => [lastPart(e.url), e.valueBoolean] as const);
  if (parts.some(([name]) => name === "sdc-questionnaire-calculatedExpression")) return "calculated";
  if (item.readOnly === true) return "readOnly";
  if (parts.some(([name, on]) => name === "questionnaire-hidden" && on === true)) return "hidden";
  return null;
}

/** The questions under an item that a refused repeat takes with it (files and texts are not questions). */
export function questionsUnder(items: ImportItem[] = []): number {
  return items.reduce(
    (n, i) =>
      n + (i.type === "group" || i.type === "display" || i.type === "attachment" ? 0 : 1) + questionsUnder(i.item),
    0,
  );
}

/** What a total item carries that the survey's total is: its calculation, and that it is read-only or hidden. */
export const TOTAL_EXTENSIONS = new Set([
  "sdc-questionnaire-calculatedExpression",
  "sdc-questionnaire-initialExpression",
  "questionnaire-hidden",
]);

/**
 * The total of the survey among calculated sums: the first that names no questions, or names every question
 * with a scored answer (PHQ-9's names each of its nine); a sum of some of them (a subscale) is not the
 * survey's total, which adds up every chosen answer's score. None when no question has a scored answer.
 */
export function totalOf<T extends { names: Set<string> }>(plan: ImportPlan, totals: T[]): T | null {
  const scored: string[] = [];
  const walk = (questions: PlanQuestion[]) => {
    for (const q of questions) {
      if (q.options.some((o) => o.score !== null)) scored.push(q.linkId);
      for (const o of q.options) walk(o.sub);
    }
  };
  for (const c of plan.categories) walk(c.questions);
  if (scored.length === 0) return null;
  return totals.find((t) => t.names.size === 0 || scored.every((linkId) => t.names.has(linkId))) ?? null;
}

/** How many questions a plan makes, sub-questions included. */
export function questionCount(plan: ImportPlan): number {
  const count = (questions: PlanQuestion[]): number =>
    questions.reduce((n, q) => n + 1 + q.options.reduce((m, o) => m + count(o.sub), 0), 0);
  return plan.categories.reduce((n, c) => n + count(c.questions), 0);
}
