import { describe, expect, it } from "vitest";
import {
  afterPaintScript,
  FALLBACK_MS,
  HELD_PRELOAD,
  HELD_SUBMIT_MS,
  heldSubmitScript,
  SCRIPTS_LEFT,
  scriptsAfterPaint,
} from "./after-paint.server";

// Remix 2's <Scripts> module script, as the production build writes it.
const MODULE = `import "/assets/manifest-5cd268d1.js";
import * as route0 from "/assets/root-5M5RYiI_.js";
import * as route1 from "/assets/l._index-HjUtmRm9.js";
window.__remixRouteModules = {"root":route0,"routes/l._index":route1};
import("/assets/entry.client-Dc2Ijlj1.js");`;

interface Added {
  type: string;
  nonce: string;
  textContent: string;
}

type PaintCallback = (list: { getEntriesByName(name: string): unknown[] }, o: { disconnect(): void }) => void;

/** Runs the classic script as a browser would, with the paint entries, the timers and imports in the test's hands. */
function run(visibilityState: "visible" | "hidden", { withObserver = true, first = [] as string[] } = {}) {
  const added: Added[] = [];
  const observers: PaintCallback[] = [];
  const fallbacks: (() => void)[] = [];
  const steps: string[] = [];
  const links = [
    { rel: "", attributes: new Set([HELD_PRELOAD]), removeAttribute: (a: string) => links[0].attributes.delete(a) },
  ];
  const document = {
    visibilityState,
    currentScript: { nonce: "n0nce" },
    createElement: () => ({ type: "", nonce: "", textContent: "" }),
    body: { appendChild: (s: Added) => added.push({ ...s }) },
    querySelectorAll: (selector: string) => {
      expect(selector).toBe(`link[${HELD_PRELOAD}]`);
      return links.filter((l) => l.attributes.has(HELD_PRELOAD));
    },
  };
  const Observer = class {
    constructor(callback: PaintCallback) {
      observers.push(callback);
    }
    observe() {}
  };
  new Function(
    "document",
    "PerformanceObserver",
    "setTimeout",
    "__import",
    afterPaintScript(MODULE, first).replace("import(f[0])", "__import(f[0])"),
  )(
    document,
    withObserver ? Observer : undefined,
    (f: () => void, ms?: number) => {
      if (ms === FALLBACK_MS) fallbacks.push(f);
      else {
        steps.push("yield");
        f();
      }
    },
    (url: string) => {
      steps.push(url);
      return Promise.resolve({});
    },
  );
  const paint = (name: string) =>
    observers[0]({ getEntriesByName: (n) => (n === name ? [{}] : []) }, { disconnect: () => undefined });
  return { added, paint, fallback: () => fallbacks.forEach((f) => f()), links, steps };
}

