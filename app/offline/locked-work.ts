import { createStore } from "idb-keyval";
import { countIn, fillDatabases } from "./fill-store";
import { currentHolder, LOCKED_NOTICE_DAYS, personMarks } from "./vault";

/**
 * Work of other people kept on this device, as the person signed in may see it (decision 048): how many
 * fills, and since when the oldest is locked. No patient ids, no survey titles: they are sealed, and this
 * reads nothing but counts. Earlier versions' fills in clear that are not this person's count too.
 */
export interface LockedWork {
  count: number;
  /** When the longest-locked person's work was locked (or last open), if known. */
  since: string | null;
  /** Locked for more than LOCKED_NOTICE_DAYS days. */
  old: boolean;
}

const OLD_FILLS = /^survey-offline-\d+$/;

export async function lockedWork(now = Date.now()): Promise<LockedWork> {
  const holder = await currentHolder();
  const others = (await fillDatabases()).filter((db) => db.tag !== holder?.tag);
  const tags = new Set(others.map((db) => db.tag));
  const earlier =
    typeof indexedDB !== "undefined" && typeof indexedDB.databases === "function"
      ? (await indexedDB.databases().catch(() => [])).flatMap((d) => (d.name && OLD_FILLS.test(d.name) ? [d.name] : []))
      : [];
  const counts = await Promise.all([
    ...others.map((db) => countIn(createStore(db.name, "kept")).catch(() => 0)),
    ...earlier.map((name) => countIn(createStore(name, "patients")).catch(() => 0)),
  ]);
  const count = counts.reduce((a, b) => a + b, 0);
  const marks = (await personMarks()).filter((m) => tags.has(m.tag));
  const times = marks.map((m) => m.lockedAt ?? m.lastOpen).sort();
  const since = times[0] ?? null;
  const old = since !== null && now - Date.parse(since) > LOCKED_NOTICE_DAYS * 86_400_000;
  return { count, since, old };
}
