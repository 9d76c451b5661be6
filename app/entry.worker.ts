/**
 * The service worker (decisions 009 and 023), built by @remix-pwa/dev into the browser build's root as
 * /entry.worker.js. Network first for pages, kept copies when the network is gone: a fill URL of a kept
 * survey gets that survey's kept fill document (rendered for a placeholder patient, without patient data);
 * a fill page is never kept under its own URL. Built assets are kept cache-first (their names carry a
 * content hash). API calls and loader data always go to the network. Which request goes where is decided
 * by routeRequest (offline/sw-routes.ts); what is deleted of earlier builds by offline/sw-cleanup.ts.
 *
 * Its imports are relative: the worker is bundled on its own, without the app's path aliases.
 */
import { createStore, get } from "idb-keyval";
import { assets as buildFiles } from "virtual:assets-sw";
import { documentBuild, staleCaches, staleEntries } from "./offline/sw-cleanup";
import {
  ASSET_CACHE,
  ASSETS_PREFIX,
  BUILD_MANIFEST_MARK,
  DEVICE_DB,
  DEVICE_STORE,
  HOLDER_HEADER,
  isPersonPageCache,
  MESSAGE,
  pageCache,
  shellKey,
  shellUrl,
  startPage,
  type ForgetMessage,
  type WarmMessage,
  type WorkerMessage,
  type WorkerReply,
} from "./offline/sw-constants";
import { readHandoverMark } from "./offline/handover-mark";
import {
  handoverRedirect,
  NETWORK_ROUTES,
  offlinePageKey,
  offlineRedirect,
  pageKeepKey,
  routeRequest,
  type NetworkRoute,
} from "./offline/sw-routes";

declare const self: ServiceWorkerGlobalScope;

/** The build's Remix manifest module, written in by the build (vite.config.ts); the mark when not. */
const manifestModule: string = BUILD_MANIFEST_MARK;
/**
 * Every file of this worker's build: the browser build's files as @remix-pwa/dev lists them (which lack
 * the manifest module, written later) and the manifest module. Unknown (nothing is pruned) if the build
 * did not write the manifest module in (the development server).
 */
const BUILD_FILES: readonly string[] | null = manifestModule.startsWith(ASSETS_PREFIX)
  ? [...buildFiles, manifestModule]
  : null;

/**
 * Hashed build files (their names change with their content): from the cache, else from the network, and
 * kept. Only the build clean-up below deletes them.
 */
async function cacheFirst(request: Request): Promise<Response> {
  const assets = await caches.open(ASSET_CACHE);
  const kept = await assets.match(request, { ignoreSearch: true });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.status === 200) await assets.put(request, response.clone());
  return response;
}

self.addEventListener("install", (event) => {
  // The requests that are never the worker's go to the network without waking it (static routes, where the
  // browser has them). Each rule is added on its own: one the browser does not know leaves the others.
  const routed = event as ExtendableEvent & { addRoutes?: (rules: NetworkRoute[]) => Promise<void> };
  if (routed.addRoutes) {
    event.waitUntil(Promise.all(NETWORK_ROUTES.map((rule) => routed.addRoutes!([rule]).catch(() => undefined))));
  }
  void self.skipWaiting();
});
self.addEventListener("activate", (event) => {
  event.waitUntil(Promise.all([self.clients.claim(), cleanUp().catch(() => undefined)]));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  switch (routeRequest(request, self.location.origin)) {
    case "page":
      return event.respondWith(page(request));
    case "asset":
      return event.respondWith(cacheFirst(request));
    case "static":
      return event.respondWith(networkFirst(request));
    case "network":
      return;
  }
});

let deviceStore: ReturnType<typeof createStore> | null = null;
/** The person whose work the device holds now (vault.ts): their tag and key, or null. Read anew each time. */
async function holder(): Promise<{ tag: string; data: CryptoKey } | null> {
  deviceStore ??= createStore(DEVICE_DB, DEVICE_STORE);
  const record = await get<{ tag?: string; data?: CryptoKey }>("current", deviceStore).catch(() => undefined);
  return record?.tag && record.data ? { tag: record.tag, data: record.data } : null;
}
const holderTag = async () => (await holder())?.tag ?? null;

/** The holder's kept pages, only when `response` is the holder's page (decision 048). */
async function holderPages(response: Response): Promise<Cache | null> {
  const tag = response.headers.get(HOLDER_HEADER);
  return tag && tag === (await holderTag()) ? caches.open(pageCache(tag)) : null;
}

async function page(request: Request): Promise<Response> {
  const url = new URL(request.url);
  let response: Response;
  try {
    response = await fetch(request);
  } catch (error) {
    return keptPage(url, error);
  }
  // Keeping the fresh page may fail (storage full, the body cut off); the fresh page answers all the same,
  // never the older copy a failed keep would otherwise fall back to.
  const key = pageKeepKey(url);
  const pages = key && response.ok && !response.redirected ? await holderPages(response).catch(() => null) : null;
  if (key && pages) await pages.put(key, response.clone()).catch(() => undefined);
  return response;
}

/**
 * Offline (or with the server out of reach), only the holder's own kept pages answer; with nobody holding
 * the device, none. While it is handed over, any page but the case's fill page leads there (decision 058).
 */
