/**
 * Ids in addresses and forms: the database's positive 32-bit integers, written as plain decimal digits
 * ("12", not "012", "1e3", " 12" or "12.0"). The one parser for route parameters, query strings and form
 * fields.
 */
export const MAX_ID = 2 ** 31 - 1;
const DIGITS = /^[1-9]\d{0,9}$/;

/** The id a value names, or null. */
export function positiveId(value: unknown): number | null {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value : "";
  if (!DIGITS.test(text)) return null;
  const id = Number(text);
  return id <= MAX_ID ? id : null;
}

/** The distinct ids among the values, in their order, at most `max`. */
export function positiveIds(values: readonly unknown[], max = Infinity): number[] {
  const ids = values.map(positiveId).filter((id): id is number => id !== null);
  return [...new Set(ids)].slice(0, max);
}
