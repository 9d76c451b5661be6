// The embedded OpenID provider in a process of its own: `OIDC_ISSUER=http://localhost:3001
// OIDC_CLIENT_SECRET=… PUBLIC_URL=… node server/idp.js` serves the demo accounts at that address for the
// app's copies, which are started with the same OIDC_ISSUER and OIDC_CLIENT_SECRET.
import "./production-mode.js";
import { fatal, writeThrough } from "./json-lines.js";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
/** @type {import("./build").AppBuild} */
const build = await import(path.join(here, "..", "build", "server", "index.js"));
writeThrough(build.entry.module.log);

/** @type {Awaited<ReturnType<import("./build").EntryModule["startStandaloneIdp"]>>} */
let idp;
try {
  idp = await build.entry.module.startStandaloneIdp();
} catch (error) {
  fatal(error);
}

async function stop() {
  await idp.close();
  process.exit(0);
}
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
