import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DB } from "~/server/db/db.server";
import { dialects } from "../support/databases";
import {
  adminQuery,
  built,
  caller,
  createPostgresDatabase,
  killHard,
  makeSurvey,
  serverEnv,
  signIn,
  startHealthy,
  type Running,
} from "./real-server";

/**
 * The database going away under a running server: the API answers 503 with the error envelope (never a
 * 500 or a hang), /api/health says so, and the server serves again once the database is back, unrestarted.
 */

async function expectUnavailable(res: Response) {
  expect(res.status).toBe(503);
  expect(await res.json()).toEqual({ Type: "SERVICE_UNAVAILABLE", Error: expect.any(String) });
}

describe.skipIf(!dialects.includes("postgres"))("PostgreSQL refusing connections", () => {
  let server: Running;
  let env: Record<string, string>;
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;

  beforeAll(async () => {
    if (!built) throw new Error("These tests run the production build: run `npm run build` first.");
    database = await createPostgresDatabase();
    env = await serverEnv({ DATABASE_URL: database.url, DEMO_DATA: "0" });
    server = await startHealthy(env);
  }, 60_000);

  afterAll(async () => {
    await killHard(server);
    await adminQuery(`alter database "${database.name}" allow_connections true`).catch(() => undefined);
    await database.drop();
    fs.rmSync(env.DATA_DIR, { recursive: true, force: true });
  });

  it("answers 503 while its connections are cut, and recovers without a restart", async () => {
    const cookie = await signIn(server.url, "admin");
    const call = caller(server.url, cookie);
    const survey = await makeSurvey(call);
    await call("POST", `/patients/add?patientId=DB_1&surveyId=${survey.id}`);

    // Cut every connection and refuse new ones, as a database restarting or failing over does.
    await adminQuery(`alter database "${database.name}" allow_connections false`);
    await adminQuery(
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
      [database.name],
    );
    await expectUnavailable(await fetch(`${server.url}/api/health`));
    const ready = await fetch(`${server.url}/api/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ Status: "NotReady", Database: false });
    expect((await fetch(`${server.url}/api/health/live`)).status).toBe(200);
    // Past the credential cache, so that the session itself must be read from the database.
    await new Promise((r) => setTimeout(r, 5_500));
    const answer = () =>
      fetch(`${server.url}/api/question-responses/single-selection`, {
        method: "POST",
        headers: { cookie, origin: server.url, "content-type": "application/json" },
        body: JSON.stringify({
          PatientId: "DB_1",
          SurveyId: survey.id,
          QuestionId: survey.singleId,
          AnswerOptionId: survey.optionId,
        }),
      });
    await expectUnavailable(await answer());
    await expectUnavailable(await fetch(`${server.url}/api/surveys/${survey.id}`, { headers: { cookie } }));

    await adminQuery(`alter database "${database.name}" allow_connections true`);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/health/ready`)).status).toBe(200);
    expect((await answer()).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  }, 60_000);
});

