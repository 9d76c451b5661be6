import { useTranslation } from "~/texts";
import type { SaveState } from "./save-queue";

const textOf: Record<Exclude<SaveState, "failed">, string> = {
  saving: "fill.fieldSaving",
  saved: "fill.fieldSaved",
  savedLocal: "fill.fieldSavedLocal",
};

/**
 * Whether a question's answer is being saved or is kept, on the server or on this device. A polite live
 * region: "saved" is announced; "saving" shows without being read out each time typing pauses. A refusal
 * shows as the question's failure icon.
 */
export function SaveStatus({ questionId, state }: { questionId: number; state: SaveState | undefined }) {
  const { t } = useTranslation();
  const text = state && state !== "failed" ? t(textOf[state]) : "";
  return (
    <span
      className={`save-state${state ? ` save-state--${state}` : ""}`}
      role="status"
      id={`q-${questionId}-saved`}
      data-testid="save-state"
      data-state={state ?? "none"}
    >
      {state === "saving" ? <span aria-hidden="true">{text}</span> : text}
    </span>
  );
}