describe("the page's scripts after its first paint", () => {
  it("adds Remix's own module script, with the page's nonce, once the first contentful paint is on the screen", () => {
    const page = run("visible");
    page.paint("first-paint");
    expect(page.added).toEqual([]);
    page.paint("first-contentful-paint");
    expect(page.added).toEqual([{ type: "module", nonce: "n0nce", textContent: MODULE }]);
    // The held preloads fetch again.
    expect(page.links.map((l) => [l.rel, [...l.attributes]])).toEqual([["modulepreload", []]]);
    // Once: neither a later paint entry nor the fallback adds it again.
    page.paint("first-contentful-paint");
    page.fallback();
    expect(page.added).toHaveLength(1);
  });

  it("starts without a paint after the fallback's time, at once on a hidden page or without paint entries", () => {
    const late = run("visible");
    expect(late.added).toEqual([]);
    late.fallback();
    expect(late.added).toHaveLength(1);
    expect(run("hidden").added).toHaveLength(1);
    expect(run("visible", { withObserver: false }).added).toHaveLength(1);
  });

  it("evaluates the entry's own imports first, each in a task of its own, then adds the module script", async () => {
    const page = run("hidden", { first: ["/assets/framework-1.js", "/assets/other-2.js"] });
    await new Promise((r) => setTimeout(r, 0));
    expect(page.steps).toEqual(["/assets/framework-1.js", "yield", "/assets/other-2.js", "yield"]);
    expect(page.added).toHaveLength(1);
  });

  it("rewrites the element in place, with its nonce, and holds the module preloads", () => {
    const page = `<head><link rel="modulepreload" href="/assets/root-5M5RYiI_.js"/></head><body><p>x</p><script nonce="abc">a()</script><script nonce="abc" type="module" async="">${MODULE}</script></body>`;
    const out = scriptsAfterPaint(Buffer.from(page)).toString();
    expect(out).toMatch(
      new RegExp(
        `^<head><link ${HELD_PRELOAD}="" href="/assets/root-5M5RYiI_.js"/></head><body><p>x</p><script nonce="abc">a\\(\\)</script><script nonce="abc">\\(\\(\\)=>\\{.*</script></body>$`,
      ),
    );
    expect(out).not.toMatch(/<script[^>]*type="module"/);
    expect(out).not.toMatch(/<link rel="modulepreload"/);
  });

  it("works on the bytes: every preload before the script held, texts of any alphabet kept, the rest as it was", () => {
    const head = `<head><link rel="modulepreload" href="/a.js"/><title>Übersicht – الاستبيان</title><link rel="modulepreload" href="/b.js"/></head>`;
    const tail = `<p>Schmerz ✓</p><link rel="modulepreload" href="/late.js"/></body>`;
    const page = Buffer.from(
      `${head}<body><p>ä ö ü</p><script nonce="n-1" type="module" async="">${MODULE}</script>${tail}`,
    );
    const out = scriptsAfterPaint(page, ["/f.js"]).toString();
    expect(out.startsWith(head.replace(/<link rel="modulepreload"/g, `<link ${HELD_PRELOAD}=""`))).toBe(true);
    expect(out).toContain(
      `<body><p>ä ö ü</p><script nonce="n-1">${heldSubmitScript()}${afterPaintScript(MODULE, ["/f.js"])}</script>${tail}`,
    );
  });

  it("leaves a module script of another shape as it is: a quote in the nonce, markup in its text, no end", () => {
    for (const odd of [
      `<script nonce="a"b" type="module" async="">import "/a.js";</script>`,
      `<script nonce="ab" type="module" async="">import "/a.js";<b></script>`,
      `<script nonce="ab" type="module" async="">import "/a.js";`,
    ]) {
      const page = Buffer.from(`<head><link rel="modulepreload" href="/a.js"/></head><body>${odd}</body>`);
      expect(scriptsAfterPaint(page)).toBe(page);
    }
  });

  it("leaves a document without Remix's module script as it is", () => {
    const page = Buffer.from(`<head><link rel="modulepreload" href="/a.js"/></head><body><script>a()</script></body>`);
    expect(scriptsAfterPaint(page)).toBe(page);
  });

  it("keeps a `</script>` in the module's text from ending the classic script", () => {
    expect(afterPaintScript(`import "/a.js";\n"</script>";`)).not.toContain("</script>");
  });
});

