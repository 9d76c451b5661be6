// better-sqlite3 13 against Node's built-in node:sqlite, on the Node running this (docs/decisions/034):
// the answer write's shape (a small transaction of an insert and an update, 20,000 times) and the statistics'
// raw GROUP BY over a seeded survey (BENCH_SQLITE_DIR from `bench/statistics-load.ts`, 100,000 cases x 50).
// Each figure is the median of 5 runs after a warm-up; the two drivers alternate, so load on the machine
// falls on both alike.
// Usage: BENCH_SQLITE_DIR=/tmp/bench-sqlite npx tsx bench/sqlite-drivers.ts
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";

interface Driver {
  name: string;
  open(
    file: string,
    readonly?: boolean,
  ): {
    exec(sql: string): void;
    run(sql: string): (...params: (number | string)[]) => void;
    all(sql: string): (...params: (number | string)[]) => unknown[];
    close(): void;
  };
}

const betterSqlite: Driver = {
  name: `better-sqlite3 ${(await import("better-sqlite3/package.json", { with: { type: "json" } })).default.version}`,
  open(file, readonly = false) {
    const db = new SQLite(file, { readonly });
    return {
      exec: (sql) => void db.exec(sql),
      run: (sql) => {
        const statement = db.prepare(sql);
        return (...params) => void statement.run(...params);
      },
      all: (sql) => {
        const statement = db.prepare(sql);
        return (...params) => statement.all(...params);
      },
      close: () => db.close(),
    };
  },
};

const { DatabaseSync } = await import("node:sqlite");
const nodeSqlite: Driver = {
  name: `node:sqlite (SQLite ${new DatabaseSync(":memory:").prepare("select sqlite_version() as v").get()?.v})`,
  open(file, readonly = false) {
    const db = new DatabaseSync(file, { readOnly: readonly });
    return {
      exec: (sql) => db.exec(sql),
      run: (sql) => {
        const statement = db.prepare(sql);
        return (...params) => void statement.run(...params);
      },
      all: (sql) => {
        const statement = db.prepare(sql);
        return (...params) => statement.all(...params);
      },
      close: () => db.close(),
    };
  },
};

const WRITES = 20_000;

function writes(driver: Driver, dir: string): number {
  const file = path.join(dir, `${driver.name.split(" ")[0]!.replace(/\W/g, "")}-${Date.now()}.sqlite`);
  const db = driver.open(file);
  db.exec("pragma journal_mode = wal; pragma synchronous = normal");
  db.exec("create table cases (id integer primary key, updated_at text)");
  db.exec(
    "create table answers (case_id integer, question_id integer, option_id integer, text text, primary key (case_id, question_id))",
  );
  db.exec(
    "with recursive n(i) as (select 1 union all select i + 1 from n where i < 1000) insert into cases (id, updated_at) select i, '' from n",
  );
  const insert = db.run("insert or replace into answers (case_id, question_id, option_id, text) values (?, ?, ?, ?)");
  const touch = db.run("update cases set updated_at = ? where id = ?");
  const begin = db.run("begin immediate");
  const commit = db.run("commit");
  const started = performance.now();
  for (let i = 0; i < WRITES; i++) {
    begin();
    insert(i % 1000, i % 50, i % 7, `answer ${i}`);
    touch(new Date().toISOString(), i % 1000);
    commit();
  }
  const ms = performance.now() - started;
  db.close();
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
  return (ms * 1000) / WRITES;
}

function groupBy(driver: Driver, file: string): number {
  const db = driver.open(file, true);
  const query = db.all(
    "select question_id, answer_option_id, count(*) from question_responses where survey_id = ? group by 1, 2",
  );
  const surveyId = Number(
    (
      db.all("select survey_id from question_responses group by survey_id order by count(*) desc limit 1")() as {
        survey_id: number;
      }[]
    )[0]!.survey_id,
  );
  const started = performance.now();
  query(surveyId);
  const ms = performance.now() - started;
  db.close();
  return ms;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlite-drivers-"));
const seeded = process.env.BENCH_SQLITE_DIR ? path.join(process.env.BENCH_SQLITE_DIR, "survey.sqlite") : undefined;
const drivers = [betterSqlite, nodeSqlite];
const results = new Map(drivers.map((d) => [d.name, { writes: [] as number[], groupBy: [] as number[] }]));
for (let run = 0; run < 6; run++) {
  for (const driver of run % 2 ? [...drivers].reverse() : drivers) {
    const write = writes(driver, dir);
    const scan = seeded && fs.existsSync(seeded) ? groupBy(driver, seeded) : NaN;
    // The first round warms the file cache and the code; it is not counted.
    if (run === 0) continue;
    results.get(driver.name)!.writes.push(write);
    results.get(driver.name)!.groupBy.push(scan);
  }
}
fs.rmSync(dir, { recursive: true, force: true });
console.log(`Node ${process.version}, ${WRITES} write transactions per run, median of 5 runs`);
console.table(
  [...results].map(([name, r]) => ({
    driver: name,
    "µs per write transaction": median(r.writes).toFixed(1),
    "raw GROUP BY of 100,000 cases (ms)": Number.isNaN(median(r.groupBy)) ? "(no seed)" : median(r.groupBy).toFixed(0),
  })),
);
