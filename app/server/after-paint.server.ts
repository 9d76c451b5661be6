/**
 * The page's scripts start after its first paint (docs/decisions/059-first-paint.md).
 *
 * Remix's <Scripts> ends the document with an inline module script that imports the manifest and the
 * route modules, names the route modules for the entry (`window.__remixRouteModules`) and then imports the
 * entry; its module preloads in the head fetch those files as the document arrives. Fetched, compiled and
 * evaluated before the browser draws the page, they stand between the document and its first paint, and
 * Lighthouse's simulation counts every file fetched before the paint as the paint's.
 *
 * Here that element becomes a classic script (same element, same nonce) that adds the very same module
 * script, with its nonce, at the end of the body once the first contentful paint is on the screen: its
 * imports, their order and the moment the entry starts stay Remix's own. The preloads keep their element
 * (hydration finds the head it expects) without the `rel` that fetches them. A hidden page, which draws
 * nothing, starts at once; a page whose paint does not come within FALLBACK_MS starts then all the same.
 * A document of any other shape is left as it is.
 */

/** The longest a page's scripts wait for its first contentful paint. */
export const FALLBACK_MS = 1500;
/**
 * Set on the document by the page's script when it leaves the page as the server drew it (its texts did not
 * come): its forms are the browser's again, at once.
 */
export const SCRIPTS_LEFT = "data-scripts-left";
/** The longest a form sent before the page's scripts started waits for them; then the browser sends it. */
export const HELD_SUBMIT_MS = 10_000;
/** The preloads, fetched by no browser until the script below names them again. */
export const HELD_PRELOAD = "data-held-preload";

/**
 * The classic script that adds `moduleText` as a module script once the page has painted. The held
 * preloads are fetched again from then, all at once; `first` (the entry's own imports: the framework's
 * chunk) is evaluated before, each in a task of its own, so that no one task evaluates all of the page's
 * code (decision 059: the blocking time after the paint).
 */