/** Runs the held-submit script with a document, its forms, timers and the start in the test's hands. */
function holding() {
  const attributes = new Set<string>();
  let listener: ((e: unknown) => void) | null = null;
  let watcher: (() => void) | null = null;
  let timers: { run: () => void; ms: number }[] = [];
  const sent: { form: string; button: string | null }[] = [];
  class Form {
    isConnected = true;
    method = "post";
    constructor(readonly name: string) {}
    requestSubmit(button?: { name: string }) {
      sent.push({ form: this.name, button: button?.name ?? null });
    }
  }
  const document = {
    documentElement: { hasAttribute: (name: string) => attributes.has(name) },
    addEventListener: (type: string, f: (e: unknown) => void, capture: boolean) => {
      expect([type, capture]).toEqual(["submit", true]);
      listener = f;
    },
    removeEventListener: (_type: string, f: (e: unknown) => void) => {
      if (listener === f) listener = null;
    },
  };
  const Observer = class {
    constructor(callback: () => void) {
      watcher = callback;
    }
    observe() {}
    disconnect() {
      watcher = null;
    }
  };
  new Function("document", "HTMLFormElement", "MutationObserver", "setTimeout", "clearTimeout", heldSubmitScript())(
    document,
    Form,
    Observer,
    (run: () => void, ms = 0) => timers.push({ run, ms }),
    () => (timers = timers.filter((t) => t.ms !== HELD_SUBMIT_MS)),
  );
  /** A submit event as the browser sends it; whether the page (before its start) kept the browser from it. */
  const submit = (form: Form, button: { name: string; disabled?: boolean; form?: Form } | null) => {
    let prevented = false;
    const event = {
      target: form,
      submitter: button ? { isConnected: true, form, ...button } : null,
      preventDefault: () => (prevented = true),
      stopImmediatePropagation: () => undefined,
    };
    listener?.(event);
    return { prevented, button: event.submitter };
  };
  const tick = () => {
    const due = timers.filter((t) => t.ms !== HELD_SUBMIT_MS);
    timers = timers.filter((t) => t.ms === HELD_SUBMIT_MS);
    due.forEach((t) => t.run());
  };
  return {
    Form,
    sent,
    submit,
    tick,
    start: () => {
      attributes.add("data-started");
      watcher?.();
    },
    /** The page's script leaves the page as the server drew it (its texts did not come). */
    leave: () => {
      attributes.add(SCRIPTS_LEFT);
      watcher?.();
    },
    late: () => timers.filter((t) => t.ms === HELD_SUBMIT_MS).forEach((t) => t.run()),
    listening: () => listener !== null,
  };
}

describe("a form sent before the page's scripts started", () => {
  it("is held, and sent again as the same button once they have started", () => {
    const page = holding();
    const form = new page.Form("start");
    expect(page.submit(form, { name: "intent" }).prevented).toBe(true);
    page.tick();
    expect(page.sent).toEqual([]);
    page.start();
    page.tick();
    expect(page.sent).toEqual([{ form: "start", button: "intent" }]);
    // Started, the page's own code meets every form: nothing is held, or sent twice.
    expect(page.listening()).toBe(false);
    page.late();
    page.tick();
    expect(page.sent).toHaveLength(1);
  });

  it("sends only the last of several, and a form of a dialog is left alone", () => {
    const page = holding();
    page.submit(new page.Form("first"), null);
    page.submit(new page.Form("second"), { name: "go" });
    const dialog = new page.Form("dialog");
    dialog.method = "dialog";
    expect(page.submit(dialog, null).prevented).toBe(false);
    page.start();
    page.tick();
    expect(page.sent).toEqual([{ form: "second", button: "go" }]);
  });

  it("waits for a button the started page turned off; one that stays off sends nothing", () => {
    const page = holding();
    const waits = page.submit(new page.Form("start"), { name: "intent", disabled: true });
    page.start();
    for (let i = 0; i < 5; i++) page.tick();
    expect(page.sent).toEqual([]);
    (waits.button as { disabled: boolean }).disabled = false;
    page.tick();
    expect(page.sent).toEqual([{ form: "start", button: "intent" }]);

    const off = holding();
    off.submit(new off.Form("start"), { name: "intent", disabled: true });
    off.start();
    for (let i = 0; i < 100; i++) off.tick();
    expect(off.sent).toEqual([]);
  });

  it("is the browser's at once when the page's script leaves the page as drawn, and so is every later one", () => {
    const page = holding();
    expect(page.submit(new page.Form("language"), { name: "lng" }).prevented).toBe(true);
    page.leave();
    page.tick();
    expect(page.sent).toEqual([{ form: "language", button: "lng" }]);
    expect(page.listening()).toBe(false);
  });

  it("is left to the browser when the scripts do not start in time, and a page removed meanwhile sends nothing", () => {
    const page = holding();
    page.submit(new page.Form("start"), { name: "intent" });
    page.late();
    expect(page.sent).toEqual([{ form: "start", button: "intent" }]);
    expect(page.listening()).toBe(false);

    const gone = holding();
    const form = new gone.Form("start");
    gone.submit(form, null);
    form.isConnected = false;
    gone.start();
    gone.tick();
    expect(gone.sent).toEqual([]);
  });
});
