// The embedded OpenID provider in a worker thread of its own (see startIdpInWorker in index.js).
import { writeThrough } from "./json-lines.js";
import { parentPort as port, workerData } from "node:worker_threads";

if (!port) throw new Error("server/idp-worker.js runs in a worker thread (see startIdpInWorker in index.js)");
const parentPort = port;

/** @type {import("./build").AppBuild} */
const build = await import(workerData.buildPath);
writeThrough(build.entry.module.log);
try {
  const idp = await build.entry.module.startEmbeddedIdp(workerData.options);
  parentPort.on("message", (message) => {
    if (message !== "close") return;
    idp.close().then(
      () => parentPort.postMessage({ closed: true }),
      () => parentPort.postMessage({ closed: true }),
    );
  });
  parentPort.postMessage({ ready: true });
} catch (error) {
  parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
