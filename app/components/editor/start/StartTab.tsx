import type { EditorTabProps } from "../types";

export function StartTab(_props: EditorTabProps & { field?: "IntroText" | "OutroText" }) {
  return null;
}
