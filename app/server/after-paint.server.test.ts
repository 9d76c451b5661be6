import { describe, expect, it } from "vitest";
import { afterPaintScript, scriptsAfterPaint } from "./after-paint.server";

// Remix 2's <Scripts> module script, as the production build writes it.
const MODULE = `import "/assets/manifest-5cd268d1.js";
import * as route0 from "/assets/root-5M5RYiI_.js";
import * as route1 from "/assets/l._index-HjUtmRm9.js";

window.__remixRouteModules = {"root":route0,"routes/l._index":route1};

import("/assets/entry.client-Dc2Ijlj1.js");`;

describe("the page's scripts after its first paint", () => {
  it("makes the module script's imports, in order, once the first contentful paint is on the screen", async () => {
    const script = afterPaintScript(MODULE)!;
    const imported: string[] = [];
    const observers: ((list: { getEntriesByName(name: string): unknown[] }, o: { disconnect(): void }) => void)[] = [];
    const window: { __remixRouteModules?: Record<string, unknown> } = {};
    const run = new Function(
      "window",
      "document",
      "PerformanceObserver",
      "setTimeout",
      "__import",
      script.replace(/import\(/g, "__import("),
    );
    run(
      window,
      { visibilityState: "visible" },
      class {
        constructor(callback: (typeof observers)[number]) {
          observers.push(callback);
        }
        observe() {}
      },
      () => undefined, // the fallback's time does not come in this test
      (url: string) => {
        imported.push(url);
        return Promise.resolve({ url });
      },
    );
    const paint = (name: string) =>
      observers[0]({ getEntriesByName: (n) => (n === name ? [{}] : []) }, { disconnect: () => undefined });
    paint("first-paint");
    expect(imported).toEqual([]);
    paint("first-contentful-paint");
    await new Promise((r) => setTimeout(r, 0));
    expect(imported).toEqual([
      "/assets/manifest-5cd268d1.js",
      "/assets/root-5M5RYiI_.js",
      "/assets/l._index-HjUtmRm9.js",
      "/assets/entry.client-Dc2Ijlj1.js",
    ]);
    expect(window.__remixRouteModules).toEqual({
      root: { url: "/assets/root-5M5RYiI_.js" },
      "routes/l._index": { url: "/assets/l._index-HjUtmRm9.js" },
    });
  });

  it("rewrites the element in place, with its nonce, and leaves other shapes alone", () => {
    const page = `<body><p>x</p><script nonce="abc">a()</script><link rel="modulepreload" href="/assets/root-5M5RYiI_.js"/><script nonce="abc" type="module" async="">${MODULE}</script></body>`;
    const out = scriptsAfterPaint(Buffer.from(page)).toString();
    expect(out).toMatch(
      /^<body><p>x<\/p><script nonce="abc">a\(\)<\/script><link rel="modulepreload" data-href="\/assets\/root-5M5RYiI_.js"\/><script nonce="abc">\(\(\)=>\{.*<\/script><\/body>$/,
    );
    expect(out).not.toContain('type="module"');
    const odd = page.replace("import(", "doSomething();import(");
    expect(scriptsAfterPaint(Buffer.from(odd)).toString()).toBe(odd);
  });
});
