// What the statistics and graphs benches share: their size and databases, the analyst they call the
// services as, their table rows and medians, and the database they seed and read: a fresh SQLite file or
// PostgreSQL database per run, migrated, and dropped afterwards (with BENCH_SQLITE_DIR the SQLite file is
// kept for the next run, with BENCH_POSTGRES_KEEP the PostgreSQL database).
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { createDb, type DialectName } from "~/server/db/db.server";
import { migrateToLatest } from "~/server/db/migrate.server";
import type { SurveyCaller } from "~/server/services/surveys.server";

const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
/** SQLite only: a folder whose seeded database is kept after the run and used again by the next one. */
const KEEP_DIR = process.env.BENCH_SQLITE_DIR;
/** PostgreSQL only: a database (by name) whose seed is kept after the run and used again by the next one. */
const KEEP_DATABASE = process.env.BENCH_POSTGRES_KEEP;

/** What `npm start` gives the server's Node (package.json): a young generation of at most 16 MB a semi-space. */
export const SERVER_NODE_ARGS = ["--max-semi-space-size=16"];

/** How many cases the seed makes (BENCH_CASES) and on which databases (BENCH_DIALECTS). */
export const CASES = Number(process.env.BENCH_CASES ?? 100_000);
export const dialects = (process.env.BENCH_DIALECTS ?? "sqlite,postgres").split(",") as DialectName[];

/** The analyst the services are called as: editor and approver, so every survey's statistics are open. */
export const caller: SurveyCaller = {
  surveyUserDataId: 1,
  sub: "bench",
  roles: ["SsiEditor", "SsiApprover"],
  teamIds: [],
  culture: "de-DE",
};

/** One row of a bench's printed table. */
export interface BenchLine {
  figure: string;
  value: string;
  budget: string;
  verdict: string;
}

export type BenchTarget = { kind: "sqlite"; file: string } | { kind: "postgres"; url: string };

/** The median of `runs` timed calls (ms), after one untimed warm-up call. */
export async function median(runs: number, fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

/** A migrated database for one bench run; `keptSurveyId` names the survey a kept SQLite seed already holds. */
export async function openBenchDatabase(kind: DialectName, prefix: string) {
  if (kind === "sqlite") {
    const dataDir = KEEP_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
    fs.mkdirSync(dataDir, { recursive: true });
    const db = createDb({ dataDir });
    await migrateToLatest(db);
    const kept = await db.selectFrom("surveys").select("id").orderBy("id", "desc").executeTakeFirst();
    if (kept) console.log(`${kind}: using the database seeded before (survey ${kept.id})`);
    return {
      db,
      target: { kind, file: path.join(dataDir, "survey.sqlite") } as BenchTarget,
      keptSurveyId: kept?.id ?? null,
      cleanup: async () => {
        await db.destroy();
        if (!KEEP_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = KEEP_DATABASE ?? `${prefix.replace(/\W/g, "_")}_${crypto.randomBytes(4).toString("hex")}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  const exists = async () => {
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    try {
      return (await client.query("select 1 from pg_database where datname = $1", [name])).rowCount === 1;
    } finally {
      await client.end();
    }
  };
  if (!KEEP_DATABASE || !(await exists())) await admin(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const db = createDb({ databaseUrl: url.toString(), dataDir: os.tmpdir() });
  await migrateToLatest(db);
  const kept = KEEP_DATABASE
    ? await db.selectFrom("surveys").select("id").orderBy("id", "desc").executeTakeFirst()
    : undefined;
  if (kept) console.log(`${kind}: using the database seeded before (survey ${kept.id})`);
  return {
    db,
    target: { kind, url: url.toString() } as BenchTarget,
    keptSurveyId: kept?.id ?? null,
    cleanup: async () => {
      await db.destroy();
      if (!KEEP_DATABASE) await admin(`drop database if exists ${name} with (force)`);
    },
  };
}
