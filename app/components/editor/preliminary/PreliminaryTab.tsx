import type { EditorTabProps } from "../types";

export function PreliminaryTab(_props: EditorTabProps & { field?: "IntroText" | "OutroText" }) {
  return null;
}
