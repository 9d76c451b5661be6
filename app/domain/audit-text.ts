/**
 * The texts of the trail's words (decision 028): short texts, the text of stored HTML, and stored JSON read
 * back, for audit-words.ts.
 */

const MAX_TEXT = 120;

export function shortText(text: string): string {
  const plain = text.replace(/\s+/g, " ").trim();
  return plain.length > MAX_TEXT ? `${plain.slice(0, MAX_TEXT - 1)}…` : plain;
}

/** The text of stored (sanitized) HTML, without its tags. */
export function htmlText(html: string): string {
  return html
    .replace(/<(br|\/p|\/li|\/h\d)\s*\/?>/gi, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
}

/** Stored JSON text (a column) or the API's value alike. */
export function fromJson(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** A stored before or after: its object or list, or null for none or text that is not JSON. */
export function parsed(json: string | null): Record<string, unknown> | unknown[] | null {
  if (!json) return null;
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
