// The service worker (decision 009): network first for pages, kept copies when the network is gone.
// A fill URL of a downloaded survey gets that survey's kept fill document (rendered for a placeholder
// patient, without patient data); a fill page is never kept under its own URL. Built assets are kept
// cache-first (their names carry a content hash). API calls and loader data always go to the network.
const ASSETS = "offline-assets-v1";
const PAGES = "offline-pages-v1";
const shellKey = (surveyId) => `/__offline-shell/${surveyId}`;
const FILL = /^\/survey\/(\d+)\/fill\/[^/]+\/?$/;
// The list, the start pages and the archive (which offline only says that it is not available).
const KEEP_PAGE = /^\/(surveys|survey\/\d+|survey-archives)\/?$/;

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") return event.respondWith(page(request, url));
  if (url.pathname.startsWith("/assets/")) return event.respondWith(cacheFirst(request));
  if (/\.(svg|png|webmanifest|ico|css|js)$/.test(url.pathname) && url.pathname !== "/sw.js")
    return event.respondWith(networkFirst(request));
});

async function page(request, url) {
  try {
    const response = await fetch(request);
    if (response.ok && !response.redirected && KEEP_PAGE.test(url.pathname) && !url.search) {
      const pages = await caches.open(PAGES);
      await pages.put(url.pathname.replace(/\/$/, ""), response.clone());
    }
    return response;
  } catch (error) {
    const pages = await caches.open(PAGES);
    const path = url.pathname.replace(/\/$/, "");
    const fill = FILL.exec(url.pathname);
    const kept = await pages.match(fill ? shellKey(fill[1]) : path);
    if (kept) return kept;
    // Any other page leads to the kept list, at the list's address: another page's document under this
    // address would carry data that does not fit the page the address names, and the app would not start.
    if (path !== "/surveys" && (await pages.match("/surveys"))) return Response.redirect(`${url.origin}/surveys`, 302);
    throw error;
  }
}

async function cacheFirst(request) {
  const assets = await caches.open(ASSETS);
  const kept = await assets.match(request, { ignoreSearch: true });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await assets.put(request, response.clone());
  return response;
}

async function networkFirst(request) {
  const assets = await caches.open(ASSETS);
  try {
    const response = await fetch(request);
    if (response.ok) await assets.put(request, response.clone());
    return response;
  } catch (error) {
    const kept = await assets.match(request, { ignoreSearch: true });
    if (kept) return kept;
    throw error;
  }
}

/** Keeps what a page needs offline: assets, pages, and a survey's fill document. Answers on the port. */
async function warm({ assets = [], pages = [], shells = [] }) {
  const [assetCache, pageCache] = await Promise.all([caches.open(ASSETS), caches.open(PAGES)]);
  const keep = async (cache, url, key = url) => {
    const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok || response.redirected) throw new Error(`${url}: ${response.status}`);
    await cache.put(key, response);
  };
  const missing = [];
  for (const url of assets) if (!(await assetCache.match(url))) missing.push(url);
  await Promise.all([
    ...missing.map((url) => keep(assetCache, url)),
    ...pages.map((url) => keep(pageCache, url)),
    ...shells.map((s) => keep(pageCache, `/survey/${s}/fill/offline-shell`, shellKey(s))),
  ]);
}

async function forget({ shells = [] }) {
  const pageCache = await caches.open(PAGES);
  await Promise.all(shells.flatMap((s) => [pageCache.delete(shellKey(s)), pageCache.delete(`/survey/${s}`)]));
}

self.addEventListener("message", (event) => {
  const port = event.ports[0];
  const data = event.data ?? {};
  const job = data.type === "warm" ? warm(data) : data.type === "forget" ? forget(data) : null;
  if (!job) return;
  event.waitUntil(
    job.then(
      () => port?.postMessage({ ok: true }),
      (error) => port?.postMessage({ ok: false, error: String(error) }),
    ),
  );
});
