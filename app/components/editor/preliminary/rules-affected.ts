import type { Category } from "~/domain/survey";
import { allQuestions, topLevelQuestions } from "~/domain/visibility";

/** A question whose show/hide rule names preliminary entries that are about to go. */
export interface AffectedRule {
  questionId: number;
  title: string;
  /** True when no entry of the rule is left: the question loses its rule and always shows. */
  whole: boolean;
}

/**
 * The questions (sub-questions too) whose rule uses any of `removedIds` (preliminary answer options about
 * to be removed or deleted with their question): the server takes those entries out of the rules, and a
 * rule with none left is removed. The editor says so before it happens.
 */
export function rulesAffected(categories: readonly Category[], removedIds: readonly number[]): AffectedRule[] {
  const removed = new Set(removedIds);
  if (removed.size === 0) return [];
  return allQuestions(topLevelQuestions(categories)).flatMap((q) => {
    const used = q.Dependence?.PreliminaryAnswerOptions ?? [];
    if (!used.some((id) => removed.has(id))) return [];
    return [{ questionId: q.Id, title: q.Title, whole: used.every((id) => removed.has(id)) }];
  });
}
