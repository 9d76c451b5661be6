import type { PatientFormAttribute } from "~/domain/survey";
import type { DraftEntry } from "../entries";

export { addEntry, enterAction, nextKey, type DraftEntry } from "../entries";

export interface AttributeDraft {
  title: string;
  entries: DraftEntry[];
}

/** The draft a modal starts from: the question's values, or an empty title with one empty entry. */
export function initialDraft(attribute?: PatientFormAttribute): AttributeDraft {
  if (!attribute) return { title: "", entries: [{ key: 1, text: "", exit: false }] };
  return {
    title: attribute.Title,
    entries: attribute.AnswerOptions.map((a, i) => ({ key: i + 1, id: a.Id, text: a.Text, exit: a.IsExitAnswer })),
  };
}

/** The request body of POST /patient-attributes/ (no ids) or PUT /patient-attributes/{id} (ids of kept entries). */
export function draftBody(draft: AttributeDraft, surveyId: number) {
  return {
    SurveyId: surveyId,
    Title: draft.title.trim(),
    AnswerOptions: draft.entries.map((e) => ({
      ...(e.id !== undefined ? { Id: e.id } : {}),
      Text: e.text.trim(),
      IsExitAnswer: e.exit,
    })),
  };
}

/** True when saving the draft would change nothing of the question (section 4: such edits are skipped). */
export function isUnchanged(draft: AttributeDraft, attribute: PatientFormAttribute): boolean {
  if (draft.title.trim() !== attribute.Title) return false;
  if (draft.entries.length !== attribute.AnswerOptions.length) return false;
  return draft.entries.every((e, i) => {
    const saved = attribute.AnswerOptions[i];
    return e.id === saved.Id && e.text.trim() === saved.Text && e.exit === saved.IsExitAnswer;
  });
}
