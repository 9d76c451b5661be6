import type { i18n } from "i18next";

/** The options a component's `t(key)` passes on by itself; a call with any other option is not kept. */
const PLAIN_OPTIONS = new Set(["lng", "ns", "keyPrefix", "lngs"]);
/** More than all the keys there are: a key made from data cannot make the table grow without end. */
const MAX_KEPT_TEXTS = 20_000;

/**
 * Keeps each text asked for without options (most of a page's texts): the server's texts never change
 * while it runs, and working out a text's language and namespace afresh for every call cost about a
 * twentieth of a page's time. Calls with values, counts or defaults are translated as before.
 */
export function keepPlainTexts(instance: i18n): i18n {
  const translate = instance.t.bind(instance) as unknown as (...args: unknown[]) => unknown;
  const kept = new Map<string, unknown>();
  const keep = (key: unknown, options?: unknown, ...rest: unknown[]) => {
    const plain =
      typeof key === "string" &&
      rest.length === 0 &&
      (options === undefined ||
        (typeof options === "object" &&
          options !== null &&
          Object.entries(options).every(([name, value]) => PLAIN_OPTIONS.has(name) && (name !== "lngs" || !value))));
    if (!plain) return translate(key, options, ...rest);
    const { lng, ns } = (options ?? {}) as { lng?: unknown; ns?: unknown };
    const id = `${String(lng ?? "")}\u0000${String(ns ?? "")}\u0000${key}`;
    if (kept.has(id)) return kept.get(id);
    const text = translate(key, options);
    if (kept.size < MAX_KEPT_TEXTS) kept.set(id, text);
    return text;
  };
  instance.t = keep as unknown as i18n["t"];
  return instance;
}

/** Whether the browser takes gzip (and has not ruled it out with q=0). */
export function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  return header.split(",").some((part) => {
    const [name, ...params] = part.trim().split(";");
    if (name?.trim().toLowerCase() !== "gzip" && name?.trim() !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}
