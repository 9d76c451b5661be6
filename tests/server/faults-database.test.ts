import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
    expect((await answer()).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  }, 60_000);
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
