import { createContext, useContext } from "react";
import href from "~/styles/index.css?url";

/**
 * The stylesheet every page uses (app/styles/index.css, about 5 KB gzip) travels inside the document: a
 * linked stylesheet blocks the first paint for one more round trip, the largest part of a slow network's
 * wait for the page (docs/decisions/059-first-paint.md). The server gives its text (entry.server.tsx); the
 * built file stays for the offline list and as the link where the text is missing (the development server).
 */
export const RootStylesContext = createContext<string | null>(null);

const STYLE_ID = "root-styles";
/** In the browser: the text the document came with, so that hydration finds the same element. */
const inDocument = typeof document === "undefined" ? null : (document.getElementById(STYLE_ID)?.textContent ?? null);

export function RootStyles() {
  const text = useContext(RootStylesContext) ?? inDocument;
  return text === null ? (
    <link rel="stylesheet" href={href} />
  ) : (
    // data-href names the built file the text is, for the checks of which styles a page has (e2e/styles.ts).
    <style id={STYLE_ID} data-href={href} dangerouslySetInnerHTML={{ __html: text }} />
  );
}
