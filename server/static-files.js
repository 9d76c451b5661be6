// The build's files: fingerprinted scripts and styles kept for a year, the service worker never kept by HTTP
// caches, the worker of earlier versions gone, and the other public files served at their own addresses.
import fs from "node:fs";
import path from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";

/**
 * Serves the build's client files (`clientRoot`) on `app`: the scripts and styles under `assets`, the service
 * worker at `workerUrl` for the scope `workerScope`, a 404 at `retiredWorkerUrl`, and the other public files.
 * Returns the addresses of those public files.
 * @template {import("hono").Env} E
 * @param {import("hono").Hono<E>} app
 * @param {{ clientRoot: string; assets: string; workerUrl: string; workerScope: string; retiredWorkerUrl: string }} options
 * @returns {Set<string>}
 */
export function serveBuildFiles(app, { clientRoot, assets, workerUrl, workerScope, retiredWorkerUrl }) {
  const clientDir = path.relative(process.cwd(), clientRoot) || ".";
  app.use(
    `${assets}*`,
    serveStatic({
      root: clientDir,
      precompressed: true,
      onFound: (_path, c) => c.header("Cache-Control", "public, max-age=31536000, immutable"),
    }),
  );
  // An asset that is not in the build (an old page asking for a file of an earlier version) is a plain 404.
  app.all(`${assets}*`, (c) => c.text("Not found", 404));
  // The service worker (app/entry.worker.ts). Never kept by HTTP caches, so that a new build's worker is
  // seen at the next update check; its scope is the whole app (Service-Worker-Allowed names it).
  app.use(
    workerUrl,
    serveStatic({
      root: clientDir,
      precompressed: true,
      onFound: (_path, c) => {
        c.header("Cache-Control", "no-cache");
        c.header("Service-Worker-Allowed", workerScope);
      },
    }),
  );
  // The worker of earlier versions is gone: a 404 leaves an old registration as it is until a page of this
  // version registers WORKER_URL in its place (app/offline/sw.client.ts explains why it is not served).
  app.all(retiredWorkerUrl, (c) => c.text("Not found", 404));
  // The build's other files (icons, the web manifest, the offline list), looked up only for their own
  // addresses: a page's address would otherwise cost a few file lookups for every request.
  const publicFiles = new Set(
    fs
      .readdirSync(clientRoot, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map(
        (entry) =>
          `/${path
            .relative(clientRoot, path.join(entry.parentPath ?? entry.path, entry.name))
            .split(path.sep)
            .join("/")}`,
      ),
  );
  const servePublicFile = serveStatic({
    root: clientDir,
    precompressed: true,
    onFound: (_path, c) => c.header("Cache-Control", "public, max-age=3600"),
  });
  app.use("*", (c, next) => (publicFiles.has(c.req.path) ? servePublicFile(c, next) : next()));
  return publicFiles;
}
