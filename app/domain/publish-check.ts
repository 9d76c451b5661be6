/**
 * What an approver sees before publishing (section 4: a published survey can no longer be edited): every
 * problem that would reach the people filling it in, and what is being released. The same check refuses the
 * publication on the server.
 */
import { translationProgress, type ContentLanguage, type TranslatableText } from "./content-languages";
import { isSelection } from "./question-types";
import type { Question, Survey } from "./survey";
import { surveyQuestions } from "./visibility";

export type PublishProblem =
  | { kind: "noTitle" }
  | { kind: "noQuestion" }
  | { kind: "emptyCategory"; category: string; categoryId: number }
  | { kind: "noAnswers"; question: string; questionId: number }
  | { kind: "noMarkers"; question: string; questionId: number }
  | { kind: "noImage"; question: string; questionId: number }
  | { kind: "brokenRule"; question: string; questionId: number }
  | { kind: "untranslated"; language: ContentLanguage; count: number; first: TranslatableText[] };

/** How many untranslated texts the check names by their place; the rest it counts. */
export const UNTRANSLATED_NAMED = 3;

export interface PublishSummary {
  categories: number;
  questions: number;
  /** Questions shown or hidden by preliminary answers. */
  rules: number;
  preliminaryQuestions: number;
}

const choice = (q: Question) => isSelection(q.Type);

type Checked = Pick<Survey, "Title" | "Categories" | "PatientForm"> &
  Partial<Pick<Survey, "Description" | "IntroText" | "OutroText" | "ScoreTitle" | "Languages" | "Translations">>;

export function publishProblems(survey: Checked): PublishProblem[] {
  const problems: PublishProblem[] = [];
  if (!survey.Title.trim()) problems.push({ kind: "noTitle" });
  const questions = surveyQuestions(survey);
  if (questions.length === 0) problems.push({ kind: "noQuestion" });
  for (const category of survey.Categories) {
    if (category.Questions.length === 0 && questions.length > 0) {
      problems.push({ kind: "emptyCategory", category: category.Title, categoryId: category.Id });
    }
  }
  const preliminary = new Set(survey.PatientForm.flatMap((a) => a.AnswerOptions.map((o) => o.Id)));
  for (const q of questions) {
    const at = { question: q.Title, questionId: q.Id };
    if (choice(q) && q.AnswerOptions.length === 0) problems.push({ kind: "noAnswers", ...at });
    if (q.Type === "Image" && !q.ImageSrc) problems.push({ kind: "noImage", ...at });
    if (q.Type === "Image" && q.AnswerOptions.length === 0) problems.push({ kind: "noMarkers", ...at });
    const rule = q.Dependence?.PreliminaryAnswerOptions ?? [];
    if (rule.some((id) => !preliminary.has(id))) problems.push({ kind: "brokenRule", ...at });
  }
  problems.push(...untranslated(survey));
  return problems;
}

/**
 * Each offered language with texts not translated yet: a patient reads those in the source language. Noted,
 * not blocking (docs/decisions/054-content-languages.md).
 */
function untranslated(survey: Checked): PublishProblem[] {
  const parts = { Description: "", IntroText: "", OutroText: "", ScoreTitle: null, Translations: {}, ...survey };
  return (survey.Languages ?? []).flatMap((language): PublishProblem[] => {
    const { missing } = translationProgress(parts, language).overall;
    if (missing.length === 0) return [];
    return [{ kind: "untranslated", language, count: missing.length, first: missing.slice(0, UNTRANSLATED_NAMED) }];
  });
}

/** The problems of each question, for the badge the editor shows on it. */
export function problemsByQuestion(problems: readonly PublishProblem[]): Map<number, PublishProblem[]> {
  const byQuestion = new Map<number, PublishProblem[]>();
  for (const problem of problems) {
    if (!("questionId" in problem)) continue;
    byQuestion.set(problem.questionId, [...(byQuestion.get(problem.questionId) ?? []), problem]);
  }
  return byQuestion;
}

/** Problems that keep a survey from being published; an empty category is shown but does not. */
export function blocksPublishing(problem: PublishProblem): boolean {
  return problem.kind !== "emptyCategory" && problem.kind !== "untranslated";
}

export function publishSummary(survey: Checked): PublishSummary {
  const questions = surveyQuestions(survey);
  return {
    categories: survey.Categories.length,
    questions: questions.length,
    rules: questions.filter((q) => q.Dependence).length,
    preliminaryQuestions: survey.PatientForm.length,
  };
}

/** A problem in words for the API's refusal (the pages say it in the person's language). */
export function describeProblem(problem: PublishProblem): string {
  switch (problem.kind) {
    case "noTitle":
      return "the survey has no title";
    case "noQuestion":
      return "the survey has no question";
    case "emptyCategory":
      return `the category "${problem.category}" has no question`;
    case "noAnswers":
      return `the question "${problem.question}" has no answers`;
    case "noImage":
      return `the image question "${problem.question}" has no image`;
    case "noMarkers":
      return `the image question "${problem.question}" has no markers`;
    case "brokenRule":
      return `the rule of "${problem.question}" names a preliminary answer that no longer exists`;
    case "untranslated":
      return `${problem.count} texts are not translated into ${problem.language}`;
  }
}
