import fs from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";

/**
 * Each feature's styles load only with the pages that show it (app/components/<feature>/<feature>.css, imported
 * by those pages' routes). These checks find a class drawn on a page whose styles that page never loaded: the
 * classes in the page's DOM, against the class selectors of every stylesheet of the build.
 */
const ASSETS = path.resolve(import.meta.dirname, "..", "build", "client", "assets");

let definitions: Map<string, string[]> | null = null;

/** Class name → the built stylesheets whose selectors name it. */
function classDefinitions() {
  if (definitions) return definitions;
  definitions = new Map();
  // The server build's merged copy, which the build moves beside the browser's files, is linked by no page.
  const sheets = fs.readdirSync(ASSETS).filter((f) => f.endsWith(".css") && !f.startsWith("server-build-"));
  for (const file of sheets) {
    let text = fs.readFileSync(path.join(ASSETS, file), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
    // Declarations out, innermost first, so that only selectors (and at-rule heads) are left.
    for (let before = ""; before !== text;) [before, text] = [text, text.replace(/\{[^{}]*\}/g, ";")];
    for (const m of text.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)) {
      const files = definitions.get(m[1]) ?? [];
      if (!files.includes(file)) files.push(file);
      definitions.set(m[1], files);
    }
  }
  return definitions;
}

/** The classes drawn on the page whose styles it has not loaded, each with the stylesheets that have them. */
export async function unstyledClasses(page: Page) {
  const seen = await page.evaluate(() => ({
    classes: [...new Set([...document.querySelectorAll("[class]")].flatMap((el) => [...el.classList]))],
    // The root stylesheet is inlined in a <style> naming its file (app/components/layout/root-styles.tsx).
    sheets: [...document.styleSheets].map((s) => {
      const href = s.href ?? (s.ownerNode as HTMLElement | null)?.dataset?.href;
      return href ? new URL(href, location.href).pathname.split("/").pop()! : "";
    }),
  }));
  const loaded = new Set(seen.sheets);
  const defined = classDefinitions();
  return seen.classes
    .filter((c) => defined.has(c) && !defined.get(c)!.some((f) => loaded.has(f)))
    .map((c) => `${c} (in ${defined.get(c)!.join(", ")})`)
    .sort();
}

/** Expects every class drawn on the page to have its styles loaded (soft: one run lists every screen). */
export async function expectStylesLoaded(page: Page, screen: string) {
  expect.soft(await unstyledClasses(page), `${screen} (${page.url()}): classes whose styles did not load`).toEqual([]);
}
