// The production server: static assets (./static-files.js), security headers (./security-headers.js), request
// logs, the Remix app, a clean stop (./stop.js).
import "./production-mode.js";
import { fatal, writeThrough } from "./json-lines.js";
import crypto from "node:crypto";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { getRequestListener } from "@hono/node-server";
import { createRequestHandler } from "@remix-run/node";
import { Hono } from "hono";
import { compress } from "hono/compress";
import { bodyOf, dropRest } from "./request-body.js";
import { securityHeadersFor } from "./security-headers.js";
import { serveBuildFiles } from "./static-files.js";
import { stopOnSignals } from "./stop.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const buildPath = path.join(here, "..", "build", "server", "index.js");
/** @type {import("./build").AppBuild} */
const build = await import(buildPath);
writeThrough(build.entry.module.log);

/**
 * Starts the embedded OpenID provider in a worker thread, off the thread that answers the app.
 * @param {import("./build").IdpOptions} options
 * @returns {Promise<{ close(): Promise<void> }>}
 */
function startIdpInWorker(options) {
  const worker = new Worker(path.join(here, "idp-worker.js"), { workerData: { buildPath, options } });
  return new Promise((resolve, reject) => {
    worker.once("error", reject);
    worker.once("message", (message) => {
      if (message.error) {
        void worker.terminate();
        reject(new Error(message.error));
        return;
      }
      worker.on("error", (error) => process.stderr.write(`embedded identity provider: ${error.message}\n`));
      resolve({
        close: () =>
          /** @type {Promise<void>} */ new Promise((done) => {
            worker.once("message", () => void worker.terminate().then(() => done(undefined)));
            worker.postMessage("close");
          }),
      });
    });
  });
}

/** @type {import("./build").Runtime} */
let runtime;
try {
  runtime = await build.entry.module.boot({ startIdp: startIdpInWorker });
} catch (error) {
  fatal(error);
}
const { env } = runtime;
const handleRemix = createRequestHandler(build, "production");
const clientRoot = path.join(here, "..", "build", "client");

/**
 * The address the person's browser used, when a trusted proxy reports it (X-Forwarded-Proto and -Host);
 * otherwise the address the request reached this server at.
 * @param {Request} request
 */
function publicUrlOf(request) {
  const url = new URL(request.url);
  if (!env.TRUST_PROXY) return url;
  const first = (/** @type {string} */ name) => request.headers.get(name)?.split(",")[0]?.trim();
  const proto = first("x-forwarded-proto");
  const host = first("x-forwarded-host");
  const protocol = proto === "https" || proto === "http" ? `${proto}:` : url.protocol;
  // The host as reported, with its port or none (setting only URL.host would keep this server's port).
  const origin = `${protocol}//${host && /^[a-z0-9.\-:[\]]+$/i.test(host) ? host : url.host}`;
  return URL.canParse(origin) ? new URL(`${url.pathname}${url.search}`, origin) : url;
}

/** The requests whose client went away before their answer was complete (logged as 499, not as errors). */
const abandoned = new WeakSet();

/**
 * The request as the person's browser sent it, for the handlers: the address a trusted proxy reports, and
 * a body read only while the handler reads it (server/request-body.js). bodyRead: the server took it already.
 * @param {import("hono").Context<AppEnv>} c
 * @returns {Request}
 */
function handlerRequest(c, bodyRead = false) {
  const request = c.req.raw;
  const url = publicUrlOf(request);
  const unread = !bodyRead && request.method !== "GET" && request.method !== "HEAD";
  if (url.href === request.url && !unread) return request;
  const { incoming, outgoing } = c.env;
  const abort = new AbortController();
  outgoing.once("close", () => {
    if (!outgoing.writableFinished) abort.abort(new Error("The client went away"));
  });
  return new Request(url, {
    method: request.method,
    headers: request.headers,
    body: unread ? bodyOf(incoming) : undefined,
    duplex: unread ? "half" : undefined,
    signal: abort.signal,
  });
}

/**
 * The same request without a body. Not its signal either: the node server's own aborts once the dropped body
 * has ended, while the page is still answering.
 * @param {Request} request
 */
const withoutBody = (request) => new Request(request.url, { method: request.method, headers: request.headers });

/** A declared body larger than this is refused with Connection: close instead of being read and dropped. */
const DROP_LIMIT = 64 * 1024 * 1024;

/**
 * A body declared over its path's limit (413), or a page's form sent without a declared length (411), is
 * refused before anything reads it; the rest of it is read and dropped, so the connection (a proxy's kept
 * connection too) answers its next request.
 * @param {import("hono").Context<AppEnv>} c
 * @returns {Response | undefined}
 */
