/**
 * Pure rules of the statistics screen, shared by the server, the page and the export: rounding (section 9:
 * percentages 2 decimals, score percentages 1 decimal, averages 2 decimals), score flags (section 4) and the
 * safety of CSV cells and file names. Free of zod.
 */
import type { ScoreFlag, ScoreThresholds } from "./statistics";

/** Rounds half away from zero to the given decimals, without binary drift (1.005 → 1.01). */
export function roundTo(value: number, decimals: number): number {
  if (!Number.isFinite(value)) return 0;
  const sign = value < 0 ? -1 : 1;
  const rounded = Number(`${Math.round(Number(`${Math.abs(value)}e${decimals}`))}e-${decimals}`);
  return sign * rounded || 0;
}

/** part of whole in percent, 2 decimals; 0 when there is no whole. */
export function percentOf(part: number, whole: number): number {
  return whole > 0 ? roundTo((part / whole) * 100, 2) : 0;
}

/** An average as shown: 2 decimals. */
export function roundAverage(value: number): number {
  return roundTo(value, 2);
}

/** A score percentage as shown: 1 decimal. */
export function roundScorePercentage(value: number): number {
  return roundTo(value, 1);
}

/**
 * The flag of a score: gray (4) when fewer cases than MinResponses answered or there is no score,
 * else red (1) below RedBelow %, yellow (2) below YellowBelow %, green (3) otherwise.
 */
export function scoreFlag(
  percentage: number | null | undefined,
  answeringCases: number,
  thresholds: ScoreThresholds,
): ScoreFlag {
  if (percentage === null || percentage === undefined || answeringCases < thresholds.MinResponses) return 4;
  if (percentage < thresholds.RedBelow) return 1;
  if (percentage < thresholds.YellowBelow) return 2;
  return 3;
}

/**
 * A text cell that a spreadsheet would take for a formula (starting with = + - @, or a tab or carriage
 * return before one) gets a leading apostrophe, so it shows as text and never runs.
 */
export function neutraliseCsvCell(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** The field separator a spreadsheet of the culture expects: ";" for German, "," otherwise. */
export function csvSeparator(culture: string | null | undefined): ";" | "," {
  return culture?.startsWith("de") ? ";" : ",";
}

/**
 * One CSV field: text is neutralised and quoted when needed; numbers are written with the culture's
 * decimal mark (a comma when the separator is ";"); null and undefined are empty.
 */
export function csvField(value: string | number | null | undefined, separator: ";" | "," = ","): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return "";
    const text = String(value);
    return separator === ";" ? text.replace(".", ",") : text;
  }
  const safe = neutraliseCsvCell(value);
  return /[";,\r\n]/.test(safe) || safe !== safe.trim() ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One CSV line (CRLF-terminated, as spreadsheets write them). */
export function csvLine(values: readonly (string | number | null | undefined)[], separator: ";" | "," = ","): string {
  return `${values.map((v) => csvField(v, separator)).join(separator)}\r\n`;
}

const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;

/**
 * A file name that is safe in a download header and inside an archive on any system: no path separators,
 * no "..", no control or reserved characters, no leading or trailing dots or spaces, not a reserved device
 * name, at most maxLength characters; the fallback when nothing is left.
 */
export function sanitiseFileName(name: string, fallback = "survey", maxLength = 100): string {
  let out = name
    .normalize("NFC")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, "_")
    .replace(/\.{2,}/g, ".")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^[.\s_]+|[.\s]+$/g, "");
  if (RESERVED.test(out)) out = `_${out}`;
  if (out.length > maxLength) out = out.slice(0, maxLength).replace(/[.\s]+$/g, "");
  return out || fallback;
}

/** The same name made unique among the names already used in one archive: "a.pdf", "a (2).pdf", ... */
export function uniqueFileName(name: string, used: Set<string>): string {
  let candidate = name;
  const dot = name.lastIndexOf(".");
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : "";
  for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
  used.add(candidate.toLowerCase());
  return candidate;
}
