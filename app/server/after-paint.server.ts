/**
 * The page's scripts start after its first paint (docs/decisions/059-first-paint.md). Remix's <Scripts>
 * ends the document with an inline module script that imports the manifest and the route modules and then
 * the entry, and runs as soon as they have arrived, often before the browser has drawn the page it has:
 * evaluating the framework then stands between the document and its first paint. This rewrites that
 * script into a classic one (same element, same nonce, so hydration finds the element it expects) that
 * makes the same imports once the first contentful paint is on the screen; a hidden page, which draws
 * nothing, starts at once. The module preloads lose their address until then. A script of any other shape is
 * left as it is.
 */
/** The longest a page's scripts wait for its first contentful paint. */
const FALLBACK_MS = 1500;
const MODULE_SCRIPT = /<script nonce="([^"]*)" type="module" async="">([^<]*)<\/script>/;
const MODULE_PRELOAD = /<link rel="modulepreload" href=/g;
const SIDE_EFFECT = /^import "([^"]+)";$/;
const NAMESPACE = /^import \* as (route\d+) from "([^"]+)";$/;
const REST = /^(window\.__remixRouteModules = \{[^}]*\};|import\("[^"]+"\);)$/;

/** The classic script's text for the module script's, or null where its shape is not the known one. */
export function afterPaintScript(moduleText: string): string | null {
  const imports: string[] = [];
  const names: string[] = [];
  const rest: string[] = [];
  for (const line of moduleText
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)) {
    const side = SIDE_EFFECT.exec(line);
    const named = NAMESPACE.exec(line);
    if (side && rest.length === 0) {
      imports.push(JSON.stringify(side[1]));
      names.push("");
    } else if (named && rest.length === 0) {
      imports.push(JSON.stringify(named[2]));
      names.push(named[1]);
    } else if (REST.test(line)) rest.push(line);
    else return null;
  }
  if (imports.length === 0 || rest.length === 0) return null;
  const load = `Promise.all([${imports.map((i) => `import(${i})`).join(",")}]).then(([${names.join(",")}])=>{${rest.join("")}})`;
  // The first contentful paint's entry comes once the frame is on the screen (a frame's callback comes before
  // it is); a page that draws nothing, or too late, starts after FALLBACK_MS all the same.
  return (
    `(()=>{let done=false;const go=()=>{if(done)return;done=true;${load}};` +
    `if(document.visibilityState==="hidden"){go();return}` +
    `new PerformanceObserver((l,o)=>{if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();go()}}).observe({type:"paint",buffered:true});` +
    `setTimeout(go,${FALLBACK_MS})})();`
  );
}

/** The document with its module script rewritten (afterPaintScript); unchanged where there is none to rewrite. */
export function scriptsAfterPaint(html: Buffer): Buffer {
  const text = html.toString("utf8");
  const match = MODULE_SCRIPT.exec(text);
  const script = match ? afterPaintScript(match[2]) : null;
  if (!match || script === null) return html;
  const replaced = `<script nonce="${match[1]}">${script}</script>`;
  // The preloads wait too: Chromium compiles a preloaded module as it arrives, on the page's thread, and
  // Lighthouse counts a script compiled before the paint as the paint's. The element stays, for hydration.
  const before = text.slice(0, match.index).replace(MODULE_PRELOAD, '<link rel="modulepreload" data-href=');
  return Buffer.from(before + replaced + text.slice(match.index + match[0].length), "utf8");
}