export function afterPaintScript(moduleText: string, first: readonly string[] = []): string {
  // `</` cannot end the element: JSON.stringify leaves `/` alone, and the text is Remix's imports.
  const json = (value: unknown) => JSON.stringify(value).replace(/<\//g, "<\\/");
  return (
    `(()=>{const n=document.currentScript.nonce;let done=false;` +
    `const add=()=>{const s=document.createElement("script");s.type="module";s.nonce=n;s.textContent=${json(moduleText)};document.body.appendChild(s)};` +
    `const step=(f)=>{if(!f.length)return add();import(f[0]).then(()=>setTimeout(()=>step(f.slice(1))),add)};` +
    `const go=()=>{if(done)return;done=true;` +
    `for(const l of document.querySelectorAll("link[${HELD_PRELOAD}]")){l.removeAttribute("${HELD_PRELOAD}");l.rel="modulepreload"}` +
    `step(${json(first)})};` +
    `if(document.visibilityState==="hidden"){go();return}` +
    // The first contentful paint's entry comes once the frame is on the screen (a frame's callback comes
    // before it is); a browser without paint entries starts at once.
    `try{new PerformanceObserver((l,o)=>{if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();go()}}).observe({type:"paint",buffered:true})}catch{go();return}` +
    `setTimeout(go,${FALLBACK_MS})})();`
  );
}

/**
 * The classic script that holds a form sent before the page's scripts have started (the root sets
 * `data-started` once they run) and sends it again, as the same button, once they have: the page's own code
 * then handles it as it handles any form (offline, a case starts on the device; a fill page's answers are kept
 * there) instead of the browser posting it to a network that may be gone, and the page with what was typed
 * lost to the browser's error page. A button the started page has turned off (a patient id it finds wrong)
 * is waited for a while, then the form is not sent: the page says why. Scripts that leave the page as it was
 * drawn (SCRIPTS_LEFT), or do not start within HELD_SUBMIT_MS, leave the form to the browser, as before.
 * Without JavaScript nothing of this runs.
 */
export function heldSubmitScript(): string {
  return (
    `(()=>{const r=document.documentElement;` +
    `const started=()=>r.hasAttribute("data-started")||r.hasAttribute("${SCRIPTS_LEFT}");` +
    `let held=null,watch=null,timer=0;` +
    `const button=(h)=>h.s&&h.s.isConnected&&h.s.form===h.f?h.s:null;` +
    `const send=()=>{const h=held;held=null;if(h&&h.f.isConnected)h.f.requestSubmit(button(h)||undefined)};` +
    `const stop=()=>{document.removeEventListener("submit",hold,true);if(watch)watch.disconnect();clearTimeout(timer)};` +
    `const ready=(tries)=>{const h=held;if(!h)return;const b=button(h);` +
    `if(b&&b.disabled){if(tries<60)setTimeout(()=>ready(tries+1),50);else held=null;return}send()};` +
    `const hold=(e)=>{const f=e.target;if(started()||!(f instanceof HTMLFormElement)||f.method==="dialog")return;` +
    `e.preventDefault();e.stopImmediatePropagation();held={f,s:e.submitter};if(watch)return;` +
    `watch=new MutationObserver(()=>{if(started()){stop();setTimeout(()=>ready(0))}});` +
    `watch.observe(r,{attributes:true,attributeFilter:["data-started","${SCRIPTS_LEFT}"]});` +
    `timer=setTimeout(()=>{stop();send()},${HELD_SUBMIT_MS})};` +
    `document.addEventListener("submit",hold,true)})();`
  );
}

const SCRIPT_OPEN = Buffer.from('<script nonce="');
const MODULE_ATTRIBUTES = Buffer.from('" type="module" async="">');
const SCRIPT_CLOSE = Buffer.from("</script>");
const MODULE_PRELOAD = Buffer.from('<link rel="modulepreload" href=');
const HELD_PRELOAD_START = Buffer.from(`<link ${HELD_PRELOAD}="" href=`);
const QUOTE = 0x22;
const LT = 0x3c;

/**
 * The document with its module script started after the first paint (afterPaintScript); else unchanged.
 * It works on the document's bytes, as the page was written: only the script's own text is read as text,
 * and the new document is the old one's pieces around the changed ones (a page's text decoded, searched by
 * a pattern and encoded again took 0.13 to 0.18 ms of every fresh page; on the bytes, 0.02 to 0.03 ms).
 */
export function scriptsAfterPaint(html: Buffer, first: readonly string[] = []): Buffer {
  const attributes = html.indexOf(MODULE_ATTRIBUTES);
  if (attributes < 0) return html;
  const start = html.lastIndexOf(SCRIPT_OPEN, attributes);
  const nonceStart = start + SCRIPT_OPEN.length;
  if (start < 0 || html.subarray(nonceStart, attributes).includes(QUOTE)) return html;
  const textStart = attributes + MODULE_ATTRIBUTES.length;
  const end = html.indexOf(SCRIPT_CLOSE, textStart);
  if (end < 0 || html.subarray(textStart, end).includes(LT)) return html;
  const nonce = html.toString("utf8", nonceStart, attributes);
  const moduleText = html.toString("utf8", textStart, end);

  const pieces: Buffer[] = [];
  let from = 0;
  for (let at = html.indexOf(MODULE_PRELOAD); at >= 0 && at < start; at = html.indexOf(MODULE_PRELOAD, from)) {
    pieces.push(html.subarray(from, at), HELD_PRELOAD_START);
    from = at + MODULE_PRELOAD.length;
  }
  pieces.push(
    html.subarray(from, start),
    Buffer.from(
      `<script nonce="${nonce}">${heldSubmitScript()}${afterPaintScript(moduleText, first)}</script>`,
      "utf8",
    ),
    html.subarray(end + SCRIPT_CLOSE.length),
  );
  return Buffer.concat(pieces);
}
