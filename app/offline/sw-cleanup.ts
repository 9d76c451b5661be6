/**
 * What the service worker deletes of earlier builds and versions (decision 023). Pure: the worker reads
 * the caches, these functions decide, the worker deletes.
 */
import {
  ASSETS_PREFIX,
  CACHE_PREFIX,
  CURRENT_CACHES,
  isPersonPageCache,
  LIST_PAGE,
  SHELL_KEY_PREFIX,
  startPage,
} from "./sw-constants";

/** The offline layer's caches that this version does not use (an earlier version's). Others are left. */
export function staleCaches(names: readonly string[], current: readonly string[] = CURRENT_CACHES): string[] {
  return names.filter((name) => name.startsWith(CACHE_PREFIX) && !current.includes(name) && !isPersonPageCache(name));
}

const MANIFEST_MODULE = new RegExp(`${ASSETS_PREFIX.replace(/\//g, "\\/")}manifest-[\\w-]+\\.js`);

/**
 * The build a kept document belongs to, named by the Remix manifest module it loads (one per build), or
 * null when the document names none.
 */
export function documentBuild(html: string): string | null {
  return MANIFEST_MODULE.exec(html)?.[0] ?? null;
}

/** A kept document: its cache key (a path) and the build it was rendered by (documentBuild). */
export interface KeptDocument {
  key: string;
  build: string | null;
}

export interface StaleEntries {
  /** Kept assets, as given, that are not files of the current build. */
  assets: string[];
  /** Kept documents (keys) of another build that nothing offline depends on. */
  documents: string[];
}

const pathOf = (url: string) => new URL(url, "http://worker.invalid").pathname;

/**
 * The documents offline filling depends on: the list, every kept fill document, and the start page of
 * each survey with one. The page keeps them again, together with the assets, after a new build.
 */
function isFillDocument(key: string, shells: Set<string>): boolean {
  return key === LIST_PAGE || key.startsWith(SHELL_KEY_PREFIX) || shells.has(key);
}

/**
 * What to delete of earlier builds from the kept assets and documents.
 *
 * - Nothing while the current build's files are unknown, or while a document offline filling depends on
 *   is of another build (or of no build it names): that document still needs its build's files. They
 *   go once the page has kept the documents of the new build (the worker asks again after each warm-up).
 * - Otherwise every kept asset that is not a file of the current build, and every other kept document of
 *   another build (the archive, the start page of a survey not kept for offline use): its files are
 *   going, and it is kept again the next time it is opened online.
 *
 * `assets` are cache keys (URLs or paths; compared by path), `build` the paths of the build's files.
 */
export function staleEntries(input: {
  assets: readonly string[];
  documents: readonly KeptDocument[];
  build: readonly string[] | null;
}): StaleEntries {
  const none: StaleEntries = { assets: [], documents: [] };
  if (!input.build || input.build.length === 0) return none;
  const build = new Set(input.build);
  const current = (doc: KeptDocument) => doc.build !== null && build.has(doc.build);
  const shells = new Set(
    input.documents
      .filter((doc) => doc.key.startsWith(SHELL_KEY_PREFIX))
      .map((doc) => startPage(doc.key.slice(SHELL_KEY_PREFIX.length))),
  );
  const needed = input.documents.filter((doc) => isFillDocument(doc.key, shells));
  if (!needed.every(current)) return none;
  return {
    assets: input.assets.filter((url) => !build.has(pathOf(url))),
    documents: input.documents.filter((doc) => !isFillDocument(doc.key, shells) && !current(doc)).map((d) => d.key),
  };
}
