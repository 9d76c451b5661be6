import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "~/server/idp/test-client.server";
import { dialects } from "../support/databases";
import {
  built,
  caller,
  createPostgresDatabase,
  fill,
  killHard,
  makeSurvey,
  serverEnv,
  signIn,
  startHealthy,
  type Running,
} from "./real-server";

/**
 * Two copies of the server over one PostgreSQL behind a round-robin proxy, as docs/operations.md describes:
 * one shared SESSION_SECRET, one identity provider (the first copy's embedded one, which the second uses as
 * an external provider). A session made through one copy works on the other; signing out on one takes
 * effect there at once and on the other within the documented 5 s; one sync sent to both applies once.
 */

function roundRobin(targets: number[]) {
  let next = 0;
  return http.createServer((req, res) => {
    const port = targets[next++ % targets.length];
    const upstream = http.request(
      { host: "127.0.0.1", port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
}

describe.skipIf(!dialects.includes("postgres"))("two copies behind a proxy", () => {
  let a: Running;
  let b: Running;
  let proxy: http.Server;
  let app: string;
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;

  beforeAll(async () => {
    if (!built) throw new Error("These tests run the production build: run `npm run build` first.");
    database = await createPostgresDatabase();
    const proxyPort = await freePort();
    app = `http://localhost:${proxyPort}`;
    const shared = { DATABASE_URL: database.url, SESSION_SECRET: "shared-secret-0123456789", PUBLIC_URL: app };
    const envA = await serverEnv({ ...shared, DEMO_DATA: "0" });
    a = await startHealthy(envA);
    const envB = await serverEnv({
      ...shared,
      DEMO_DATA: "0",
      OIDC_ISSUER: `http://localhost:${envA.IDP_PORT}`,
      OIDC_CLIENT_SECRET: fs.readFileSync(path.join(envA.DATA_DIR, "idp-client-secret"), "utf8").trim(),
    });
    b = await startHealthy(envB);
    proxy = roundRobin([Number(envA.PORT), Number(envB.PORT)]);
    await new Promise<void>((resolve) => proxy.listen(proxyPort, "127.0.0.1", resolve));
  }, 90_000);

  afterAll(async () => {
    proxy?.close();
    await killHard(a);
    await killHard(b);
    await database.drop();
    for (const s of [a, b]) fs.rmSync(s.env.DATA_DIR, { recursive: true, force: true });
  });

  const current = (base: string, cookie: string) =>
    fetch(`${base}/api/users/current`, { headers: { cookie } }).then((r) => r.status);

  it("shares the session between the copies", async () => {
    const cookie = await signIn(app, "admin");
    expect(await current(a.url, cookie)).toBe(200);
    expect(await current(b.url, cookie)).toBe(200);
    // A write made through one copy is seen by the other.
    const survey = await makeSurvey(caller(a.url, cookie, app));
    const read = await fetch(`${b.url}/api/surveys/${survey.id}`, { headers: { cookie } });
    expect(read.status).toBe(200);
  }, 60_000);

  it("shows on a page one copy kept a change made through the other at once", async () => {
    const cookie = await signIn(app, "admin");
    const survey = await caller(b.url, cookie, app)("POST", "/surveys", { Title: "Kept by copy A" });
    const list = async () => {
      const res = await fetch(`${a.url}/surveys`, { headers: { cookie } });
      expect(res.status).toBe(200);
      return { html: await res.text(), how: res.headers.get("server-timing") };
    };
    await list();
    expect((await list()).how).toBe('page;desc="kept"');
    await caller(b.url, cookie, app)("PUT", `/surveys/${survey.Id}`, { Title: "Renamed through copy B" });
    const after = await list();
    expect(after.how).toBe('page;desc="rendered"');
    expect(after.html).toContain("Renamed through copy B");
    expect(after.html).not.toContain("Kept by copy A");
  }, 60_000);

  it("signs out on one copy at once, and on the other within 5 s", async () => {
    const cookie = await signIn(app, "user");
    expect(await current(a.url, cookie)).toBe(200);
    expect(await current(b.url, cookie)).toBe(200);
    const out = await fetch(`${a.url}/authentication/logout`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, origin: app, "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(out.status).toBeLessThan(400);
    expect(await current(a.url, cookie)).toBe(401);
    await new Promise((r) => setTimeout(r, 5_500));
    expect(await current(b.url, cookie)).toBe(401);
  }, 60_000);

  it("applies one sync sent to both copies once", async () => {
    const admin = await signIn(app, "admin");
    const survey = await makeSurvey(caller(app, admin));
    const user = await signIn(app, "user");
    const body = JSON.stringify(fill(survey, "TWICE_1", 1));
    const send = (base: string) =>
      fetch(`${base}/api/survey-offline-sync/${survey.id}`, {
        method: "POST",
        headers: { cookie: user, origin: app, "content-type": "application/json", "idempotency-key": "both-copies-1" },
        body,
      });
    const answers = await Promise.all([send(a.url), send(b.url), send(app), send(app)]);
    const texts = await Promise.all(answers.map((r) => r.clone().text()));
    expect(
      answers.map((r) => r.status),
      texts.join(" | "),
    ).toEqual([200, 200, 200, 200]);
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as unknown[];
    for (const other of bodies.slice(1)) expect(other).toEqual(bodies[0]);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const cases = await client.query("select id from patient_data where survey_id = $1 and patient_id = 'TWICE_1'", [
        survey.id,
      ]);
      expect(cases.rowCount).toBe(1);
      const answersRows = await client.query("select id from question_responses where patient_data_id = $1", [
        cases.rows[0].id,
      ]);
      expect(answersRows.rowCount).toBe(2);
    } finally {
      await client.end();
    }
  }, 60_000);
});