function refusedBody(c) {
  const { method, headers } = c.env.incoming;
  if (method === "GET" || method === "HEAD") return undefined;
  const api = isApiPath(c.req.path);
  const declared = headers["content-length"];
  if (declared === undefined) {
    // Browsers declare the length of every form; a page's action would read an undeclared one whole.
    return headers["transfer-encoding"] && !api ? c.text(PAGE_REFUSALS.lengthRequired, 411) : undefined;
  }
  const limit = build.entry.module.bodyLimitOf(c.req.path, headers["content-type"]);
  const length = Number(declared);
  if (!(length > limit)) return undefined;
  if (length > DROP_LIMIT) c.header("Connection", "close");
  else c.env.incoming.resume();
  if (api) return c.json(build.entry.module.tooLarge(limit).toEnvelope(), 413);
  // A page that answers its refused form itself gets the request without its body, and why.
  if (build.entry.module.answersRefusedForm(c.req.path)) {
    c.set("bodyRefused", "tooLarge");
    return undefined;
  }
  return c.text(PAGE_REFUSALS.tooLarge(limit), 413);
}

/** What a page's refused form answers, in both languages: it comes before the page knows the person's. */
const PAGE_REFUSALS = {
  lengthRequired: "Die Anfrage nennt ihre Länge nicht.\nThe request does not declare its length.\n",
  tooLarge: (/** @type {number} */ limit) => {
    const mb = Math.floor(limit / 1_000_000);
    return `Die Anfrage ist zu groß (höchstens ${mb} MB).\nThe request is too large (at most ${mb} MB).\n`;
  },
};

/** Where the build's fingerprinted scripts and styles are served: never documents, never workers. */
const ASSETS = build.entry.module.ASSETS_PREFIX;
/**
 * The client's address: the proxy's X-Forwarded-For where TRUST_PROXY says to believe it.
 * @param {import("hono").Context<AppEnv>} c
 * @returns {string | undefined}
 */
const addressOf = (c) =>
  (env.TRUST_PROXY && c.req.header("x-forwarded-for")?.split(",")[0]?.trim()) || c.env?.incoming?.socket?.remoteAddress;
/** @param {string} path the API's paths: the staff's, and those a patient's link reaches (decision 057) */
const isApiPath = (path) => path.startsWith("/api/") || path.startsWith("/l/api/");

const securityHeaders = securityHeadersFor({
  assets: ASSETS,
  isApiPath,
  issuer: env.issuer,
  publicUrl: env.publicUrl,
});

const {
  log,
  withRequestContext,
  pathForLog,
  nameMissingTexts,
  requestIdFrom,
  startDraining,
  recordRequest,
  WORKER_URL,
  WORKER_SCOPE,
  RETIRED_WORKER_URL,
} = build.entry.module;
/** The route template of a path, for the metrics (a bounded set, whatever paths clients send). */
const routeOf = build.entry.module.requestRoutes(build.routes, ASSETS);
/**
 * @typedef {{
 *   Bindings: import("@hono/node-server").HttpBindings;
 *   Variables: { nonce: string; bodyRefused?: "tooLarge" };
 * }} AppEnv
 */
/** @type {Hono<AppEnv>} */
const app = new Hono();
/** The requests being answered, by their id: named in the log if the stop has to cut them. */
const inFlight = new Map();

app.use("*", async (c, next) => {
  const started = performance.now();
  const requestId = requestIdFrom(c.req.header("x-request-id"));
  const request = { method: c.req.method, path: pathForLog(c.req.path), requestId };
  inFlight.set(requestId, request);
  // Only pages need a script nonce; the API answers JSON and the assets are files.
  const page = !isApiPath(c.req.path) && !c.req.path.startsWith(ASSETS);
  const nonce = page ? crypto.randomBytes(16).toString("base64") : "";
  c.set("nonce", nonce);
  // Read before the handlers run: a request whose body they took cannot be rebuilt afterwards.
  const secure = publicUrlOf(c.req.raw).protocol === "https:";
  const reads = c.req.method === "GET" || c.req.method === "HEAD";
  try {
    const refused = refusedBody(c);
    if (refused) c.res = refused;
    // The answer names any text of the locale files it lacked (app/missing-texts.ts).
    else await withRequestContext(requestId, () => next().then(() => nameMissingTexts(c.res.headers)), reads);
  } finally {
    inFlight.delete(requestId);
  }
  securityHeaders(c.res.headers, nonce, secure, c.req.path);
  c.res.headers.set("X-Request-Id", requestId);
  // While draining, no connection is kept for another request: the proxy opens its next one elsewhere.
  if (shutdown.stopping) c.res.headers.set("Connection", "close");
  // A request whose client went away (a closed tab, a cancelled fetch) is not a failure of the server.
  const aborted = abandoned.has(c.env.incoming);
  const status = aborted ? 499 : c.res.status;
  const ms = performance.now() - started;
  recordRequest(publicFiles.has(c.req.path) ? "/static" : routeOf(c.req.path), c.req.method, status, ms / 1000);
  withRequestContext(requestId, () =>
    log.info("request", {
      method: c.req.method,
      // A patient's link's token never stands in the log (decision 057).
      path: pathForLog(c.req.path, requestId),
      status,
      ...(aborted ? { aborted } : {}),
      ms: Math.round(ms * 10) / 10,
      ip: addressOf(c),
    }),
  );
});

