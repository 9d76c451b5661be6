/**
 * What the service worker (app/entry.worker.ts) and the page's side of it (sw.client.ts) share: cache
 * names, addresses and the messages between them (decisions 009 and 023). Pure: no DOM, no worker types,
 * so both type-check it.
 */

/** Every cache of the offline layer starts with this; others on the origin are not the worker's. */
export const CACHE_PREFIX = "offline-";
/** Changes only when what a cache holds changes shape; a new build alone keeps it (kept fills survive). */
export const CACHE_VERSION = "v1";
/** Built files and other static files, by their path. */
export const ASSET_CACHE = `${CACHE_PREFIX}assets-${CACHE_VERSION}`;
/** Every cache of kept documents starts with this, of this version and earlier ones. */
export const PAGE_CACHE_PREFIX = `${CACHE_PREFIX}pages-`;
/**
 * Kept documents of one person (the holder's tag, vault.ts): the list, start pages, the archive and each
 * survey's fill document. A page carries its person's data, so each person's are kept apart, and only
 * the device's holder's are ever answered (decision 048).
 */
export const pageCache = (tag: string) => `${PAGE_CACHE_PREFIX}${PAGE_CACHE_VERSION}-${tag}`;
/** The shape of the page caches: v2 keeps one per person. */
export const PAGE_CACHE_VERSION = "v2";
export const CURRENT_CACHES: readonly string[] = [ASSET_CACHE];
/** A current cache of one person's kept documents. */
export const isPersonPageCache = (name: string) => name.startsWith(`${PAGE_CACHE_PREFIX}${PAGE_CACHE_VERSION}-`);
/** The response header that names whose page a document is (the holder's tag), or is absent. */
export const HOLDER_HEADER = "X-Offline-Holder";
/** Where the service worker reads the device's holder (vault.ts writes it). */
export const DEVICE_DB = "offline-device";
export const DEVICE_STORE = "holder";
/** Where, next to the holder, the device marks a running hand-over (handover-mark.ts, decision 058). */
export const HANDOVER_MARK = "handover";

/** The worker's script, built from app/entry.worker.ts into the browser build's root. */
export const WORKER_URL = "/entry.worker.js";
export const WORKER_SCOPE = "/";
/** The hand-written worker of earlier versions; a registration of it is replaced by WORKER_URL. */
export const RETIRED_WORKER_URL = "/sw.js";

/**
 * Stands in the worker's source for the build's Remix manifest module (/assets/manifest-….js): the
 * framework writes that file after the worker is bundled, so the build writes its path in afterwards
 * (vite.config.ts). The one file of a build that only this names; each build has its own.
 */
export const BUILD_MANIFEST_MARK = "__BUILD_MANIFEST_MODULE__";

/** Where the build's fingerprinted scripts and styles are served. */
export const ASSETS_PREFIX = "/assets/";
/** Every script and style of the build, lazy chunks included (written by the build, vite.config.ts). */
export const OFFLINE_ASSET_LIST = "/offline-assets.json";
/** The survey list: kept, and where any page without a kept document leads offline. */
export const LIST_PAGE = "/surveys";

/** The patient id of the fill document kept for offline use: no real patient can have it (it has '-'). */
export const SHELL_PATIENT_ID = "offline-shell";
/** The cache key of a survey's kept fill document (never a fill page's own address). */
export const SHELL_KEY_PREFIX = "/__offline-shell/";
export const shellKey = (surveyId: number | string) => `${SHELL_KEY_PREFIX}${surveyId}`;
/** Where the fill document of a survey is fetched from. */
export const shellUrl = (surveyId: number | string) => `/survey/${surveyId}/fill/${SHELL_PATIENT_ID}`;
/** The start page of a survey, kept with its fill document. */
export const startPage = (surveyId: number | string) => `/survey/${surveyId}`;

/** Messages from the page to the worker; each is answered on the port sent with it. */
export const MESSAGE = { warm: "warm", forget: "forget" } as const;

/** Keep these assets and pages, and the fill documents (with start pages) of these surveys. */
export interface WarmMessage {
  type: typeof MESSAGE.warm;
  assets?: string[];
  pages?: string[];
  shells?: number[];
}

/** Drop the fill documents and start pages of these surveys. */
export interface ForgetMessage {
  type: typeof MESSAGE.forget;
  shells?: number[];
}

export type WorkerMessage = WarmMessage | ForgetMessage;

export type WorkerReply = { ok: true } | { ok: false; error: string };
