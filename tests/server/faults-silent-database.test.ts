import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, POSTGRES_ADMIN_URL } from "../support/databases";
import {
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
import { silentProxy, type SilentProxy } from "./silent-proxy";

/**
 * PostgreSQL falling silent under a running server: its connections stay open but nothing comes back, and
 * new ones are taken but never answered (a network dropping packets, a hung host). The API answers 503 with
 * the error envelope within a few seconds instead of waiting for TCP to give up, reads and writes alike, and
 * serves again once the database answers, unrestarted.
 */

/** What "a few seconds" holds to: the silence noticed (2 s), a probe that gets no answer (3 s), and slack. */
const FEW_SECONDS_MS = 8_000;

async function timed(request: () => Promise<Response>) {
  const began = Date.now();
  const res = await request();
  const body = (await res.json().catch(() => null)) as unknown;
  return { status: res.status, body, ms: Date.now() - began };
}

describe.skipIf(!dialects.includes("postgres"))("PostgreSQL falling silent", () => {
  let server: Running;
  let env: Record<string, string>;
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let proxy: SilentProxy;

  beforeAll(async () => {
    if (!built) throw new Error("These tests run the production build: run `npm run build` first.");
    database = await createPostgresDatabase();
    const target = new URL(POSTGRES_ADMIN_URL);
    proxy = await silentProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const url = new URL(database.url);
    url.host = `127.0.0.1:${proxy.port}`;
    env = await serverEnv({ DATABASE_URL: url.toString(), DEMO_DATA: "0" });
    server = await startHealthy(env);
  }, 60_000);

  afterAll(async () => {
    await killHard(server);
    await proxy.close();
    await database.drop();
    fs.rmSync(env.DATA_DIR, { recursive: true, force: true });
  });

  it("answers 503 within a few seconds while it is silent, and serves again once it answers", async () => {
    const cookie = await signIn(server.url, "admin");
    const call = caller(server.url, cookie);
    const survey = await makeSurvey(call);
    const headers = { cookie, origin: server.url, "content-type": "application/json" };
    const read = () =>
      fetch(`${server.url}/api/surveys/${survey.id}`, { headers, signal: AbortSignal.timeout(30_000) });
    const write = (patientId: string) =>
      fetch(`${server.url}/api/patients/add?patientId=${patientId}&surveyId=${survey.id}`, {
        method: "POST",
        headers,
        signal: AbortSignal.timeout(30_000),
      });
    expect((await read()).status).toBe(200);

    proxy.silence();
    const envelope = { Type: "SERVICE_UNAVAILABLE", Error: expect.any(String) };
    const [reading, writing] = await Promise.all([timed(read), timed(() => write("SILENT_1"))]);
    expect(reading).toMatchObject({ status: 503, body: envelope });
    expect(writing).toMatchObject({ status: 503, body: envelope });
    expect(reading.ms).toBeLessThan(FEW_SECONDS_MS);
    expect(writing.ms).toBeLessThan(FEW_SECONDS_MS);
    // Later requests too, on connections made while it is silent.
    const again = await timed(read);
    expect(again).toMatchObject({ status: 503, body: envelope });
    expect(again.ms).toBeLessThan(FEW_SECONDS_MS);
    const health = await timed(() => fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(30_000) }));
    expect(health).toMatchObject({ status: 503, body: envelope });
    expect(health.ms).toBeLessThan(FEW_SECONDS_MS);

    proxy.speak();
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await fetch(`${server.url}/api/health`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
    expect((await read()).status).toBe(200);
    expect((await write("SILENT_2")).status).toBe(201);
    expect(server.child.exitCode).toBeNull();
  }, 90_000);
});
