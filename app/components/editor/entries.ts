/**
 * A list of answer entries typed one after the other, as in the preliminary question's modal and a new
 * choice question's answers: Enter goes on to the next (empty) entry, a pasted list of lines becomes one
 * entry per line, and entries move up and down in place.
 */

/** One entry being edited; `key` names it in the form only. */
export interface DraftEntry {
  key: number;
  /** The saved answer's Id; absent for an entry added in the modal. */
  id?: number;
  text: string;
  exit: boolean;
}

export const isBlank = (text: string) => text.trim() === "";

/** A key no entry of the list uses yet. */
export function nextKey(entries: DraftEntry[]): number {
  return entries.reduce((max, e) => Math.max(max, e.key), 0) + 1;
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

/** The list with one more empty entry at the end; the new entry's key comes with it. */
export function addEntry(entries: DraftEntry[]): { entries: DraftEntry[]; key: number } {
  const key = nextKey(entries);
  return { entries: [...entries, { key, text: "", exit: false }], key };
}

/** The lines of a pasted text, trimmed, without empty ones. */
export function pastedLines(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/**
 * A list of lines pasted into the entry `key`: the entry takes the first line when it is empty, and the
 * others (all, when it was not empty) follow it as new entries. Null for text of one line, which the field
 * takes as it is. The key of the last entry filled comes with the list.
 */
export function pasteEntries(
  entries: DraftEntry[],
  key: number,
  text: string,
): { entries: DraftEntry[]; key: number } | null {
  const lines = pastedLines(text);
  if (lines.length < 2) return null;
  const at = entries.findIndex((e) => e.key === key);
  if (at < 0) return null;
  const fillCurrent = isBlank(entries[at].text);
  let next = nextKey(entries);
  const added = (fillCurrent ? lines.slice(1) : lines).map((line) => ({ key: next++, text: line, exit: false }));
  const current = fillCurrent ? { ...entries[at], text: lines[0] } : entries[at];
  const list = [...entries.slice(0, at), current, ...added, ...entries.slice(at + 1)];
  return { entries: list, key: added.length > 0 ? added[added.length - 1].key : current.key };
}

/** The list with the entry at `from` moved to `to` (both indexes inside the list). */
export function moveEntry(entries: DraftEntry[], from: number, to: number): DraftEntry[] {
  if (from === to || from < 0 || to < 0 || from >= entries.length || to >= entries.length) return entries;
  const list = [...entries];
  const [moved] = list.splice(from, 1);
  list.splice(to, 0, moved);
  return list;
}
