import { describe, expect, it } from "vitest";
import { scriptsAtLowPriority } from "./script-priority.server";

const head = '<!DOCTYPE html><html lang="de"><head><style>body{margin:0}</style></head><body><main>Umfragen</main>';
const scripts =
  '<link rel="modulepreload" href="/assets/manifest-1.js"/><link rel="modulepreload" href="/assets/root-2.js"/>' +
  '<script nonce="n0+Ce==" type="module" async="">import "/assets/manifest-1.js";</script></body></html>';

describe("the page's scripts at low priority", () => {
  it("marks every module preload and the module script, and leaves the rest as it was", () => {
    const out = scriptsAtLowPriority(Buffer.from(head + scripts)).toString("utf8");
    expect(out.startsWith(head)).toBe(true);
    expect(out.match(/<link rel="modulepreload" href="[^"]+" fetchpriority="low"\/>/g)).toHaveLength(2);
    expect(out).toContain('<script nonce="n0+Ce==" type="module" fetchpriority="low" async="">');
    expect(out.replaceAll(' fetchpriority="low"', "")).toBe(head + scripts);
  });

  it("keeps a document without scripts (an error page, a page without JavaScript) byte for byte", () => {
    const page = Buffer.from(`${head}</body></html>`);
    expect(scriptsAtLowPriority(page)).toBe(page);
  });

  it("keeps the characters of every language whole around the rewritten end", () => {
    const words = "<p>الصفحة 1 من 4 – Größe – Дата</p>";
    const out = scriptsAtLowPriority(Buffer.from(head + words + scripts)).toString("utf8");
    expect(out).toContain(words);
    expect(Buffer.byteLength(out)).toBe(Buffer.byteLength(head + words + scripts) + 3 * ' fetchpriority="low"'.length);
  });
});
