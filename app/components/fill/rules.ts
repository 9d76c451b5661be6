import { useMemo } from "react";
import type { Answers, PreliminaryAnswers } from "~/domain/answers";
import { categoryStatuses } from "~/domain/category-status";
import type { Question, Survey } from "~/domain/survey";
import { isShownByPreliminary, visibleSubQuestions } from "~/domain/visibility";

/**
 * The shared rules of app/domain applied to the page's answers: which top-level questions show, which
 * sub-questions show under a question (the one rule of app/domain/visibility.ts), and each category's status.
 */
export function useFillRules(survey: Survey, answers: Answers, preliminary: PreliminaryAnswers) {
  return useMemo(
    () => ({
      isVisible: (q: Question) => isShownByPreliminary(q, preliminary),
      subQuestionsOf: (q: Question) => visibleSubQuestions(q, answers, preliminary),
      statuses: categoryStatuses(survey.Categories, preliminary, answers),
    }),
    [survey, answers, preliminary],
  );
}