/** JSON bodies up to this size are read here, straight from the socket, and handed to the API. */
const PREREAD_LIMIT = 3_000_000;

/**
 * The body of a small JSON request, read from Node's request stream; undefined when the API should read
 * it itself (no body, another type, no declared length, or one over the path's limit, which the API
 * refuses with 413 before anything is read).
 * @param {import("node:http").IncomingMessage} incoming
 * @param {string} path
 * @returns {Promise<Buffer> | undefined}
 */
function prereadJson(incoming, path) {
  const { method, headers } = incoming;
  if (method === "GET" || method === "HEAD" || headers["transfer-encoding"]) return undefined;
  const length = Number(headers["content-length"]);
  const limit = Math.min(PREREAD_LIMIT, build.entry.module.bodyLimitOf(path));
  if (!(length > 0 && length <= limit) || !headers["content-type"]?.includes("application/json")) {
    return undefined;
  }
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    incoming.on("data", (/** @type {Buffer} */ chunk) => chunks.push(chunk));
    incoming.on("end", () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    incoming.on("error", reject);
  });
}

// The REST API goes straight to its handler (no file lookups, no page framework); so does the part of it a
// patient's link reaches under /l/api (decision 057).
/** @param {import("hono").Context<AppEnv>} c */
const toApi = async (c) => {
  const body = await prereadJson(c.env.incoming, c.req.path);
  return build.entry.module.apiFetch(handlerRequest(c, body !== undefined), body);
};
app.all("/api/*", toApi);
app.all("/l/api/*", toApi);

const publicFiles = serveBuildFiles(app, {
  clientRoot,
  assets: ASSETS,
  workerUrl: WORKER_URL,
  workerScope: WORKER_SCOPE,
  retiredWorkerUrl: RETIRED_WORKER_URL,
});
// Pages are compressed as they stream; the API (small JSON, latency budget) and the files above are not.
app.use("*", compress());
app.all("*", (c) => {
  const bodyRefused = c.get("bodyRefused");
  // A refused body (read and dropped by the server) is no part of the request the page gets.
  const request = bodyRefused ? withoutBody(handlerRequest(c, true)) : handlerRequest(c);
  // A write from another site is refused here with 403; the page framework would answer it with a 500.
  if (build.entry.module.isCrossSiteWrite(request, env.publicUrl)) {
    return c.text("Cross-site request refused", 403);
  }
  return handleRemix(request, { cspNonce: c.get("nonce"), clientAddress: addressOf(c), bodyRefused });
});

// Node reads and drops a body nobody started to read (handlerRequest's streams read only when read).
const answer = getRequestListener(app.fetch, { autoCleanupIncoming: false });
const server = http.createServer((incoming, outgoing) => {
  outgoing.once("close", () => {
    if (!outgoing.writableFinished) abandoned.add(incoming);
  });
  outgoing.once("finish", () => dropRest(incoming));
  void answer(incoming, outgoing);
});
server.once("error", (/** @type {NodeJS.ErrnoException} */ error) =>
  fatal(
    error.code === "EADDRINUSE" || error.code === "EACCES"
      ? `Invalid configuration:\n  PORT: the server cannot listen on port ${env.PORT} (${error.code === "EADDRINUSE" ? "in use by another program" : "not allowed"})`
      : error,
  ),
);
server.listen(env.PORT, env.HOST, () =>
  log.info("listening", { port: env.PORT, url: env.publicUrl, mode: process.env.NODE_ENV }),
);

const shutdown = stopOnSignals({ server, runtime, inFlight, log, startDraining });
