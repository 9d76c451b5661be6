/**
 * The server's background work: the statistics' warm-up after a start, the export lines written ahead, and
 * the periodic rounds. Every piece gets the same signal, aborted when the server stops, and stops between
 * its steps; the stop waits for what is still running only so long (docs/operations.md, "Health and
 * stopping").
 */
export interface Background {
  readonly signal: AbortSignal;
  /** Starts the work now, unless stopping; it is waited for by `stop`. It handles its own failures. */
  start(work: (signal: AbortSignal) => Promise<unknown>): void;
  /**
   * Aborts the signal and waits for the work still running, at most `waitMs`. Resolves to how many pieces
   * were still running then (0: all ended).
   */
  stop(waitMs: number): Promise<number>;
}

export function createBackground(): Background {
  const controller = new AbortController();
  const running = new Set<Promise<unknown>>();
  return {
    signal: controller.signal,
    start(work) {
      if (controller.signal.aborted) return;
      const piece = work(controller.signal).catch(() => undefined);
      running.add(piece);
      void piece.finally(() => running.delete(piece));
    },
    async stop(waitMs) {
      controller.abort(new Error("The server is stopping"));
      if (running.size === 0) return 0;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.allSettled([...running]),
        new Promise((resolve) => (timer = setTimeout(resolve, waitMs))),
      ]);
      clearTimeout(timer);
      return running.size;
    },
  };
}
