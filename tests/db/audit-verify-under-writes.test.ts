import { spawn } from "node:child_process";
import path from "node:path";
import { sql } from "kysely";
import { expect, it } from "vitest";
import { dropAppendOnly, makeAppendOnly, type MigrationDb } from "~/server/db/migrations/helpers";
import type { DB } from "~/server/db/types.server";
import { audit } from "~/server/services/audit.server";
import { verifyStoredChain, type StoredChainVerdict } from "~/server/services/audit-verify.server";
import { keepWriting, WRITTEN_SURVEY } from "../support/audit-writes";
import { describeEachDialect, openTestDb, type TestDb } from "../support/databases";

/**
 * The verifier's verdict while rows are added (docs/decisions/027-audit-chain.md): each verdict is about one
 * consistent state of a chain, its rows and its head read together, so a whole chain is reported whole however
 * many writers append to it meanwhile, in the verifier's own copy of the server or in other processes (one copy
 * beside the verify command, two copies over one PostgreSQL); a changed row is still reported every time.
 */

/** Verdicts asked per chain in each case. */
const VERDICTS = 40;
const KEYS = [String(WRITTEN_SURVEY), "global"];

interface Writer {
  /** Ends the writes and resolves to how many were made. */
  stop(): Promise<number>;
}

/** The database's file (SQLite) or URL (PostgreSQL), as a process of its own opens it. */
async function whereIs(handle: TestDb): Promise<string[]> {
  if (handle.url) return ["--url", handle.url];
  const { file } = (
    await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(handle.db)
  ).rows[0];
  return ["--sqlite", file];
}

/** A copy of the server writing audit rows in a process of its own (tests/support/audit-writer.ts). */
async function writerProcess(handle: TestDb): Promise<Writer> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "tests/support/audit-writer.ts", ...(await whereIs(handle))],
    {
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let out = "";
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const ended = new Promise<number | null>((resolve) => child.on("close", resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("writing\n")) resolve();
    });
    void ended.then((code) => reject(new Error(`the writer ended (${code}) before writing: ${err}`)));
  });
  return {
    async stop() {
      child.stdin.end();
      const code = await ended;
      if (code !== 0) throw new Error(`the writer failed (${code}): ${err}`);
      return (JSON.parse(out.trim().split("\n").at(-1)!) as { writes: number }).writes;
    },
  };
}

/** A copy writing in this process, beside the verifier. */
async function writerHere(db: DB): Promise<Writer> {
  let stop = false;
  let first!: () => void;
  const started = new Promise<void>((resolve) => (first = resolve));
  const writing = keepWriting(db, () => stop, { written: first });
  await started;
  return {
    stop() {
      stop = true;
      return writing;
    },
  };
}

/**
 * Asks for each chain's verdict again and again while the writers write, then stops them: at least VERDICTS
 * times, and on until the first chain was seen at VERDICTS / 4 + 1 sizes (a slow writer on a busy machine),
 * at most 10 times as often.
 */
async function verdictsUnderWrites(verifier: DB, writers: readonly Writer[], keys = KEYS) {
  const verdicts: StoredChainVerdict[] = [];
  const sizes = new Set<number>();
  let writes = 0;
  try {
    for (let i = 0; i < VERDICTS * 10 && (i < VERDICTS || sizes.size <= VERDICTS / 4); i++) {
      for (const key of keys) verdicts.push(await verifyStoredChain(verifier, key));
      sizes.add(verdicts[verdicts.length - keys.length].rows);
      // A turn of the event loop, so that writes in this process go on between the verdicts.
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    writes = (await Promise.all(writers.map((w) => w.stop()))).reduce((a, b) => a + b, 0);
  }
  return { verdicts, writes };
}

/** Every verdict intact, asked while the chain grew: the survey chain's row count changed between them. */
function expectIntactWhileGrowing(verdicts: readonly StoredChainVerdict[], writes: number) {
  const broken = verdicts.filter((v) => !v.ok);
  expect(broken, `${broken.length} of ${verdicts.length} verdicts broken`).toEqual([]);
  const counts = verdicts.filter((_, i) => i % KEYS.length === 0).map((v) => v.rows);
  expect(writes).toBeGreaterThan(0);
  expect(new Set(counts).size, `survey chain's rows seen: ${counts.join(" ")}`).toBeGreaterThan(VERDICTS / 4);
}

/** Runs `npm run audit:verify -- --all` against the database (as tests/db/audit-chain-migration.test.ts). */
async function verifyCommand(handle: TestDb): Promise<{ code: number | null; out: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "silent" };
  delete env.DATABASE_URL;
  const [flag, where] = await whereIs(handle);
  if (flag === "--url") env.DATABASE_URL = where;
  else env.DATA_DIR = path.dirname(where);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/audit-verify.ts", "--all"], { env });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
  });
}

