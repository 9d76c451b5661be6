// The stop on SIGTERM or SIGINT: readiness says "not ready", the requests in flight are answered (or cut,
// each named in the log), the background work and the app are closed, and the process exits.

/** How long a stop waits for the requests in flight before it cuts them. */
const DRAIN_LIMIT_MS = 10_000;
/** After the cut, how long closing may still take before the process exits regardless. */
const CLOSE_LIMIT_MS = 3_000;

/**
 * Stops `server` and the app (`runtime`) on SIGTERM and SIGINT; `inFlight` holds the requests being answered,
 * by their id. What it returns tells whether a stop has begun.
 * @param {{
 *   server: import("node:http").Server;
 *   runtime: import("./build").Runtime;
 *   inFlight: Map<string, object>;
 *   log: import("./build").EntryModule["log"];
 *   startDraining: import("./build").EntryModule["startDraining"];
 * }} parts
 * @returns {{ readonly stopping: boolean }}
 */
export function stopOnSignals({ server, runtime, inFlight, log, startDraining }) {
  const { env } = runtime;
  let stopping = false;

  /** @param {NodeJS.Signals} signal */
  async function stop(signal) {
    if (stopping) return;
    stopping = true;
    startDraining();
    log.info("stopping", { signal, inFlight: inFlight.size, delaySeconds: env.SHUTDOWN_DELAY_SECONDS });
    // The background work (the statistics' warm-up, export lines, periodic rounds) is told to stop at once.
    const backgroundStopped = runtime.stopBackground();
    // Readiness says "not ready" from now; new requests are still answered while the proxy takes note.
    if (env.SHUTDOWN_DELAY_SECONDS > 0) await new Promise((r) => setTimeout(r, env.SHUTDOWN_DELAY_SECONDS * 1000));
    const force = setTimeout(() => {
      for (const request of inFlight.values()) {
        log.error("request.cut", { ...request, reason: `still running ${DRAIN_LIMIT_MS / 1000} s after ${signal}` });
      }
      server.closeAllConnections?.();
    }, DRAIN_LIMIT_MS);
    // Whatever still holds the process then (a statement the database does not answer, say) does not keep it.
    setTimeout(() => {
      log.error("stop.forced", {
        reason: `still closing ${(DRAIN_LIMIT_MS + CLOSE_LIMIT_MS) / 1000} s into the stop`,
      });
      process.exit(0);
    }, DRAIN_LIMIT_MS + CLOSE_LIMIT_MS).unref();
    await new Promise((resolve) => {
      server.close(() => resolve(undefined));
      server.closeIdleConnections?.();
    });
    clearTimeout(force);
    await backgroundStopped;
    await runtime.close();
    log.info("stopped");
    process.exit(0);
  }
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  return {
    get stopping() {
      return stopping;
    },
  };
}
