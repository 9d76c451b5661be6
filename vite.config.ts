import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { remixPWA } from "@remix-pwa/dev";
import { vitePlugin as remix } from "@remix-run/dev";
import type { ManualChunksOption } from "rollup";
import { defineConfig, type Plugin } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { ASSETS_PREFIX, BUILD_MANIFEST_MARK, OFFLINE_ASSET_LIST, WORKER_URL } from "./app/offline/sw-constants";
import { clientContracts } from "./build-tools/client-contracts";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * Writes /offline-assets.json into the browser build: every script, style and language file of the build,
 * lazy chunks included (the Remix manifest lists only route modules and their imports). The service worker
 * keeps them all, so that what opens on demand (the sync modal, for one) also opens offline. It runs after
 * Vite's own steps (`enforce: "post"`): those drop the empty script of a chunk that holds only styles, and a
 * listed file the server does not have fails every download for offline use.
 */
function offlineAssetList(): Plugin {
  let ssr = false;
  return {
    name: "offline-asset-list",
    apply: "build",
    enforce: "post",
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    generateBundle(_options, bundle) {
      if (ssr) return;
      const files = Object.keys(bundle)
        .filter((name) => name.startsWith(ASSETS_PREFIX.slice(1)) && /\.(js|css|json)$/.test(name))
        .sort()
        .map((name) => `/${name}`);
      this.emitFile({ type: "asset", fileName: OFFLINE_ASSET_LIST.slice(1), source: JSON.stringify(files) });
    },
  };
}

/**
 * The pages people open most, and the chunk their own code travels in (see appChunks): the lists' in "list",
 * a case's start page's in "case-start", its fill page's in "case-fill".
 */
const HOT_ROUTES = {
  list: ["surveys", "survey-archives"],
  "case-start": ["survey.$surveyId._index"],
  "case-fill": ["survey.$surveyId.fill.$patientId"],
};
type HotChunk = keyof typeof HOT_ROUTES;

/**
 * Puts every module the root route and the browser entry import (statically) into one "core" chunk; the
 * app's own modules that the survey list and the archive import go into one "list" chunk, those of a case's
 * start page into "case-start" and those of its fill page into "case-fill"; a module two of these import
 * joins the core. Every page loads the root's modules before it can start, so splitting them further only
 * adds requests. A page's own code is a chunk of its own, fetched in parallel with the core, so that no page
 * carries another's: the list (the page opened first, on every shift) does not load a case's code, the
 * start page does not load the fill flow, and the fill page neither the list's nor the start page's
 * (docs/performance.md). Libraries outside the root's reach (the rich-text editor, charts, drag and drop)
 * stay in their own chunks.
 */
/**
 * React, its DOM renderer and scheduler, the root's libraries every page evaluates first: a chunk of their
 * own, which a page evaluates in a task of its own before the rest of the core (decision 059: each task
 * short enough not to block the page it has drawn).
 */
const FRAMEWORK = /\/node_modules\/(react|react-dom|scheduler)\/|commonjsHelpers/;

const appChunks: ManualChunksOption = (() => {
  let chunks: Map<string, "core" | HotChunk> | undefined;
  const isAppModule = (id: string) =>
    id.includes("/app/") && !id.includes("/node_modules/") && !id.includes("/app/routes/");
  return (id, { getModuleIds, getModuleInfo }) => {
    if (!chunks) {
      const found = new Map<string, "core" | HotChunk>();
      /** The modules `start` imports, directly or not, that are in no chunk yet (itself included). */
      const closure = (start: string) => {
        const seen = new Set<string>();
        const queue = [start];
        while (queue.length) {
          const next = queue.pop()!;
          if (seen.has(next) || found.has(next)) continue;
          seen.add(next);
          queue.push(...(getModuleInfo(next)?.importedIds ?? []));
        }
        return seen;
      };
      const ids = [...getModuleIds()];
      for (const start of ids.filter((m) =>
        /\/app\/(root\.tsx\?__remix-build-client-route|entry\.client\.tsx)$/.test(m),
      ))
        closure(start).forEach((m) => found.set(m, "core"));
      // A hot page's module joins with all it imports, when that is the app's own code (no other library).
      // A route's browser module imports the route file, which imports the page's modules.
      const joined = new Map<string, Set<HotChunk>>();
      for (const chunk of Object.keys(HOT_ROUTES) as HotChunk[]) {
        const hotImports = ids
          .filter((m) => HOT_ROUTES[chunk].some((r) => m.endsWith(`/app/routes/${r}.tsx?__remix-build-client-route`)))
          .flatMap((m) => getModuleInfo(m)?.importedIds ?? [])
          .flatMap((m) => getModuleInfo(m)?.importedIds ?? []);
        for (const m of hotImports) {
          const joining = closure(m);
          if (![...joining].every(isAppModule)) continue;
          for (const j of joining) joined.set(j, (joined.get(j) ?? new Set()).add(chunk));
        }
      }
      for (const [m, by] of joined) found.set(m, by.size > 1 ? "core" : [...by][0]);
      chunks = found;
    }
    const chunk = chunks.get(id);
    return chunk === "core" && FRAMEWORK.test(id) ? "framework" : chunk;
  };
})();

