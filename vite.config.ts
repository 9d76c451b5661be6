import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig, type Plugin } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * Writes /offline-assets.json into the browser build: every script and style of the build, lazy chunks
 * included (the Remix manifest lists only route modules and their imports). The service worker keeps them
 * all, so that what opens on demand (the sync modal, for one) also opens offline.
 */
function offlineAssetList(): Plugin {
  let ssr = false;
  return {
    name: "offline-asset-list",
    apply: "build",
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    generateBundle(_options, bundle) {
      if (ssr) return;
      const files = Object.keys(bundle)
        .filter((name) => name.startsWith("assets/") && /\.(js|css)$/.test(name))
        .sort()
        .map((name) => `/${name}`);
      this.emitFile({ type: "asset", fileName: "offline-assets.json", source: JSON.stringify(files) });
    },
  };
}

const COMPRESSIBLE = /\.(js|css|svg|json|webmanifest|txt)$/;

/** Brotli and gzip copies of the browser's text files, sent by the server to browsers that accept them. */
function precompress(): Plugin {
  const walk = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  return {
    name: "precompress",
    apply: "build",
    writeBundle(options) {
      if (!options.dir || path.basename(options.dir) !== "client") return;
      for (const file of walk(options.dir).filter((f) => COMPRESSIBLE.test(f))) {
        const data = fs.readFileSync(file);
        if (data.length < 1024) continue;
        const quality = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } };
        fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(data, quality));
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  server: { port: 3000 },
  build: { target: "es2020" },
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
    offlineAssetList(),
    precompress(),
  ],
});
