import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/**
 * What an operator's Prometheus scrapes from each copy at GET /api/metrics (docs/operations.md, "Metrics"):
 * requests by route template, method and status with their latency, the work people do (answers, syncs,
 * exports, statistics), the database pool, the attachment store's errors, session renewals, and the
 * process (event-loop lag, memory, CPU, garbage collection). One registry per process; counters start at
 * zero with each start, as Prometheus expects.
 */
export const metrics = new Registry();

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const httpRequests = new Counter({
  name: "survey_http_requests_total",
  help: "Requests answered, by route template, method and status (499: the client went away first)",
  labelNames: ["route", "method", "status"] as const,
  registers: [metrics],
});

export const httpDuration = new Histogram({
  name: "survey_http_request_duration_seconds",
  help: "Time from a request's arrival to its answer's start, by route template and method",
  labelNames: ["route", "method"] as const,
  buckets: SECONDS,
  registers: [metrics],
});

export const answersRecorded = new Counter({
  name: "survey_answers_recorded_total",
  help: "Answers written one at a time (the fill pages), by change: saved, removed, or unchanged (the same answer again)",
  labelNames: ["change"] as const,
  registers: [metrics],
});

export const casesErased = new Counter({
  name: "survey_cases_erased_total",
  help: "Cases erased (docs/decisions/042-retention-and-erasure.md), by reason: consent, retention, wrongPatient",
  labelNames: ["reason"] as const,
  registers: [metrics],
});

export const offlineSyncs = new Counter({
  name: "survey_offline_syncs_total",
  help: "Offline fills sent to be synced, by outcome (applied, replayed, clash, outdated, closed, inactive, refused, failed)",
  labelNames: ["outcome"] as const,
  registers: [metrics],
});

export const exportDuration = new Histogram({
  name: "survey_export_duration_seconds",
  help: "CSV zip exports, from the request to the last byte sent, by how they ended",
  labelNames: ["result"] as const,
  buckets: SECONDS,
  registers: [metrics],
});

export const statisticsDuration = new Histogram({
  name: "survey_statistics_duration_seconds",
  help: "Statistics of a survey computed for a request (with a benchmark: both surveys)",
  buckets: SECONDS,
  registers: [metrics],
});

export const attachmentStoreErrors = new Counter({
  name: "survey_attachment_store_errors_total",
  help: "Operations the attachment store failed, by store and operation",
  labelNames: ["store", "operation"] as const,
  registers: [metrics],
});

export const sessionRenewals = new Counter({
  name: "survey_session_renewals_total",
  help: "Renewals of a session's tokens at the identity provider, by result (renewed, ended, unreachable)",
  labelNames: ["result"] as const,
  registers: [metrics],
});

/** The database's connections right now: PostgreSQL's pool, or SQLite's one writer and its reader threads. */
export interface PoolState {
  inUse: number;
  idle: number;
  waiting: number;
}

let poolState: () => PoolState | undefined = () => undefined;

/** Tells the metrics where the database pool's state is read from. */
export function watchPool(read: () => PoolState | undefined) {
  poolState = read;
}

new Gauge({
  name: "survey_db_pool_connections",
  help: "Database connections by state: in use, idle, and requests waiting for one",
  labelNames: ["state"] as const,
  registers: [metrics],
  collect() {
    const state = poolState();
    if (!state) return;
    this.set({ state: "in_use" }, state.inUse);
    this.set({ state: "idle" }, state.idle);
    this.set({ state: "waiting" }, state.waiting);
  },
});

let started = false;

/** The process's own figures (event-loop lag, memory, CPU, GC), read at each scrape; started once, by boot. */
export function startProcessMetrics() {
  if (started) return;
  started = true;
  collectDefaultMetrics({ register: metrics, eventLoopMonitoringPrecision: 10 });
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** One answered request; the route is its template (route-templates.server.ts), never the path itself. */
export function recordRequest(route: string, method: string, status: number, seconds: number) {
  const verb = METHODS.has(method) ? method : "other";
  httpRequests.inc({ route, method: verb, status: String(status) });
  httpDuration.observe({ route, method: verb }, seconds);
}

/** Times a piece of work into a histogram; the labels may depend on how it ended. */
export async function timed<T>(histogram: Histogram<string>, work: () => Promise<T>): Promise<T> {
  const end = histogram.startTimer();
  try {
    return await work();
  } finally {
    end();
  }
}

/** A response body timed from now until it is sent whole, fails, or the client stops reading it. */
export function timedStream(
  body: ReadableStream<Uint8Array>,
  histogram: Histogram<"result">,
): ReadableStream<Uint8Array> {
  const end = histogram.startTimer();
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (!done) return controller.enqueue(value);
          end({ result: "complete" });
          controller.close();
        } catch (error) {
          end({ result: "failed" });
          controller.error(error);
        }
      },
      cancel(reason) {
        end({ result: "cancelled" });
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