/**
 * The service worker, app/entry.worker.ts, bundled on its own by @remix-pwa/dev as the server build starts
 * (the browser build's files are known then: the worker gets their list as `virtual:assets-sw`). Its own
 * module is the worker's entry: the package's runtime would answer every request itself (API calls and
 * uploads included) and serves per-route worker loaders that single fetch never asks for. The page
 * registers it (app/offline/sw.client.ts): no registration script is injected into the root. The output
 * folder is left to the plugin's default (build/client in a build, public/ in development): the plugin
 * writes to public/ whenever a folder is given.
 */
const serviceWorker = remixPWA({
  registerSW: null,
  workerEntryPoint: fileURLToPath(new URL("./app/entry.worker.ts", import.meta.url)),
  workerName: path.basename(WORKER_URL, ".js"),
});

/**
 * A step over the browser build's folder once the server build has ended: the framework writes the browser
 * manifest module during the server build, so what needs every browser file runs then.
 */
function afterServerBuild(name: string, step: (clientDir: string) => void): Plugin {
  let ssr = false;
  let clientDir = "";
  return {
    name,
    apply: "build",
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
      clientDir = path.join(config.root, "build/client");
    },
    closeBundle() {
      if (ssr) step(clientDir);
    },
  };
}

/**
 * Finishes the built worker: writes in the path of the build's Remix manifest module, which the framework
 * writes after the worker was bundled (the worker's list of the build's files lacks it; see
 * BUILD_MANIFEST_MARK). Fails the build when the worker is missing: @remix-pwa/dev reports a failed worker
 * build without failing the build.
 */
const finishWorker = () =>
  afterServerBuild("finish-worker", (clientDir) => {
    const worker = path.join(clientDir, WORKER_URL);
    if (!fs.existsSync(worker)) throw new Error(`The service worker was not built: ${worker} is missing`);
    const manifests = fs
      .readdirSync(path.join(clientDir, ASSETS_PREFIX))
      .filter((f) => /^manifest-[\w-]+\.js$/.test(f));
    if (manifests.length !== 1) throw new Error(`Expected one browser manifest, found: ${manifests.join(", ")}`);
    const source = fs.readFileSync(worker, "utf8");
    if (!source.includes(BUILD_MANIFEST_MARK)) throw new Error(`${worker} does not name its manifest module`);
    fs.writeFileSync(worker, source.replaceAll(BUILD_MANIFEST_MARK, `${ASSETS_PREFIX}${manifests[0]}`));
  });

const COMPRESSIBLE = /\.(js|css|svg|json|webmanifest|txt)$/;

const walk = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.name !== ".vite") // the build's own manifest, removed once the build has read it
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));

/** Brotli and gzip copies of the browser's text files, sent by the server to browsers that accept them. */
const precompress = () =>
  afterServerBuild("precompress", (clientDir) => {
    for (const file of walk(clientDir).filter((f) => COMPRESSIBLE.test(f))) {
      const data = fs.readFileSync(file);
      if (data.length < 1024) continue;
      const quality = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } };
      fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(data, quality));
      fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
    }
  });

export default defineConfig(({ isSsrBuild }) => ({
  server: { port: 3000 },
  build: {
    target: "es2020",
    // A language file stays a file of its own however small (app/locale-files.ts): inlined, its texts
    // would travel in the script of every page.
    assetsInlineLimit: (file: string) => (file.endsWith(".json") ? false : undefined),
    rollupOptions: isSsrBuild ? {} : { output: { manualChunks: appChunks } },
  },
  plugins: [
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: false,
        v3_routeConfig: true,
      },
    }),
    tsconfigPaths(),
    clientContracts(),
    serviceWorker,
    offlineAssetList(),
    finishWorker(),
    precompress(),
  ],
}));
