/**
 * The page's scripts load at low priority (docs/decisions/064-scripts-low-priority.md): every page is drawn by
 * the server and works before its scripts run, so they must not stand before what draws it. Remix's
 * <Scripts> ends the document with the module preloads and the module script that imports them; they get
 * `fetchpriority="low"`. Only the document's end, from the first preload on, is read and rewritten.
 */
const PRELOAD = Buffer.from('<link rel="modulepreload" ');
const PRELOADS = /<link rel="modulepreload" href="([^"]*)"/g;
const MODULE_SCRIPT = /<script( nonce="[^"]*")? type="module"/g;

export function scriptsAtLowPriority(html: Buffer): Buffer {
  const from = html.indexOf(PRELOAD);
  if (from === -1) return html;
  const tail = html
    .subarray(from)
    .toString("utf8")
    .replace(PRELOADS, '<link rel="modulepreload" href="$1" fetchpriority="low"')
    .replace(MODULE_SCRIPT, '<script$1 type="module" fetchpriority="low"');
  return Buffer.concat([html.subarray(0, from), Buffer.from(tail, "utf8")]);
}
