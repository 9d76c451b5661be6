/**
 * A text a page or the server asks for that the locale files lack: the person would read its key
 * ("start.retentionMonths") where its words belong. Every such text is reported, in the browser to the
 * console, on the server to the log and in the answer's MISSING_TEXTS_HEADER; the e2e tests fail on either
 * (e2e/texts.ts).
 */

/** How the browser's console line starts: `Missing text: <locale> <key>`. */
export const MISSING_TEXT = "Missing text:";

/** The header of a server answer for which a text was missing: `<locale> <key>` pairs, comma-separated. */
export const MISSING_TEXTS_HEADER = "X-Missing-Texts";

type Sink = (locale: string, key: string) => void;

let sink: Sink = (locale, key) => console.error(`${MISSING_TEXT} ${locale} ${key}`);

/** Where missing texts go from now on (the server sends them to its log and the request's answer). */
export function onMissingText(next: Sink): void {
  sink = next;
}

export function reportMissingText(locale: string, key: string): void {
  sink(locale, key);
}