async function keptPage(url: URL, error: unknown): Promise<Response> {
  const person = await holder();
  if (!person) throw error;
  const patientPage = handoverRedirect(url.pathname, await readHandoverMark(person).catch(() => null));
  if (patientPage) return Response.redirect(`${url.origin}${patientPage}`, 302);
  const pages = await caches.open(pageCache(person.tag));
  const kept = await pages.match(offlinePageKey(url.pathname));
  if (kept) return kept;
  const list = offlineRedirect(url.pathname);
  if (list && (await pages.match(list))) return Response.redirect(`${url.origin}${list}`, 302);
  throw error;
}

/**
 * Other files a page loads: from the network, kept; without a network the kept copy. Plain code: the
 * package's NetworkFirst gives up on the network after 10 s and scans the whole cache on every put.
 */
async function networkFirst(request: Request): Promise<Response> {
  const assets = await caches.open(ASSET_CACHE);
  let response: Response;
  try {
    response = await fetch(request);
  } catch (error) {
    const kept = await assets.match(request, { ignoreSearch: true });
    if (kept) return kept;
    throw error;
  }
  if (response.ok) await assets.put(request, response.clone()).catch(() => undefined);
  return response;
}

/** Keeps what a page needs offline: assets, pages, and a survey's fill document. */
async function warm({ assets = [], pages = [], shells = [] }: WarmMessage): Promise<void> {
  const assetCache = await caches.open(ASSET_CACHE);
  const fetched = async (url: string) => {
    const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok || response.redirected) throw new Error(`${url}: ${response.status}`);
    return response;
  };
  const keepAsset = async (url: string) => assetCache.put(url, await fetched(url));
  // A page is kept only as the holder's: one rendered for anyone else (the person changed meanwhile) is not.
  const keepPage = async (url: string, key = url) => {
    const response = await fetched(url);
    const cache = await holderPages(response);
    if (!cache) throw new Error(`${url}: not the holder's page`);
    await cache.put(key, response);
  };
  const missing: string[] = [];
  for (const url of assets) if (!(await assetCache.match(url))) missing.push(url);
  // Every keep runs to its end before the answer: a page told of a failure must not find keeps still under way.
  const kept = await Promise.allSettled([
    ...missing.map((url) => keepAsset(url)),
    ...pages.map((url) => keepPage(url)),
    ...shells.map((id) => keepPage(shellUrl(id), shellKey(id))),
  ]);
  const failed = kept.find((k): k is PromiseRejectedResult => k.status === "rejected");
  if (failed) throw failed.reason;
  // The kept documents may now all be of this build: the files of earlier builds can go.
  await pruneBuilds().catch(() => undefined);
}

async function forget({ shells = [] }: ForgetMessage): Promise<void> {
  const tag = await holderTag();
  if (!tag) return;
  const pages = await caches.open(pageCache(tag));
  await Promise.all(shells.flatMap((id) => [pages.delete(shellKey(id)), pages.delete(startPage(id))]));
}

/** On activation: the caches of earlier versions, then what earlier builds left in the current ones. */
async function cleanUp(): Promise<void> {
  await Promise.all(staleCaches(await caches.keys()).map((name) => caches.delete(name)));
  await pruneBuilds();
}

/** Deletes the assets of earlier builds once no kept fill document needs them (staleEntries). */
async function pruneBuilds(): Promise<void> {
  if (!BUILD_FILES) return;
  const assetCache = await caches.open(ASSET_CACHE);
  const assets = (await assetCache.keys()).map((request) => request.url);
  // Nothing of an earlier build is kept (the usual case after each warm-up): the kept documents are not read.
  const build = new Set(BUILD_FILES);
  if (assets.every((url) => build.has(new URL(url).pathname))) return;
  // Every person's kept documents count: an asset goes only when no document of anyone needs it.
  const pageCaches = await Promise.all((await caches.keys()).filter(isPersonPageCache).map((n) => caches.open(n)));
  const documents = (
    await Promise.all(
      pageCaches.map(async (cache) =>
        Promise.all(
          (await cache.keys()).map(async (request) => {
            const kept = await cache.match(request);
            return { cache, key: new URL(request.url).pathname, build: kept ? documentBuild(await kept.text()) : null };
          }),
        ),
      ),
    )
  ).flat();
  const stale = staleEntries({ assets, documents, build: BUILD_FILES });
  const staleDocuments = new Set(stale.documents);
  await Promise.all([
    ...stale.assets.map((url) => assetCache.delete(url)),
    ...documents.filter((d) => staleDocuments.has(d.key)).map((d) => d.cache.delete(d.key)),
  ]);
}

self.addEventListener("message", (event) => {
  const port = event.ports[0];
  const data = (event.data ?? {}) as Partial<WorkerMessage>;
  const job =
    data.type === MESSAGE.warm
      ? warm(data as WarmMessage)
      : data.type === MESSAGE.forget
        ? forget(data as ForgetMessage)
        : null;
  if (!job) return;
  const reply = (answer: WorkerReply) => port?.postMessage(answer);
  event.waitUntil(
    job.then(
      () => reply({ ok: true }),
      (error: unknown) => reply({ ok: false, error: String(error) }),
    ),
  );
});