describe.skipIf(!dialects.includes("postgres"))("PostgreSQL connections dropped under load", () => {
  let server: Running;
  let env: Record<string, string>;
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let db: DB;

  beforeAll(async () => {
    if (!built) throw new Error("These tests run the production build: run `npm run build` first.");
    database = await createPostgresDatabase();
    env = await serverEnv({ DATABASE_URL: database.url, DEMO_DATA: "0" });
    server = await startHealthy(env);
    db = createDb({ databaseUrl: database.url, dataDir: env.DATA_DIR });
  }, 60_000);

  afterAll(async () => {
    await killHard(server);
    await db?.destroy();
    await database.drop();
    fs.rmSync(env.DATA_DIR, { recursive: true, force: true });
  });

  it("answers 503 while they drop, stays up, recovers by itself and keeps every acknowledged write", async () => {
    const cookie = await signIn(server.url, "admin");
    const call = caller(server.url, cookie);
    const survey = await makeSurvey(call);
    const PATIENTS = 40;
    for (let i = 0; i < PATIENTS; i++) await call("POST", `/patients/add?patientId=T_${i}&surveyId=${survey.id}`);

    const acknowledged = new Map<number, string>();
    const refusals: { status: number; body: string }[] = [];
    let sent = 0;
    let running = true;
    const lane = async (lane: number) => {
      for (let n = 0; running; n++) {
        const i = (lane * 7 + n) % PATIENTS;
        const text = `lane ${lane} write ${n}`;
        sent++;
        const res = await fetch(`${server.url}/api/question-responses/free-text`, {
          method: "POST",
          headers: { cookie, origin: server.url, "content-type": "application/json" },
          body: JSON.stringify({
            PatientId: `T_${i}`,
            SurveyId: survey.id,
            QuestionId: survey.textId,
            TextResponse: text,
          }),
        });
        const body = await res.text();
        if (res.ok) acknowledged.set(i, text);
        else refusals.push({ status: res.status, body });
      }
    };
    // Each patient gets its writes from one lane only, so the last acknowledged write is the stored one.
    const lanes = Array.from({ length: 8 }, (_, l) => lane(l));
    const terminate = () =>
      adminQuery(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
        [database.name],
      );
    await new Promise((r) => setTimeout(r, 500));
    for (let k = 0; k < 5; k++) {
      await terminate();
      await new Promise((r) => setTimeout(r, 150));
    }
    await new Promise((r) => setTimeout(r, 1000));
    // A real load, however busy the machine: the lanes go on until they sent more than 100 writes.
    for (const until = Date.now() + 20_000; sent <= 100 && Date.now() < until;)
      await new Promise((r) => setTimeout(r, 100));
    running = false;
    await Promise.all(lanes);

    expect(server.child.exitCode).toBeNull();
    expect(sent).toBeGreaterThan(100);
    // The drops met writes in flight: some were refused, and each refusal said why.
    expect(refusals.length).toBeGreaterThan(0);
    for (const refusal of refusals) {
      expect(refusal.status).toBe(503);
      expect(JSON.parse(refusal.body)).toEqual({ Type: "SERVICE_UNAVAILABLE", Error: expect.any(String) });
    }
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    const rows = await db
      .selectFrom("question_responses as r")
      .innerJoin("patient_data as pd", "pd.id", "r.patient_data_id")
      .select(["pd.patient_id", "r.text_response"])
      .where("r.question_id", "=", survey.textId)
      .execute();
    const stored = new Map(rows.map((r) => [r.patient_id, r.text_response]));
    // A lane may have sent a later write whose answer was a 503 but which was stored: the stored text is
    // then that lane's later one. What was acknowledged is never missing or older.
    for (const [i, text] of acknowledged) {
      const got = stored.get(`T_${i}`);
      expect(got, `patient T_${i}`).toBeDefined();
      const [, lane, , n] = text.split(" ");
      const [, gotLane, , gotN] = got!.split(" ");
      expect(gotLane).toBe(lane);
      expect(Number(gotN)).toBeGreaterThanOrEqual(Number(n));
    }
  }, 90_000);
});

describe.skipIf(!dialects.includes("postgres"))("PostgreSQL not listening at start", () => {
  it("starts no server on a database that is not there, with a message naming it", async () => {
    const env = await serverEnv({ DATABASE_URL: "postgres://postgres@127.0.0.1:1/none", DEMO_DATA: "0" });
    const { startServer } = await import("./real-server");
    const server = startServer(env);
    expect(await server.exited).toBe(1);
    expect(server.err.join("")).toMatch(/ECONNREFUSED|connect/i);
    fs.rmSync(env.DATA_DIR, { recursive: true, force: true });
  }, 30_000);
});

describe("the SQLite file locked by another process", () => {
  let server: Running;
  let env: Record<string, string>;

  beforeAll(async () => {
    env = await serverEnv({ DEMO_DATA: "0" });
    server = await startHealthy(env);
  }, 60_000);

  afterAll(async () => {
    await killHard(server);
    fs.rmSync(env.DATA_DIR, { recursive: true, force: true });
  });

  it("answers a write 503 after the busy timeout, and takes writes again once the lock is gone", async () => {
    const cookie = await signIn(server.url, "admin");
    const call = caller(server.url, cookie);
    const survey = await makeSurvey(call);
    await call("POST", `/patients/add?patientId=LOCK_1&surveyId=${survey.id}`);
    const SQLite = (await import("better-sqlite3")).default;
    const other = new SQLite(`${env.DATA_DIR}/survey.sqlite`);
    other.pragma("busy_timeout = 100");
    other.exec("begin immediate");
    const answer = () =>
      fetch(`${server.url}/api/question-responses/free-text`, {
        method: "POST",
        headers: { cookie, origin: server.url, "content-type": "application/json" },
        body: JSON.stringify({
          PatientId: "LOCK_1",
          SurveyId: survey.id,
          QuestionId: survey.textId,
          TextResponse: "x",
        }),
      });
    try {
      await expectUnavailable(await answer());
    } finally {
      other.exec("rollback");
      other.close();
    }
    expect((await answer()).status).toBe(200);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  }, 60_000);
});
