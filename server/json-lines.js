// Every line a process of the server writes is one JSON object, like the app's own log lines
// (app/server/log.server.ts): what a library prints through the console, Node's own warnings and an error
// nothing caught are written as log lines too. Imported first, before the build (and its libraries) load.
import os from "node:os";
import { format } from "node:util";
import { isMainThread } from "node:worker_threads";

/** @typedef {"error" | "info" | "debug"} Level */
/** @typedef {(level: Level, msg: string, fields: Record<string, unknown>) => void} Sink */

const instance = process.env.INSTANCE_ID || `${os.hostname()}-${process.pid}`;

/** @type {Sink} */
let sink = (level, msg, fields) => {
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, instance, ...fields });
  (level === "error" ? process.stderr : process.stdout).write(`${line}\n`);
};

/**
 * From now on the lines go through the app's log (its level, its instance id, the request's id).
 * @param {{ error: (msg: string, fields: Record<string, unknown>) => void; info: (msg: string, fields: Record<string, unknown>) => void; debug: (msg: string, fields: Record<string, unknown>) => void }} log
 */
export function writeThrough(log) {
  sink = (level, msg, fields) => log[level](msg, fields);
}

/** @param {Level} level @param {string} msg */
const consoleLine =
  (level, msg) =>
  (/** @type {unknown[]} */ ...args) =>
    sink(level, msg, { text: format(...args) });

console.log = consoleLine("info", "console");
console.info = consoleLine("info", "console");
console.warn = consoleLine("info", "console.warning");
console.error = consoleLine("error", "console.error");
console.debug = consoleLine("debug", "console");
console.trace = consoleLine("debug", "console");

/**
 * A line for a start that failed (a bad setting, a port taken), then the exit.
 * @param {unknown} error
 * @returns {never}
 */
export function fatal(error) {
  sink("error", "start.failed", { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}

if (isMainThread) {
  // Node's own printing of warnings (deprecations, experimental features) is replaced by a log line.
  process.removeAllListeners("warning");
  process.on("warning", (warning) =>
    sink("info", "node.warning", {
      name: warning.name,
      text: warning.message,
      ...("code" in warning ? { code: warning.code } : {}),
    }),
  );
  process.on("uncaughtException", (error, origin) => {
    sink("error", "process.crashed", {
      origin,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    process.exit(1);
  });
}
