import { createRequire } from "node:module";
import os from "node:os";
import { Worker } from "node:worker_threads";
import type { CompiledQuery } from "kysely";

/**
 * Read-only SQLite connections in worker threads, so that the independent passes of one computation (the
 * statistics) run at the same time on several cores: the main connection answers one query at a time, and
 * while it does the whole process waits. Each worker opens the file read-only for itself; workers start on
 * first use, take the next waiting query as soon as they are free, and end with the database.
 */
export interface ReaderPool {
  read<R>(query: CompiledQuery<R>): Promise<R[]>;
  close(): Promise<void>;
}

/** How many readers: one per core, at most four. */
const READERS = Math.max(1, Math.min(4, os.availableParallelism()));

// Plain CommonJS, run by `new Worker(..., { eval: true })`: it needs nothing of the app but the driver.
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const SQLite = require(workerData.driver);
const database = new SQLite(workerData.file, { readonly: true, fileMustExist: true });
database.pragma("busy_timeout = 5000");
database.pragma("cache_size = -65536");
database.pragma("mmap_size = 268435456");
const statements = new Map();
parentPort.on("message", ({ id, sql, parameters }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = database.prepare(sql)));
    parentPort.postMessage({ id, rows: statement.all(parameters) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

interface Job {
  id: number;
  sql: string;
  parameters: readonly unknown[];
  resolve: (rows: unknown[]) => void;
  reject: (error: Error) => void;
}

export function createReaderPool(file: string): ReaderPool {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const waiting: Job[] = [];
  const idle: Worker[] = [];
  const busy = new Map<Worker, Job>();
  let workers: Worker[] = [];
  let nextId = 0;

  const dispatch = () => {
    while (idle.length > 0 && waiting.length > 0) {
      const worker = idle.pop()!;
      const job = waiting.shift()!;
      busy.set(worker, job);
      worker.postMessage({ id: job.id, sql: job.sql, parameters: job.parameters });
    }
  };

  const start = () => {
    workers = Array.from({ length: READERS }, () => {
      const worker = new Worker(WORKER, { eval: true, workerData: { driver, file } });
      worker.unref();
      worker.on("message", (message: { id: number; rows?: unknown[]; error?: string }) => {
        if (!workers.includes(worker)) return; // ended with the pool, or after another reader failed
        const job = busy.get(worker);
        busy.delete(worker);
        idle.push(worker);
        if (job && job.id === message.id) {
          if (message.error !== undefined) job.reject(new Error(message.error));
          else job.resolve(message.rows ?? []);
        }
        dispatch();
      });
      // A reader that fails to start or dies fails its query; the pool starts anew on the next one.
      worker.on("error", (error) => {
        for (const job of busy.values()) job.reject(error);
        busy.clear();
        for (const other of workers) void other.terminate();
        workers = [];
        idle.length = 0;
        for (const job of waiting.splice(0)) job.reject(error);
      });
      idle.push(worker);
      return worker;
    });
  };

  return {
    read<R>(query: CompiledQuery<R>) {
      if (workers.length === 0) start();
      return new Promise<R[]>((resolve, reject) => {
        waiting.push({
          id: nextId++,
          sql: query.sql,
          parameters: query.parameters,
          resolve: resolve as (rows: unknown[]) => void,
          reject,
        });
        dispatch();
      });
    },
    async close() {
      const closing = workers;
      workers = [];
      idle.length = 0;
      const closed = new Error("The database was closed before the read ended");
      for (const job of [...busy.values(), ...waiting.splice(0)]) job.reject(closed);
      busy.clear();
      await Promise.all(closing.map((w) => w.terminate()));
    },
  };
}
