/**
 * The status of each category while filling (section 4): empty when all its visible questions are
 * unanswered, complete when none is unanswered, in process otherwise. Answers to chosen options also count
 * the sub-questions they reveal. Pure and free of zod: the page, the server and the offline layer share it.
 */
import { isAnswered, type AnswerValue } from "./answers";
import { visibleQuestionTree, type PreliminaryChoice, type TreeQuestion } from "./visibility";

export type CategoryStatus = "empty" | "inProcess" | "complete";

export type FillAnswers = Readonly<Record<number, AnswerValue | undefined>>;

interface CategoryLike<Q> {
  Id: number;
  Questions: readonly Q[];
}

/**
 * One category's status. A category whose questions are all hidden has nothing left to answer and counts
 * as complete, so that it never holds back the submit button.
 */
export function categoryStatus<Q extends TreeQuestion<Q>>(
  category: { Questions: readonly Q[] },
  preliminary: PreliminaryChoice,
  answers: FillAnswers,
): CategoryStatus {
  const visible = visibleQuestionTree(category.Questions, preliminary, answers);
  const answered = visible.filter((q) => isAnswered(answers[q.Id])).length;
  if (answered === visible.length) return "complete";
  return answered === 0 ? "empty" : "inProcess";
}

/** The status of every category, by category id. */
export function categoryStatuses<Q extends TreeQuestion<Q>>(
  categories: readonly CategoryLike<Q>[],
  preliminary: PreliminaryChoice,
  answers: FillAnswers,
): Record<number, CategoryStatus> {
  const out: Record<number, CategoryStatus> = {};
  for (const c of categories) out[c.Id] = categoryStatus(c, preliminary, answers);
  return out;
}

/** Whether every category is complete (the submit button is then primary and next-category hidden). */
export function allComplete<Q extends TreeQuestion<Q>>(
  categories: readonly CategoryLike<Q>[],
  preliminary: PreliminaryChoice,
  answers: FillAnswers,
): boolean {
  return categories.every((c) => categoryStatus(c, preliminary, answers) === "complete");
}

/**
 * The category after the current one, wrapping around from the last to the first. An unknown or missing
 * current id gives the first category; no categories give null.
 */
export function nextCategory<T extends { Id: number }>(
  currentId: number | null | undefined,
  categories: readonly T[],
): T | null {
  if (categories.length === 0) return null;
  const index = categories.findIndex((c) => c.Id === currentId);
  if (index < 0) return categories[0];
  return categories[(index + 1) % categories.length];
}
