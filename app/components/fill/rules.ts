import { useMemo } from "react";
import type { Answers, PreliminaryAnswers } from "~/domain/answers";
import { categoryStatuses } from "~/domain/category-status";
import type { Question, Survey } from "~/domain/survey";
import { isShownByPreliminary } from "~/domain/visibility";

/**
 * The shared rules of app/domain applied to the page's answers: which questions show (a sub-question is
 * rendered only under a chosen answer, so its own rule is all that is left to check) and each category's status.
 */
export function useFillRules(survey: Survey, answers: Answers, preliminary: PreliminaryAnswers) {
  return useMemo(
    () => ({
      isVisible: (q: Question) => isShownByPreliminary(q, preliminary),
      statuses: categoryStatuses(survey.Categories, preliminary, answers),
    }),
    [survey, answers, preliminary],
  );
}
