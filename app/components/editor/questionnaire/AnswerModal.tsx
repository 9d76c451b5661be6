import type { AnswerOption, Question, Survey } from "~/domain/survey";

// Replaced by the real modal; kept only so the page builds meanwhile.
export function AnswerModal(_props: {
  open: boolean;
  survey: Survey;
  question: Question;
  answer?: AnswerOption;
  onClose: () => void;
}) {
  return null;
}