describeEachDialect("verifying the audit chain while rows are added", (kind) => {
  it("every verdict is intact with the verifier's own copy writing", async () => {
    const handle = await openTestDb(kind);
    try {
      const { verdicts, writes } = await verdictsUnderWrites(handle.db, [await writerHere(handle.db)]);
      expectIntactWhileGrowing(verdicts, writes);
    } finally {
      await handle.cleanup();
    }
  });

  it("every verdict is intact with a copy writing in a process of its own", async () => {
    const handle = await openTestDb(kind);
    try {
      const { verdicts, writes } = await verdictsUnderWrites(handle.db, [await writerProcess(handle)]);
      expectIntactWhileGrowing(verdicts, writes);
    } finally {
      await handle.cleanup();
    }
  });

  it.skipIf(kind !== "postgres")("every verdict is intact with two copies writing over one database", async () => {
    const handle = await openTestDb(kind);
    try {
      const writers = await Promise.all([writerProcess(handle), writerProcess(handle)]);
      const { verdicts, writes } = await verdictsUnderWrites(handle.db, writers);
      expectIntactWhileGrowing(verdicts, writes);
    } finally {
      await handle.cleanup();
    }
  });

  it("the verify command says ok for every chain while a copy writes", async () => {
    const handle = await openTestDb(kind);
    try {
      const writer = await writerProcess(handle);
      const runs: { code: number | null; out: string }[] = [];
      try {
        for (let i = 0; i < 4; i++) runs.push(await verifyCommand(handle));
      } finally {
        expect(await writer.stop()).toBeGreaterThan(0);
      }
      for (const { code, out } of runs) {
        expect(out.trim().split("\n"), out).toEqual([
          expect.stringMatching(/^global: ok, \d+ rows$/),
          expect.stringMatching(new RegExp(`^survey ${WRITTEN_SURVEY}: ok, \\d+ rows$`)),
        ]);
        expect(code).toBe(0);
      }
    } finally {
      await handle.cleanup();
    }
  }, 60_000);

  it("a row changed by hand is reported in every verdict while rows are added", async () => {
    const handle = await openTestDb(kind);
    try {
      const actor = { surveyUserDataId: 1, sub: "idp|erika" };
      for (let i = 0; i < 5; i++) {
        await audit(handle.db, actor, {
          action: "survey.update",
          entity: "survey",
          surveyId: WRITTEN_SURVEY,
          after: { i },
        });
      }
      const victim = (
        await handle.db
          .selectFrom("audit_log")
          .select("id")
          .where("survey_id", "=", WRITTEN_SURVEY)
          .orderBy("id")
          .offset(2)
          .limit(1)
          .executeTakeFirstOrThrow()
      ).id;
      // What an administrator could do: drop the append-only triggers, change a row, put them back.
      await handle.db.transaction().execute(async (trx) => {
        await dropAppendOnly(trx as unknown as MigrationDb, "audit_log");
        await trx.updateTable("audit_log").set({ after: '{"i":9}' }).where("id", "=", victim).execute();
        await makeAppendOnly(trx as unknown as MigrationDb, "audit_log");
      });
      const { verdicts, writes } = await verdictsUnderWrites(
        handle.db,
        [await writerProcess(handle)],
        [String(WRITTEN_SURVEY)],
      );
      expect(writes).toBeGreaterThan(0);
      expect(verdicts.length).toBeGreaterThanOrEqual(VERDICTS);
      for (const verdict of verdicts) {
        expect(verdict).toMatchObject({ ok: false, firstBad: { id: victim, kind: "changed" } });
      }
    } finally {
      await handle.cleanup();
    }
  });
});
