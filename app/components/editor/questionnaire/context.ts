import { createContext, useContext } from "react";
import type { AnswerOption, Category, Question, Survey } from "~/domain/survey";
import type { QuestionType } from "~/domain/question-types";
import type { MoveTarget } from "../SortableList";
import type { PublishProblem } from "~/domain/publish-check";

export type QuestionModalMode =
  | { kind: "create"; type: QuestionType; categoryId: number }
  | { kind: "createSub"; type: QuestionType; parentAnswerOptionId: number }
  | { kind: "edit"; question: Question };

/** Which modal of the questionnaire tab is open. */
export type QuestionnaireModal =
  | { kind: "category"; category?: Category }
  | { kind: "deleteCategory"; category: Category }
  | { kind: "question"; mode: QuestionModalMode }
  | { kind: "deleteQuestion"; question: Question }
  | { kind: "answer"; question: Question; answer: AnswerOption }
  | { kind: "deleteAnswer"; question: Question; answer: AnswerOption }
  | null;

export interface QuestionnaireActions {
  survey: Survey;
  editable: boolean;
  /** What keeps each question from being published (its badges); empty when the survey is not a Draft. */
  problems: ReadonlyMap<number, readonly PublishProblem[]>;
  open: (modal: QuestionnaireModal) => void;
  move: (target: MoveTarget) => Promise<boolean>;
}

export const QuestionnaireContext = createContext<QuestionnaireActions | null>(null);

export function useQuestionnaire(): QuestionnaireActions {
  const value = useContext(QuestionnaireContext);
  if (!value) throw new Error("useQuestionnaire outside the questionnaire tab");
  return value;
}
