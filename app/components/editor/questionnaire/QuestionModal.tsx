import type { Survey } from "~/domain/survey";
import type { QuestionModalMode } from "./context";

// Replaced by the real modal; kept only so the page builds meanwhile.
export function QuestionModal(_props: { open: boolean; survey: Survey; mode: QuestionModalMode; onClose: () => void }) {
  return null;
}
