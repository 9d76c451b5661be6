import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { WORKER_URL } from "./sw-constants";
import { registerServiceWorker, warmOffline } from "./sw.client";

/** A stand-in service worker: counts "warm" messages and answers each when told to. */
function fakeWorker() {
  const messages: Record<string, unknown>[] = [];
  const ports: MessagePort[] = [];
  const worker = {
    postMessage(message: Record<string, unknown>, transfer: MessagePort[]) {
      messages.push(message);
      ports.push(transfer[0]);
    },
  };
  return {
    messages,
    answerAll: () => ports.splice(0).forEach((port) => port.postMessage({ ok: true })),
    registration: { active: worker },
  };
}

describe("warmOffline", () => {
  let worker: ReturnType<typeof fakeWorker>;
  let fetches = 0;

  beforeEach(() => {
    worker = fakeWorker();
    fetches = 0;
    const storage = new Map<string, string>();
    vi.stubGlobal("navigator", { serviceWorker: { ready: Promise.resolve(worker.registration) } });
    vi.stubGlobal("window", {
      location: { origin: "http://app.test" },
      localStorage: { setItem: (k: string, v: string) => storage.set(k, v), getItem: (k: string) => storage.get(k) },
      __remixManifest: {
        url: "/assets/manifest-1.js",
        version: "1",
        entry: { module: "/e.js", imports: [] },
        routes: {},
      },
    });
    vi.stubGlobal("document", { querySelectorAll: () => [] });
    vi.stubGlobal("fetch", async () => {
      fetches++;
      return new Response(JSON.stringify(["/assets/a.js", "/assets/common-x.json"]));
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

  it("a second call for the same surveys while one runs shares it: one fetch of the list, one message", async () => {
    const first = warmOffline([7]);
    const second = warmOffline([7]);
    expect(second).toBe(first);
    await settle();
    expect(worker.messages).toHaveLength(1);
    expect(fetches).toBe(1);
    expect(worker.messages[0]).toMatchObject({ type: "warm", pages: ["/surveys", "/survey/7"], shells: [7] });
    expect(worker.messages[0].assets).toEqual(expect.arrayContaining(["/assets/a.js", "/assets/common-x.json"]));
    worker.answerAll();
    await Promise.all([first, second]);
  });

  it("a call for a survey the running one does not cover starts its own", async () => {
    const first = warmOffline([7]);
    const second = warmOffline([7, 8]);
    expect(second).not.toBe(first);
    await settle();
    expect(worker.messages.map((m) => m.shells)).toEqual([[7], [7, 8]]);
    worker.answerAll();
    await Promise.all([first, second]);
  });

  it("once a warm-up has ended, the next one runs again (a new build, a new survey)", async () => {
    const first = warmOffline([7]);
    await settle();
    worker.answerAll();
    await first;
    const again = warmOffline([7]);
    expect(again).not.toBe(first);
    await settle();
    expect(worker.messages).toHaveLength(2);
    worker.answerAll();
    await again;
  });
});

describe("registerServiceWorker", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("registers the built worker for scope /, the retired /sw.js's scope, so it takes over that registration", async () => {
    const register = vi.fn(async () => ({}));
    vi.stubGlobal("navigator", { serviceWorker: { register } });
    expect(await registerServiceWorker()).toBe(true);
    expect(register).toHaveBeenCalledWith(WORKER_URL, { scope: "/", updateViaCache: "none" });
    expect(WORKER_URL).toBe("/entry.worker.js");
  });

  it("says so when the browser refuses the worker", async () => {
    vi.stubGlobal("navigator", { serviceWorker: { register: async () => Promise.reject(new TypeError("404")) } });
    expect(await registerServiceWorker()).toBe(false);
  });
});
