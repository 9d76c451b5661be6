import { useMemo } from "react";
import type { Answers, PreliminaryAnswers } from "~/domain/answers";
import type { Question, Survey } from "~/domain/survey";
import type { CategoryStatus } from "./CategorySidebar";

// Replaced by the shared rules of app/domain once they exist; kept only so the page builds meanwhile.
export function useFillRules(survey: Survey, _answers: Answers, _preliminary: PreliminaryAnswers) {
  return useMemo(
    () => ({
      isVisible: (_q: Question) => true,
      statuses: Object.fromEntries(survey.Categories.map((c) => [c.Id, "empty" as CategoryStatus])),
    }),
    [survey],
  );
}
