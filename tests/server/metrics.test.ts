import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { form, pdf } from "../api/fill-files";
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
  type Call,
  type Running,
  type Survey,
} from "./real-server";

/**
 * GET /api/metrics as Prometheus scrapes it from a copy over PostgreSQL: refused without its token, and each
 * number moves when the work it counts is done.
 */

const TOKEN = "metrics-token-0123456789";

/** One scrape: each sample's value by its name and labels as written ("name{a=\"b\"}"). */
async function scrape(url: string): Promise<Map<string, number>> {
  const res = await fetch(`${url}/api/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/plain");
  const samples = new Map<string, number>();
  for (const line of (await res.text()).split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

const value = (samples: Map<string, number>, name: string) => samples.get(name) ?? 0;

describe("the metrics of a copy over PostgreSQL", () => {
  let server: Running;
  let drop: () => Promise<unknown>;
  let call: Call;
  let cookie: string;
  let survey: Survey;

  beforeAll(async () => {
    if (!built) throw new Error("These tests run the production build: run `npm run build` first.");
    const database = await createPostgresDatabase();
    drop = database.drop;
    // Tokens of 5 s: a page a few seconds after sign-in renews the session.
    server = await startHealthy(
      await serverEnv({
        DATABASE_URL: database.url,
        DEMO_DATA: "0",
        METRICS_TOKEN: TOKEN,
        IDP_ACCESS_TOKEN_TTL_SECONDS: "5",
        ATTACHMENT_STORE: "file",
      }),
    );
    cookie = await signIn(server.url, "admin");
    call = caller(server.url, cookie);
    survey = await makeSurvey(call);
  }, 90_000);

  afterAll(async () => {
    await killHard(server);
    await drop();
    fs.rmSync(server.env.DATA_DIR, { recursive: true, force: true });
  });

  it("refuses a scrape without the token, or with another", async () => {
    const none = await fetch(`${server.url}/api/metrics`);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ Type: "UNAUTHORIZED", Error: expect.any(String) });
    const wrong = await fetch(`${server.url}/api/metrics`, {
      headers: { authorization: "Bearer metrics-token-9876543210" },
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain("survey_http_requests_total");
  });

  it("counts requests by route template, method and status, with their latency", async () => {
    const health = 'survey_http_requests_total{route="/api/health",method="GET",status="200"}';
    const fillPage = 'survey_http_requests_total{route="/survey/:surveyId/fill/:patientId",method="GET",status="302"}';
    const missing = 'survey_http_requests_total{route="/api/surveys/:id",method="GET",status="404"}';
    const before = await scrape(server.url);
    for (let i = 0; i < 3; i++) await fetch(`${server.url}/api/health`);
    await fetch(`${server.url}/survey/${survey.id}/fill/P-${Date.now()}`, { redirect: "manual" });
    await fetch(`${server.url}/api/surveys/987654`, { headers: { cookie } });
    const after = await scrape(server.url);
    expect(value(after, health) - value(before, health)).toBe(3);
    expect(value(after, fillPage) - value(before, fillPage)).toBe(1);
    expect(value(after, missing) - value(before, missing)).toBe(1);
    const count = 'survey_http_request_duration_seconds_count{route="/api/health",method="GET"}';
    expect(value(after, count) - value(before, count)).toBe(3);
    // Paths people make up do not become labels of their own.
    await fetch(`${server.url}/made/up/${Date.now()}`);
    expect([...(await scrape(server.url)).keys()].some((k) => k.includes("/made/up"))).toBe(false);
  });

  it("counts answers, syncs by outcome, statistics and exports", async () => {
    const before = await scrape(server.url);
    const patient = `M_${Date.now()}`;
    await call("POST", `/patients/add?patientId=${patient}&surveyId=${survey.id}`);
    const answer = { PatientId: patient, SurveyId: survey.id, QuestionId: survey.textId };
    await call("POST", "/question-responses/free-text", { ...answer, TextResponse: "one" });
    await call("POST", "/question-responses/free-text", { ...answer, TextResponse: "one" });
    await call("DELETE", "/question-responses/question", answer);
    const key = { "idempotency-key": `sync-${patient}` };
    await call("POST", `/survey-offline-sync/${survey.id}`, fill(survey, `${patient}_offline`, 1), key);
    await call("POST", `/survey-offline-sync/${survey.id}`, fill(survey, `${patient}_offline`, 1), key);
    const clash = await fetch(`${server.url}/api/survey-offline-sync/${survey.id}`, {
      method: "POST",
      headers: { cookie, origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ ...fill(survey, patient, 2), Close: false }),
    });
    expect(clash.status).toBe(409);
    await call("POST", `/statistics/${survey.id}`, {});
    const exported = await fetch(`${server.url}/api/statistics/${survey.id}/csv`, {
      method: "POST",
      headers: { cookie, origin: server.url, "content-type": "application/json" },
      body: "{}",
    });
    await exported.arrayBuffer();
    const after = await scrape(server.url);
    const moved = (name: string) => value(after, name) - value(before, name);
    expect(moved('survey_answers_recorded_total{change="saved"}')).toBe(1);
    expect(moved('survey_answers_recorded_total{change="unchanged"}')).toBe(1);
    expect(moved('survey_answers_recorded_total{change="removed"}')).toBe(1);
    expect(moved('survey_offline_syncs_total{outcome="applied"}')).toBe(1);
    expect(moved('survey_offline_syncs_total{outcome="replayed"}')).toBe(1);
    expect(moved('survey_offline_syncs_total{outcome="clash"}')).toBe(1);
    expect(moved("survey_statistics_duration_seconds_count")).toBe(1);
    expect(moved('survey_export_duration_seconds_count{result="complete"}')).toBe(1);
  });

  it("shows the database pool, the process and the event loop", async () => {
    const samples = await scrape(server.url);
    expect(samples.get('survey_db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(1);
    expect(samples.has('survey_db_pool_connections{state="in_use"}')).toBe(true);
    expect(samples.has('survey_db_pool_connections{state="waiting"}')).toBe(true);
    expect(samples.get("process_resident_memory_bytes")).toBeGreaterThan(10_000_000);
    expect(samples.has("nodejs_eventloop_lag_p99_seconds")).toBe(true);
    expect(samples.has("nodejs_heap_size_used_bytes")).toBe(true);
  });

  it("counts the attachment store's failures and session renewals", async () => {
    const before = await scrape(server.url);
    const patient = `F_${Date.now()}`;
    const started = await call("POST", `/patients/add?patientId=${patient}&surveyId=${survey.id}`);
    // root writes anywhere: a file where the folder should be stands in for a store that refuses.
    const dir = `${server.env.DATA_DIR}/attachments`;
    fs.rmSync(dir, { recursive: true, force: true });
    fs.writeFileSync(dir, "not a folder");
    try {
      const upload = await fetch(
        `${server.url}/api/file-attachments/upload?questionId=${survey.textId}&patientDataId=${started.PatientDataId}&surveyId=${survey.id}`,
        { method: "POST", headers: { cookie, origin: server.url }, body: form(["befund.pdf", pdf()]) },
      );
      expect(upload.status).toBe(503);
    } finally {
      fs.rmSync(dir, { force: true });
    }
    // The access token (5 s) is due for renewal: the next page renews it.
    await new Promise((r) => setTimeout(r, 5_000));
    expect((await fetch(`${server.url}/surveys`, { headers: { cookie } })).status).toBe(200);
    const after = await scrape(server.url);
    expect(value(after, 'survey_attachment_store_errors_total{store="file",operation="put"}')).toBeGreaterThan(
      value(before, 'survey_attachment_store_errors_total{store="file",operation="put"}'),
    );
    expect(value(after, 'survey_session_renewals_total{result="renewed"}')).toBeGreaterThan(
      value(before, 'survey_session_renewals_total{result="renewed"}'),
    );
  }, 30_000);
});

describe("metrics without their setting", () => {
  it("are off: 404, whatever the token", async () => {
    const server = await startHealthy(await serverEnv({ DEMO_DATA: "0" }));
    try {
      const res = await fetch(`${server.url}/api/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ Type: "NOT_FOUND", Error: expect.any(String) });
    } finally {
      await killHard(server);
      fs.rmSync(server.env.DATA_DIR, { recursive: true, force: true });
    }
  }, 60_000);
});
