import type { EditorTabProps } from "../types";

export function QuestionnaireTab(_props: EditorTabProps & { field?: "IntroText" | "OutroText" }) {
  return null;
}
