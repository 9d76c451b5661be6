/**
 * The page's side of the service worker (app/entry.worker.ts): registration, and asking it to keep what
 * the app needs offline. The built files come from the Remix manifest the page knows (with its own module),
 * so assets, route modules and the kept documents stay of one build.
 */
import {
  LIST_PAGE,
  MESSAGE,
  OFFLINE_ASSET_LIST,
  pageCache,
  startPage,
  WORKER_SCOPE,
  WORKER_URL,
  type WorkerMessage,
  type WorkerReply,
} from "./sw-constants";
import { currentHolder } from "./vault";

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
  const res = await fetch(OFFLINE_ASSET_LIST, { cache: "no-store" });
  if (!res.ok) throw new Error(`${OFFLINE_ASSET_LIST}: HTTP ${res.status}`);
  return (await res.json()) as string[];
}

/**
 * Registers the worker for the whole app. A browser that still runs the worker of earlier versions
 * (RETIRED_WORKER_URL, registered for the same scope) has it replaced here: a registration belongs to its
 * scope, so registering another script for that scope installs it in the same registration, and the new
 * worker takes over at once (it skips waiting and claims the pages). The caches keep their names, so what
 * the old worker kept (fill documents included) stays usable offline. /sw.js is no longer served: the
 * browser's update checks of an old registration fail and leave it as it is until a page registers the
 * new worker, and an old page a worker answered from its copies cannot re-register the old script.
 * `updateViaCache: "none"`: update checks of the worker never use the HTTP cache.
 */
export async function registerServiceWorker(): Promise<boolean> {
  if (!("serviceWorker" in navigator)) return false;
  try {
    await navigator.serviceWorker.register(WORKER_URL, { scope: WORKER_SCOPE, updateViaCache: "none" });
    return true;
  } catch {
    return false;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error("timeout")), ms))]);
}

async function tell(message: WorkerMessage): Promise<void> {
  if (!("serviceWorker" in navigator)) throw new Error("no service worker");
  const registration = await withTimeout(navigator.serviceWorker.ready, 15_000);
  const worker = registration.active;
  if (!worker) throw new Error("no active service worker");
  const channel = new MessageChannel();
  const reply = new Promise<WorkerReply>((resolve) => {
    channel.port1.onmessage = (event) => resolve(event.data as WorkerReply);
  });
  worker.postMessage(message, [channel.port2]);
  const answer = await withTimeout(reply, 120_000);
  if (!answer.ok) throw new Error(answer.error);
}

/** The warm-up under way, if any: a second one for the same surveys waits for it instead of fetching again. */
let warming: { surveyIds: Set<number>; done: Promise<void> } | null = null;

/** Keeps the app's assets, the list and start pages, and the fill documents of these surveys. */
export function warmOffline(surveyIds: number[]): Promise<void> {
  if (warming && surveyIds.every((id) => warming!.surveyIds.has(id))) return warming.done;
  const done = (async () => {
    const assets = new Set([...appAssets(), ...(await builtAssets())]);
    await tell({
      type: MESSAGE.warm,
      assets: [...assets],
      pages: [LIST_PAGE, ...surveyIds.map(startPage)],
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
  await tell({ type: MESSAGE.forget, shells: surveyIds }).catch(() => undefined);
}

/**
 * Resolves once this version's worker is the active one (at once when it is), or after `ms`: a device that
 * ran a worker of earlier versions gets it in its place when that one has no work left.
 */
export function ourWorkerActive(ms = 30_000): Promise<boolean> {
  const ours = async () => {
    const active = (await navigator.serviceWorker.getRegistration(WORKER_SCOPE).catch(() => undefined))?.active;
    return Boolean(active && new URL(active.scriptURL).pathname === WORKER_URL);
  };
  return new Promise((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer);
      navigator.serviceWorker.removeEventListener("controllerchange", check);
      resolve(value);
    };
    const check = () => void ours().then((yes) => yes && done(true));
    const timer = setTimeout(() => done(false), ms);
    navigator.serviceWorker.addEventListener("controllerchange", check);
    check();
  });
}

/**
 * Whether the holder's pages must be kept (again): after a new build, or when the holder has none (they
 * went when another person held the device, decision 048).
 */
export async function needsWarm(): Promise<boolean> {
  // Only this version's worker is asked: a worker of earlier versions busy warming would hold back its own
  // replacement (a new worker activates once the old one has no work left), and keeps nothing for a person.
  const active = (await navigator.serviceWorker.getRegistration(WORKER_SCOPE).catch(() => undefined))?.active;
  if (!active || new URL(active.scriptURL).pathname !== WORKER_URL) return false;
  if (isNewBuild()) return true;
  const holder = await currentHolder();
  return Boolean(holder && !(await caches.has(pageCache(holder.tag)).catch(() => true)));
}

/** After a new deploy, kept documents and assets are of the old build: keep them again together. */
export function isNewBuild(): boolean {
  const version = manifest()?.version;
  return Boolean(version && window.localStorage.getItem(VERSION_KEY) !== version);
}
