import type { PatientFormAttribute } from "~/domain/survey";

/** One entry (answer) of the preliminary question being edited; `key` names it in the form only. */
export interface DraftEntry {
  key: number;
  /** The saved answer's Id; absent for an entry added in the modal. */
  id?: number;
  text: string;
  exit: boolean;
}

export interface AttributeDraft {
  title: string;
  entries: DraftEntry[];
}

/** What is wrong with a draft (section 5); `blank` lists the keys of blank entries. */
export interface DraftErrors {
  title: boolean;
  noEntries: boolean;
  blank: number[];
}

const isBlank = (text: string) => text.trim() === "";

/** The draft a modal starts from: the question's values, or an empty title with one empty entry. */
export function initialDraft(attribute?: PatientFormAttribute): AttributeDraft {
  if (!attribute) return { title: "", entries: [{ key: 1, text: "", exit: false }] };
  return {
    title: attribute.Title,
    entries: attribute.AnswerOptions.map((a, i) => ({ key: i + 1, id: a.Id, text: a.Text, exit: a.IsExitAnswer })),
  };
}

/** A key no entry of the list uses yet. */
export function nextKey(entries: DraftEntry[]): number {
  return entries.reduce((max, e) => Math.max(max, e.key), 0) + 1;
}

/** Title not blank, at least one entry, no blank entry; null when the draft may be sent. */
export function validateDraft(draft: AttributeDraft): DraftErrors | null {
  const errors: DraftErrors = {
    title: isBlank(draft.title),
    noEntries: draft.entries.length === 0,
    blank: draft.entries.filter((e) => isBlank(e.text)).map((e) => e.key),
  };
  return errors.title || errors.noEntries || errors.blank.length > 0 ? errors : null;
}

/**
 * What Enter in the entry `key` does: focus an empty entry if there is one (another one first, then the
 * entry itself), or else add a new entry.
 */
export function enterAction(entries: DraftEntry[], key: number): { kind: "focus"; key: number } | { kind: "add" } {
  const other = entries.find((e) => e.key !== key && isBlank(e.text));
  if (other) return { kind: "focus", key: other.key };
  const current = entries.find((e) => e.key === key);
  if (current && isBlank(current.text)) return { kind: "focus", key };
  return { kind: "add" };
}

/** The draft with one more empty entry at the end; the new entry's key comes with it. */
export function addEntry(entries: DraftEntry[]): { entries: DraftEntry[]; key: number } {
  const key = nextKey(entries);
  return { entries: [...entries, { key, text: "", exit: false }], key };
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
