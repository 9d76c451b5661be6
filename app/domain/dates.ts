/** Dates on the wire are DD.MM.YYYY (section 9); stored as YYYY-MM-DD. Free of zod. */

const WIRE = /^(\d{2})\.(\d{2})\.(\d{4})$/;

export function isValidIsoDate(iso: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) return false;
  const d = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === iso;
}

/** "24.12.2026" → "2026-12-24"; null when it is not a real date. */
export function wireToIsoDate(value: string): string | null {
  const m = WIRE.exec(value.trim());
  if (!m) return null;
  const iso = `${m[3]}-${m[2]}-${m[1]}`;
  return isValidIsoDate(iso) ? iso : null;
}

/** "2026-12-24" → "24.12.2026". */
export function isoToWireDate(iso: string | null | undefined): string {
  if (!iso) return "";
  const [y, m, d] = iso.split("-");
  return `${d}.${m}.${y}`;
}

/** Today as "YYYY-MM-DD" in UTC. */
export function todayIso(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

function pad(n: number) {
  return String(n).padStart(2, "0");
}

/** An ISO timestamp as DD.MM.YYYY HH:mm:ss in the given time zone (default: the runtime's). */
/**
 * The zone the app shows instants in (when a case was changed, an answer given, an audit row written): the
 * clinic's. The app has no per-person zone, and the server's own (often UTC) is nobody's.
 */
export const DISPLAY_TIME_ZONE = "Europe/Berlin";

export function formatDateTime(iso: string, withSeconds = true, timeZone?: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  if (timeZone) {
    const parts = new Intl.DateTimeFormat("de-DE", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    }).formatToParts(d);
    const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "00";
    return `${get("day")}.${get("month")}.${get("year")} ${get("hour")}:${get("minute")}${withSeconds ? `:${get("second")}` : ""}`;
  }
  const base = `${pad(d.getDate())}.${pad(d.getMonth() + 1)}.${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return withSeconds ? `${base}:${pad(d.getSeconds())}` : base;
}

/** After the start date changed: the end date, pushed to the start if it was earlier (section 4). */
export function pushedEndDate(startWire: string, endWire: string): string {
  const start = wireToIsoDate(startWire);
  const end = wireToIsoDate(endWire);
  return start && end && end < start ? startWire : endWire;
}

/** Problems with a period typed as DD.MM.YYYY: a malformed date, or the end before the start. */
export function periodErrors(
  startWire: string,
  endWire: string,
): { start?: "invalid"; end?: "invalid" | "beforeStart" } {
  const errors: { start?: "invalid"; end?: "invalid" | "beforeStart" } = {};
  const start = startWire ? wireToIsoDate(startWire) : "";
  const end = endWire ? wireToIsoDate(endWire) : "";
  if (start === null) errors.start = "invalid";
  if (end === null) errors.end = "invalid";
  else if (start && end && end < start) errors.end = "beforeStart";
  return errors;
}
