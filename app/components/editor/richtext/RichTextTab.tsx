import type { EditorTabProps } from "../types";

export function RichTextTab(_props: EditorTabProps & { field?: "IntroText" | "OutroText" }) {
  return null;
}
