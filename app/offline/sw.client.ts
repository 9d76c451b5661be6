/**
 * The page's side of the service worker (public/sw.js): registration, and asking it to keep what the
 * app needs offline. The built files come from the Remix manifest the page knows (with its own module,
 * which the worker cannot know), so assets, route modules and the kept documents stay of one build.
 */
interface RemixManifest {
  url: string;
  version: string;
  entry: { module: string; imports: string[] };
  routes: Record<string, { module: string; imports?: string[]; css?: string[] }>;
}

const VERSION_KEY = "offline:build";
const STATIC = ["/favicon.svg", "/manifest.webmanifest", "/icon-192.png", "/icon-512.png", "/client-image.svg"];

function manifest(): RemixManifest | null {
  return (window as unknown as { __remixManifest?: RemixManifest }).__remixManifest ?? null;
}

export function appAssets(): string[] {
  const m = manifest();
  const files = new Set<string>(STATIC);
  if (m) {
    files.add(m.url);
    files.add(m.entry.module);
    m.entry.imports.forEach((f) => files.add(f));
    for (const route of Object.values(m.routes)) {
      files.add(route.module);
      route.imports?.forEach((f) => files.add(f));
      route.css?.forEach((f) => files.add(f));
    }
  }
  document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]').forEach((l) => files.add(l.href));
  return [...files].map((f) => new URL(f, window.location.origin).pathname);
}

/** The build's every script and style, lazy chunks included (written by the build; see vite.config.ts). */
async function builtAssets(): Promise<string[]> {
  const res = await fetch("/offline-assets.json", { cache: "no-store" });
  if (!res.ok) throw new Error(`offline-assets.json: HTTP ${res.status}`);
  return (await res.json()) as string[];
}

export async function registerServiceWorker(): Promise<boolean> {
  if (!("serviceWorker" in navigator)) return false;
  try {
    await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    return true;
  } catch {
    return false;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error("timeout")), ms))]);
}

async function tell(message: Record<string, unknown>): Promise<void> {
  if (!("serviceWorker" in navigator)) throw new Error("no service worker");
  const registration = await withTimeout(navigator.serviceWorker.ready, 15_000);
  const worker = registration.active;
  if (!worker) throw new Error("no active service worker");
  const channel = new MessageChannel();
  const reply = new Promise<{ ok: boolean; error?: string }>((resolve) => {
    channel.port1.onmessage = (event) => resolve(event.data as { ok: boolean; error?: string });
  });
  worker.postMessage(message, [channel.port2]);
  const answer = await withTimeout(reply, 120_000);
  if (!answer.ok) throw new Error(answer.error ?? "warm failed");
}

/** The warm-up under way, if any: a second one for the same surveys waits for it instead of fetching again. */
let warming: { surveyIds: Set<number>; done: Promise<void> } | null = null;

/** Keeps the app's assets, the list and start pages, and the fill documents of these surveys. */
export function warmOffline(surveyIds: number[]): Promise<void> {
  if (warming && surveyIds.every((id) => warming!.surveyIds.has(id))) return warming.done;
  const done = (async () => {
    const assets = new Set([...appAssets(), ...(await builtAssets())]);
    await tell({
      type: "warm",
      assets: [...assets],
      pages: ["/surveys", ...surveyIds.map((id) => `/survey/${id}`)],
      shells: surveyIds,
    });
    const version = manifest()?.version;
    if (version) window.localStorage.setItem(VERSION_KEY, version);
  })();
  const current = { surveyIds: new Set(surveyIds), done };
  warming = current;
  const clear = () => {
    if (warming === current) warming = null;
  };
  done.then(clear, clear);
  return done;
}

export async function forgetOffline(surveyIds: number[]): Promise<void> {
  await tell({ type: "forget", shells: surveyIds }).catch(() => undefined);
}

/** After a new deploy, kept documents and assets are of the old build: keep them again together. */
export function isNewBuild(): boolean {
  const version = manifest()?.version;
  return Boolean(version && window.localStorage.getItem(VERSION_KEY) !== version);
}
