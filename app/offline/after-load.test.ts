import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { afterLoad } from "./after-load";

/** A page whose load event and idle time the test decides. */
function fakePage(readyState: "loading" | "complete") {
  const listeners = new Map<string, () => void>();
  const idle: (() => void)[] = [];
  const doc = { readyState };
  vi.stubGlobal("document", doc);
  vi.stubGlobal("window", {
    addEventListener: (type: string, fn: () => void) => listeners.set(type, fn),
    removeEventListener: (type: string, fn: () => void) => {
      if (listeners.get(type) === fn) listeners.delete(type);
    },
    requestIdleCallback: (fn: () => void, options: { timeout: number }) => {
      expect(options.timeout).toBeGreaterThan(0);
      idle.push(fn);
      return idle.length;
    },
  });
  return {
    load() {
      doc.readyState = "complete";
      listeners.get("load")?.();
    },
    idle: () => idle.splice(0).forEach((fn) => fn()),
    pendingIdle: () => idle.length,
  };
}

describe("afterLoad", () => {
  let page: ReturnType<typeof fakePage>;
  afterEach(() => vi.unstubAllGlobals());

  describe("on a page still loading", () => {
    beforeEach(() => {
      page = fakePage("loading");
    });

    it("waits for the load event, then for the browser to be idle", () => {
      const run = vi.fn();
      afterLoad(run);
      expect(page.pendingIdle()).toBe(0);
      page.load();
      expect(run).not.toHaveBeenCalled();
      page.idle();
      expect(run).toHaveBeenCalledTimes(1);
    });

    it("does not run once cancelled, before or after the load", () => {
      const early = vi.fn();
      afterLoad(early)();
      const late = vi.fn();
      const cancelLate = afterLoad(late);
      page.load();
      cancelLate();
      page.idle();
      expect(early).not.toHaveBeenCalled();
      expect(late).not.toHaveBeenCalled();
    });
  });

  it("on a page already loaded, waits only for idle time", () => {
    page = fakePage("complete");
    const run = vi.fn();
    afterLoad(run);
    expect(run).not.toHaveBeenCalled();
    page.idle();
    expect(run).toHaveBeenCalledTimes(1);
  });
});
