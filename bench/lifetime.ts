// What a bench starts (its server, its browser) ends with the bench: when it returns, when it throws, when an
// error escapes it (an 'error' event no one listens to, as a browser that cannot be spawned raises), and when
// a signal stops it. A try/finally covers only the first two; a process that dies of the others would leave
// its server running on its port.
const stops = new Set<() => void>();

/** Runs `stop` (synchronous: at exit there is no later turn) when the bench's process ends; returns a release. */
export function endWithBench(stop: () => void): () => void {
  stops.add(stop);
  return () => void stops.delete(stop);
}

function stopAll() {
  for (const stop of [...stops]) {
    stops.delete(stop);
    try {
      stop();
    } catch (error) {
      console.error(error);
    }
  }
}

// 'exit' comes after a return, process.exit() and an uncaught exception or rejection alike.
process.on("exit", stopAll);
// A signal's default ends the process without 'exit': turn it into an exit with the shell's code for it.
for (const [signal, number] of [
  ["SIGINT", 2],
  ["SIGTERM", 15],
  ["SIGHUP", 1],
] as const) {
  process.on(signal, () => process.exit(128 + number));
}
