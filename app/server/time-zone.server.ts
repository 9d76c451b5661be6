/**
 * The clinic's time zone (CLINIC_TIME_ZONE, docs/decisions/053-clinic-time-zone.md). A date-time answer is
 * stored as the wall-clock time that was typed, without a zone; the exports write it in this zone with the
 * offset from UTC of that date: "2026-09-29T15:00" → "2026-09-29T15:00:00+02:00". Instants (when a case was
 * started or closed) are written the same way. Intl knows the zones and their history: no table of our own.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Hours whose offset is kept per zone; past it the memo starts again (typed years may lie anywhere). */
const MEMO_HOURS = 50_000;

/** Why a CLINIC_TIME_ZONE value is refused, or null when it names a zone. */
export function timeZoneProblem(name: string): string | null {
  // Intl also takes fixed offsets ("+01:00"); a clinic's offset changes with summer time, so they are no zone.
  if (!/^[A-Za-z]/.test(name)) return "must be a time zone name such as Europe/Berlin, not an offset";
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return "must be an IANA time zone name such as Europe/Berlin";
  }
  // Intl reads names in any case; R and the tz database's files do not.
  if (resolved !== name && resolved.toLowerCase() === name.toLowerCase()) return `must be written ${resolved}`;
  return null;
}

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * "YYYY-MM-DDTHH:mm:ss" of a time in ms read as UTC. By hand: toISOString and a cut took several times as long,
 * and an export writes two for every case.
 */
function isoSeconds(ms: number): string {
  const d = new Date(ms);
  const date = `${String(d.getUTCFullYear()).padStart(4, "0")}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
  return `${date}T${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

/** "+02:00" for 7200 s; an offset with seconds (local mean time before 1900) to the nearest minute. */
function offsetText(seconds: number): string {
  const minutes = Math.round(Math.abs(seconds) / 60);
  const hh = String(Math.floor(minutes / 60)).padStart(2, "0");
  const mm = String(minutes % 60).padStart(2, "0");
  return `${seconds < 0 ? "-" : "+"}${hh}:${mm}`;
}

export interface ClinicZone {
  name: string;
  /** The zone's offset from UTC in seconds at an instant (ms since 1970). */
  offsetAt(ms: number): number;
  /**
   * A stored wall-clock time "YYYY-MM-DDTHH:mm" as "YYYY-MM-DDTHH:mm:00±hh:mm". A time in the hour the clocks
   * skip (spring) does not exist: it is read with the offset before the change, i.e. moved on by the gap and
   * written with the later offset ("2026-03-29T02:30" in Berlin → "2026-03-29T03:30:00+02:00"). A time in the
   * hour that comes twice (autumn) is the earlier of the two, with the earlier offset
   * ("2026-10-25T02:30" → "2026-10-25T02:30:00+02:00").
   */
  wallClock(stored: string): string;
  /** An instant ("2026-11-23T08:56:34.123Z") as the zone's local time with its offset, to the second. */
  instant(iso: string): string;
}

const zones = new Map<string, ClinicZone>();

/** The zone of that name (checked by timeZoneProblem first), made once per name. */
export function clinicZone(name: string): ClinicZone {
  let zone = zones.get(name);
  if (!zone) {
    zone = makeZone(name);
    zones.set(name, zone);
  }
  return zone;
}

function makeZone(name: string): ClinicZone {
  // "1/1/2026, GMT+01:00"; "GMT" alone at UTC; seconds in local mean time ("GMT+00:53:28").
  const format = new Intl.DateTimeFormat("en-US", { timeZone: name, timeZoneName: "longOffset" });
  const exact = (ms: number): number => {
    const m = /GMT(?:([+\-\u2212])(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(format.format(ms));
    if (!m) throw new Error(`No offset of ${name} at ${new Date(ms).toISOString()}`);
    if (!m[1]) return 0;
    const seconds = Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0);
    return m[1] === "+" ? seconds : -seconds;
  };
  // An hour whose offset is the same at its first and last millisecond has that offset throughout (no zone
  // changes its clocks twice within an hour); an hour with a change is asked at each instant. An export
  // then asks Intl about twice per hour its date-times fall in, not for each of them.
  const hours = new Map<number, number | null>();
  const offsetAt = (ms: number): number => {
    const hour = Math.floor(ms / HOUR_MS);
    let known = hours.get(hour);
    if (known === undefined) {
      if (hours.size >= MEMO_HOURS) hours.clear();
      const start = exact(hour * HOUR_MS);
      known = start === exact(hour * HOUR_MS + HOUR_MS - 1) ? start : null;
      hours.set(hour, known);
    }
    return known ?? exact(ms);
  };
  const written = (ms: number) => {
    const offset = offsetAt(ms);
    return `${isoSeconds(ms + offset * 1000)}${offsetText(offset)}`;
  };
  const exactWallClock = (stored: string) => {
    // The typed time read as if it were UTC; the instant is that less the offset in force then.
    const local = Date.parse(`${stored.slice(0, 16)}:00Z`);
    // The offsets a day before and after: any change the time is near lies between them.
    const before = offsetAt(local - DAY_MS);
    const after = offsetAt(local + DAY_MS);
    const fits = [before, after].filter((o) => offsetAt(local - o * 1000) === o);
    // Twice (autumn): the earlier instant, that of the larger offset. Never (spring): the clocks not yet
    // turned, the offset before the change.
    const offset = fits.length > 0 ? Math.max(...fits) : before;
    return written(local - offset * 1000);
  };
  // Most hours are written alike in each of their minutes: a typed hour ("2026-09-29T15") as typed with one
  // offset, an instant's hour of UTC as one local hour when the offset is whole hours. Kept per hour, such a
  // time costs a few string operations instead of dates and Intl (an export writes hundreds of thousands);
  // the other hours (a change of the clocks, offsets like +05:30) are worked out for each time.
  const typedHours = new Map<string, string | null>();
  const utcHours = new Map<string, [string, string] | null>();
  return {
    name,
    offsetAt,
    wallClock(stored) {
      const hour = stored.slice(0, 13);
      let offset = typedHours.get(hour);
      if (offset === undefined) {
        if (typedHours.size >= MEMO_HOURS) typedHours.clear();
        const [first, last] = [exactWallClock(`${hour}:00`), exactWallClock(`${hour}:59`)];
        const kept = first.startsWith(`${hour}:00:00`) && last.startsWith(`${hour}:59:00`);
        offset = kept && first.slice(19) === last.slice(19) ? first.slice(19) : null;
        typedHours.set(hour, offset);
      }
      return offset === null ? exactWallClock(stored) : `${stored.slice(0, 16)}:00${offset}`;
    },
    instant(iso) {
      // Stored instants are "YYYY-MM-DDTHH:mm:ss.sssZ" (docs/decisions/003-data-conventions.md).
      if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(iso)) return written(Date.parse(iso));
      const hour = iso.slice(0, 13);
      let local = utcHours.get(hour);
      if (local === undefined) {
        if (utcHours.size >= MEMO_HOURS) utcHours.clear();
        const start = Date.parse(`${hour}:00:00Z`);
        const offset = offsetAt(start);
        const whole = offset % 3600 === 0 && offsetAt(start + HOUR_MS - 1) === offset;
        local = whole ? [isoSeconds(start + offset * 1000).slice(0, 13), offsetText(offset)] : null;
        utcHours.set(hour, local);
      }
      return local === null ? written(Date.parse(iso)) : `${local[0]}${iso.slice(13, 19)}${local[1]}`;
    },
  };
}
