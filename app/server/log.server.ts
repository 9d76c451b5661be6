import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";
import os from "node:os";

type Level = "error" | "info" | "debug";
const order: Record<Level | "silent", number> = { silent: 0, error: 1, info: 2, debug: 3 };

let threshold: Level | "silent" = "info";
let instance = `${os.hostname()}-${process.pid}`;

export function setLogLevel(level: Level | "silent") {
  threshold = level;
}

/** Names this copy of the server in every log line (INSTANCE_ID, else host name and process id). */
export function setInstanceId(id: string) {
  instance = id;
}

export function instanceId(): string {
  return instance;
}

export function logEnabled(level: Level): boolean {
  return order[level] <= order[threshold];
}

/** What every log line written while a request is answered carries: the request's id. */
interface RequestContext {
  requestId: string;
  /** Reads shared by the parts of a request that only reads (GET or HEAD): see oncePerRequest. */
  reads?: Map<string, Promise<unknown>>;
  /** Texts the request's page or answer asked for and the locale files lack (app/missing-texts.ts). */
  missingTexts?: Set<string>;
  /** The hand-over of the request's session (decision 058), for the API calls the page makes in-process. */
  handover?: unknown;
}

const requests = new AsyncLocalStorage<RequestContext>();

/** An incoming X-Request-Id is kept when it is short and plain; anything else gets a fresh one. */
const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

export function requestIdFrom(incoming: string | null | undefined): string {
  return incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
}

/**
 * Runs fn with the request's id attached to every log line written during it (also in what it awaits);
 * readOnly (a GET or HEAD) lets its parts share what they read (oncePerRequest).
 */
export function withRequestContext<T>(requestId: string, fn: () => T, readOnly = false): T {
  return requests.run(readOnly ? { requestId, reads: new Map() } : { requestId }, fn);
}

/** Notes the request's session as handed over to the patient (guards.server.ts). */
export function noteRequestHandover(scope: unknown): void {
  const store = requests.getStore();
  if (store) store.handover = scope;
}

/** The hand-over noted for this request, if any. */
export function requestHandover<T>(): T | undefined {
  return requests.getStore()?.handover as T | undefined;
}

/** Forgets what the request read so far: a page's loader is about to write through the API. */
export function forgetRequestReads(): void {
  requests.getStore()?.reads?.clear();
}

/**
 * What read() gives, read once in a request that only reads: a page's loaders ask the API several times
 * for what one survey is and who may see it. Anywhere else (a write, a background task) it reads afresh.
 */
export function oncePerRequest<T>(key: string, read: () => Promise<T>): Promise<T> {
  const reads = requests.getStore()?.reads;
  if (!reads) return read();
  let value = reads.get(key) as Promise<T> | undefined;
  if (!value) {
    value = read();
    reads.set(key, value);
    value.catch(() => reads.delete(key));
  }
  return value;
}

/** Notes a text missing from the locale files for the answer to the request being answered. */
export function noteMissingText(text: string): void {
  const store = requests.getStore();
  if (store) (store.missingTexts ??= new Set()).add(text);
}

/** The texts missing so far while answering the current request. */
export function missingTextsOfRequest(): string[] {
  return [...(requests.getStore()?.missingTexts ?? [])];
}

/** The id of the request being answered, if any. */
export function currentRequestId(): string | undefined {
  return requests.getStore()?.requestId;
}

function write(level: Level, msg: string, fields: Record<string, unknown>) {
  if (!logEnabled(level)) return;
  const requestId = requests.getStore()?.requestId;
  const line = JSON.stringify({
    time: new Date().toISOString(),
    level,
    msg,
    instance,
    ...(requestId ? { requestId } : {}),
    ...fields,
  });
  (level === "error" ? process.stderr : process.stdout).write(line + "\n");
}

/** One JSON object per line, to stdout (stderr for errors), with the copy's instance id and the request's id. */
export const log = {
  error: (msg: string, fields: Record<string, unknown> = {}) => write("error", msg, fields),
  info: (msg: string, fields: Record<string, unknown> = {}) => write("info", msg, fields),
  debug: (msg: string, fields: Record<string, unknown> = {}) => write("debug", msg, fields),
};

/**
 * The path a request is logged under. A patient's link carries its secret in its address (/l/<token>,
 * decision 057): the log names the link it opened ("/l/[link 12]", noted by the page that opened it) or
 * "/l/[invalid]", never the token. The link's own pages (/l, /l/fill, /l/api/…) are logged as they are.
 */
const loggedPaths = new Map<string, string>();
const LINK_PAGES = /^\/l(?:\/(?:fill|code|done|api(?:\/.*)?))?\/?$/;

export function noteLoggedPath(path: string): void {
  const id = currentRequestId();
  if (!id) return;
  if (loggedPaths.size >= 10_000) loggedPaths.delete(loggedPaths.keys().next().value!);
  loggedPaths.set(id, path);
}

export function pathForLog(path: string, requestId?: string): string {
  const noted = requestId ? loggedPaths.get(requestId) : undefined;
  if (requestId) loggedPaths.delete(requestId);
  if (!path.startsWith("/l/") || LINK_PAGES.test(path)) return path;
  return noted ?? "/l/[invalid]";
}
