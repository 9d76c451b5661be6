/**
 * Which of the service worker's handlers answers a request, and under which keys pages are kept and
 * looked up (decision 023). Pure, so that every rule is tested without a browser.
 */
import { handoverPath, pageAllowedInHandover, type HandoverCase } from "../domain/handover";
import { ASSETS_PREFIX, LIST_PAGE, RETIRED_WORKER_URL, WORKER_URL, shellKey } from "./sw-constants";

/**
 * - `page`: a document: network first; without a network its kept copy, or the survey's fill document;
 * - `asset`: a fingerprinted build file: from the cache first (its name changes with its content);
 * - `static`: another file a page loads (icons, manifest, styles, scripts): network first, kept copy offline;
 * - `network`: not the worker's: the browser sends it as if there were no worker (API calls, loader data,
 *   writes, other origins). Nothing of it is ever answered from a cache.
 */
export type SwHandler = "page" | "asset" | "static" | "network";

/** The parts of a request the choice depends on. */
export interface RoutedRequest {
  method: string;
  url: string;
  mode: string;
}

const STATIC_FILE = /\.(svg|png|webmanifest|ico|css|js)$/;
const WORKER_SCRIPTS = new Set([WORKER_URL, RETIRED_WORKER_URL]);

/** The handler for a request the worker sees; `origin` is the worker's own. */
export function routeRequest(request: RoutedRequest, origin: string): SwHandler {
  if (request.method !== "GET") return "network";
  const url = new URL(request.url);
  if (url.origin !== origin) return "network";
  if (request.mode === "navigate") return "page";
  if (url.pathname.startsWith(ASSETS_PREFIX)) return "asset";
  // The API's answers are never kept, whatever their address ends in.
  if (url.pathname.startsWith("/api/")) return "network";
  if (STATIC_FILE.test(url.pathname) && !WORKER_SCRIPTS.has(url.pathname)) return "static";
  return "network";
}

/** A rule of the browser's static routing for the worker (a subset of the Service Worker's RouterRule). */
export interface NetworkRoute {
  condition: { requestMethod: string } | { urlPattern: { pathname: string; search: "*" }; requestMode: RequestMode };
  source: "network";
}

/**
 * Requests the browser sends to the network without waking the worker, where it knows static routes
 * (Chromium; elsewhere the fetch handler lets the same requests pass): the writes, and the API calls and
 * loader data the page fetches. Each is one routeRequest sends to "network" anyway (sw-routes.test.ts); a
 * sleeping worker then need not start for an answer's save, nor the save of a tab being closed wait for it.
 * Navigations are left to the worker: an API address opened as a page goes through the page handler.
 */
export const NETWORK_ROUTES: NetworkRoute[] = [
  ...["POST", "PUT", "PATCH", "DELETE"].map((requestMethod) => ({
    condition: { requestMethod },
    source: "network" as const,
  })),
  ...(["cors", "same-origin"] as const).flatMap((requestMode) =>
    ["/api/*", "/*.data"].map((pathname) => ({
      // Any query: a pattern without one would take only addresses without one.
      condition: { urlPattern: { pathname, search: "*" as const }, requestMode },
      source: "network" as const,
    })),
  ),
];

const FILL = /^\/survey\/(\d+)\/fill\/[^/]+\/?$/;
/** The list, the start pages and the archive (which offline only says that it is not available). */
const KEEP_PAGE = /^\/(surveys|survey\/\d+|survey-archives)\/?$/;

const withoutTrailingSlash = (pathname: string) => pathname.replace(/\/$/, "") || "/";

/**
 * The key a page answered by the network is kept under, or null when it is not kept. A fill page never
 * is: it would carry one patient's data under that patient's address.
 */
export function pageKeepKey(url: URL): string | null {
  return KEEP_PAGE.test(url.pathname) && !url.search ? withoutTrailingSlash(url.pathname) : null;
}

/** Which kept document answers a page without a network: a fill page gets its survey's fill document. */
export function offlinePageKey(pathname: string): string {
  const fill = FILL.exec(pathname);
  return fill ? shellKey(fill[1]) : withoutTrailingSlash(pathname);
}

/**
 * Where a page without a network and without a kept document is sent: the kept list, at the list's own
 * address (another page's document under this address would carry data that does not fit the page the
 * address names, and the app would not start). Null for the list itself.
 */
export function offlineRedirect(pathname: string): string | null {
  return withoutTrailingSlash(pathname) === LIST_PAGE ? null : LIST_PAGE;
}

/**
 * Where a page answered without the server goes while the device is handed over (decision 058): any page
 * but the case's fill page and the way back to staff leads to the case's fill page; null when the page may
 * be shown (or no hand-over runs). Checked before any kept copy answers, so no other kept page is shown.
 */
export function handoverRedirect(pathname: string, handover: HandoverCase | null): string | null {
  if (!handover || pageAllowedInHandover(pathname, handover)) return null;
  return handoverPath(handover);
}
