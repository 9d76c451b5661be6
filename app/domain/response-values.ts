/**
 * What an answer value may be (section 5 and 9): free text up to a length, numbers on the 0.01 step, date
 * and time as "DD.MM.YYYY HH:mm". Pure and free of zod: the page and the server check with the same rules.
 */

export const TEXT_RESPONSE_MAX_LENGTH = 10_000;
export const NUMERIC_STEP = 0.01;
/** Numbers beyond this lose their hundredths in a double. */
export const NUMERIC_MAX_ABS = 1e12;

/** A finite number within range that sits on the 0.01 step (rounding noise of decimal input tolerated). */
export function isValidNumericalResponse(value: number): boolean {
  if (!Number.isFinite(value) || Math.abs(value) > NUMERIC_MAX_ABS) return false;
  const hundredths = value * 100;
  return Math.abs(hundredths - Math.round(hundredths)) < 1e-6;
}

/** The number as stored: rounded to the step. */
export function roundToStep(value: number): number {
  const rounded = Math.round(value * 100) / 100;
  return Object.is(rounded, -0) ? 0 : rounded;
}

/**
 * The digits of Arabic script (Arabic-Indic ٠–٩, and the extended ۰–۹ of Persian and Urdu keyboards), its
 * decimal separator "٫" and the minus sign "−" as the ASCII a number is read from.
 */
function westernDigits(text: string): string {
  return text.replace(/[\u0660-\u0669\u06f0-\u06f9\u066b\u2212]/g, (c) => {
    const code = c.charCodeAt(0);
    if (c === "\u066b") return ".";
    if (c === "\u2212") return "-";
    return String(code - (code >= 0x06f0 ? 0x06f0 : 0x0660));
  });
}

/**
 * A number as a person types it ("1,5", " 2.345 ", "٧٫٥" on an Arabic keyboard): on the 0.01 step, or null
 * when it is no number or out of range. The fill page and its form without JavaScript read typed numbers with
 * this one rule.
 */
export function typedToNumber(text: string): number | null {
  const trimmed = westernDigits(text.trim());
  if (trimmed === "") return null;
  const n = Number(trimmed.replace(",", "."));
  if (!Number.isFinite(n) || Math.abs(n) > NUMERIC_MAX_ABS) return null;
  return roundToStep(n);
}

const WIRE_DATE_TIME = /^(\d{2})\.(\d{2})\.(\d{4}) (\d{2}):(\d{2})$/;
const STORED_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/**
 * "24.12.2026 18:30" → "2026-12-24T18:30" (the wall-clock time as typed, without a time zone, so that it
 * sorts as text); null when it is not a real date and time.
 */
export function wireToStoredDateTime(value: string): string | null {
  const m = WIRE_DATE_TIME.exec(value.trim());
  if (!m) return null;
  const [, dd, mm, yyyy, hh, mi] = m;
  const year = Number(yyyy);
  const month = Number(mm);
  const day = Number(dd);
  if (year < 1 || month < 1 || month > 12 || day < 1 || Number(hh) > 23 || Number(mi) > 59) return null;
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${yyyy}-${mm}-${dd}T${hh}:${mi}`;
}

/** "2026-12-24T18:30" → "24.12.2026 18:30"; "" for anything else. */
export function storedToWireDateTime(value: string | null | undefined): string {
  const m = value ? STORED_DATE_TIME.exec(value) : null;
  return m ? `${m[3]}.${m[2]}.${m[1]} ${m[4]}:${m[5]}` : "";
}

/**
 * A date and time as a person types it, in the wire format "DD.MM.YYYY HH:mm"; null when it is not a real
 * date and time. Day, month and hour may have one digit, and a comma may follow the date
 * ("1.2.2026, 8:05" is "01.02.2026 08:05"); the year has four digits.
 */
export function typedToWireDateTime(value: string): string | null {
  // Digits as an Arabic keyboard types them ("٣٠.١١.٢٠٢٦ ٠٨:١٥") read as the numbers they are.
  const m = /^(\d{1,2})\.(\d{1,2})\.(\d{4}),?\s+(\d{1,2}):(\d{2})$/.exec(westernDigits(value.trim()));
  if (!m) return null;
  const two = (part: string) => part.padStart(2, "0");
  const wire = `${two(m[1])}.${two(m[2])}.${m[3]} ${two(m[4])}:${m[5]}`;
  return wireToStoredDateTime(wire) ? wire : null;
}

export function isValidDateTimeResponse(value: string): boolean {
  return wireToStoredDateTime(value) !== null;
}

/** Free text longer than the limit is refused. */
export function isValidTextResponse(value: string): boolean {
  return value.length <= TEXT_RESPONSE_MAX_LENGTH;
}
