/**
 * Which questions a person filling a survey sees (section 4, Visibility). Pure and free of zod: the same
 * code decides on the server, in the page and offline.
 *
 * - A question with a Dependence is shown or hidden by the preliminary answers: SHOW shows it when any
 *   listed preliminary answer was chosen, HIDE hides it when any was chosen. Without one it is shown.
 * - A sub-question shows only under a chosen answer option of its visible parent (and its own Dependence,
 *   if it has one, must allow it too).
 */

export interface DependenceRule {
  Type: "SHOW" | "HIDE";
  PreliminaryAnswerOptions: readonly number[];
}

/** The part of a question (section 3) that visibility looks at; the wire Question fits it. */
export interface TreeQuestion<Q> {
  Id: number;
  Dependence?: DependenceRule | null;
  AnswerOptions: readonly { Id: number; SubQuestions: readonly Q[] }[];
}

/** The chosen options of one question's answer (other answer kinds carry none). */
export interface ChosenOptions {
  AnswerOptionIds?: readonly number[];
}

/** Answers by question id; only the chosen options matter here. */
export type ChoiceAnswers = Readonly<Record<number, ChosenOptions | undefined>>;

/**
 * The preliminary answers: either preliminary question id → chosen preliminary answer id (as the page
 * keeps them), or the chosen preliminary answer ids themselves.
 */
export type PreliminaryChoice = Readonly<Record<number, number | null | undefined>> | Iterable<number>;

function isIterable(value: unknown): value is Iterable<number> {
  return typeof value === "object" && value !== null && Symbol.iterator in value;
}

/** The chosen preliminary answer ids. */
export function chosenPreliminaryOptions(preliminary: PreliminaryChoice): ReadonlySet<number> {
  if (isIterable(preliminary)) return new Set(preliminary);
  const chosen = new Set<number>();
  for (const value of Object.values(preliminary)) if (typeof value === "number") chosen.add(value);
  return chosen;
}

/** Whether a Dependence rule lets its question show, given the chosen preliminary answer ids. */
export function dependenceAllows(rule: DependenceRule | null | undefined, chosen: ReadonlySet<number>): boolean {
  if (!rule || rule.PreliminaryAnswerOptions.length === 0) return true;
  const hit = rule.PreliminaryAnswerOptions.some((id) => chosen.has(id));
  return rule.Type === "SHOW" ? hit : !hit;
}

/** Whether the preliminary answers let this question show (its own Dependence only). */
export function isShownByPreliminary(
  question: { Dependence?: DependenceRule | null },
  preliminary: PreliminaryChoice,
): boolean {
  return dependenceAllows(question.Dependence, chosenPreliminaryOptions(preliminary));
}

function chosenOf(answers: ChoiceAnswers, questionId: number): ReadonlySet<number> {
  return new Set(answers[questionId]?.AnswerOptionIds ?? []);
}

/**
 * The sub-questions directly under the chosen answer options of a (visible) question that the preliminary
 * answers let show, in the order of the options and then of the sub-questions.
 */
export function visibleSubQuestions<Q extends TreeQuestion<Q>>(
  question: Q,
  answers: ChoiceAnswers,
  preliminary: PreliminaryChoice,
): Q[] {
  const chosen = chosenOf(answers, question.Id);
  const prelim = chosenPreliminaryOptions(preliminary);
  return question.AnswerOptions.filter((o) => chosen.has(o.Id))
    .flatMap((o) => o.SubQuestions)
    .filter((q) => dependenceAllows(q.Dependence, prelim));
}

/**
 * Every visible question of a list of top-level questions with its visible sub-questions, each followed
 * by the sub-questions under its chosen options (the order in which the page shows them).
 */
export function visibleQuestionTree<Q extends TreeQuestion<Q>>(
  questions: readonly Q[],
  preliminary: PreliminaryChoice,
  answers: ChoiceAnswers,
): Q[] {
  const prelim = chosenPreliminaryOptions(preliminary);
  const out: Q[] = [];
  const walk = (q: Q, depth: number) => {
    out.push(q);
    if (depth > 50) return;
    const chosen = chosenOf(answers, q.Id);
    for (const option of q.AnswerOptions) {
      if (!chosen.has(option.Id)) continue;
      for (const sub of option.SubQuestions) if (dependenceAllows(sub.Dependence, prelim)) walk(sub, depth + 1);
    }
  };
  for (const q of questions) if (dependenceAllows(q.Dependence, prelim)) walk(q, 0);
  return out;
}

/** The ids of the visible questions (top-level and sub-questions). */
export function visibleQuestionIds<Q extends TreeQuestion<Q>>(
  questions: readonly Q[],
  preliminary: PreliminaryChoice,
  answers: ChoiceAnswers,
): Set<number> {
  return new Set(visibleQuestionTree(questions, preliminary, answers).map((q) => q.Id));
}

/** All top-level questions of a survey's categories, in category order. */
export function topLevelQuestions<Q>(categories: readonly { Questions: readonly Q[] }[]): Q[] {
  return categories.flatMap((c) => c.Questions);
}

/** Every question of a tree (visible or not), each before its sub-questions. */
export function allQuestions<Q extends TreeQuestion<Q>>(questions: readonly Q[]): Q[] {
  const out: Q[] = [];
  const walk = (q: Q, depth: number) => {
    out.push(q);
    if (depth > 50) return;
    for (const o of q.AnswerOptions) for (const s of o.SubQuestions) walk(s, depth + 1);
  };
  for (const q of questions) walk(q, 0);
  return out;
}

/** Every question of a survey's categories, sub-questions included, in the order the page shows them. */
export function surveyQuestions<Q extends TreeQuestion<Q>>(survey: {
  Categories: readonly { Questions: readonly Q[] }[];
}): Q[] {
  return allQuestions(topLevelQuestions(survey.Categories));
}

/** Every question of a survey by its id, sub-questions included. */
export function questionsById<Q extends TreeQuestion<Q>>(survey: {
  Categories: readonly { Questions: readonly Q[] }[];
}): Map<number, Q> {
  return new Map(surveyQuestions(survey).map((q) => [q.Id, q]));
}

/**
 * The questions that carry an answer but are not visible: after a change of the preliminary answers or of
 * a choice, these answers are to be removed.
 */
export function hiddenAnsweredQuestionIds<Q extends TreeQuestion<Q>>(
  questions: readonly Q[],
  preliminary: PreliminaryChoice,
  answers: Readonly<Record<number, unknown>>,
): number[] {
  const visible = visibleQuestionIds(questions, preliminary, answers as ChoiceAnswers);
  return allQuestions(questions)
    .map((q) => q.Id)
    .filter((id) => answers[id] !== undefined && !visible.has(id));
}
