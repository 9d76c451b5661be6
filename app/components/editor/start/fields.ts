/** Section 5 and 9: targeted results are a whole number from 0 to 9999. */
export const TARGET_MIN = 0;
export const TARGET_MAX = 9999;

/** The targeted results typed into the field, or null when it is no whole number from 0 to 9999. */
export function parseTarget(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= TARGET_MIN && value <= TARGET_MAX ? value : null;
}

/** The list of ids with `id` added (on) or removed (off), in ascending order, each once. */
export function toggleId(ids: readonly number[], id: number, on: boolean): number[] {
  const next = new Set(ids);
  if (on) next.add(id);
  else next.delete(id);
  return [...next].sort((a, b) => a - b);
}

/** The same ids, whatever the order. */
export function sameIds(a: readonly number[], b: readonly number[]): boolean {
  const x = [...new Set(a)].sort((m, n) => m - n);
  const y = [...new Set(b)].sort((m, n) => m - n);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/**
 * Section 5: a disabled team cannot be chosen; one that is already chosen can still be removed.
 */
export function canToggle(option: { Disabled?: boolean }, chosen: boolean): boolean {
  return !option.Disabled || chosen;
}
