// Load on answer recording: the production server (SQLite, embedded provider) in its own process,
// autocannon on loopback posting single-selection answers that alternate between two options.
// Budget (quality guide): at least 2,000 requests/s with p99 under 50 ms and no errors.
// Usage: npx tsx bench/answer-load.ts   (after npm run build)
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { follow, freePort, newBrowser } from "~/server/idp/test-client.server";
import { SERVER_NODE_ARGS } from "./database";
import { endWithBench } from "./lifetime";

const BUDGET_RPS = 2000;

/** CPU time (user + system) a process has used so far, in seconds (Linux /proc). */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
const BUDGET_P99_MS = 50;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);

const port = await freePort();
const idpPort = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-answers-"));
const app = `http://localhost:${port}`;
const profile = process.env.BENCH_PROFILE ? ["--cpu-prof", "--cpu-prof-dir=/tmp/prof"] : [];
// As `npm start` runs it (SERVER_NODE_ARGS), with BENCH_NODE_ARGS to add to that.
const nodeArgs = [...SERVER_NODE_ARGS, ...(process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean)];
const server = spawn(process.execPath, [...profile, ...nodeArgs, "server/index.js"], {
  env: {
    PATH: process.env.PATH,
    NODE_ENV: "production",
    PORT: String(port),
    IDP_PORT: String(idpPort),
    DATA_DIR: dataDir,
    LOG_LEVEL: "error",
    HOST: "127.0.0.1",
  },
  stdio: ["ignore", "ignore", "inherit"],
});
// Stopped with the bench however it ends (lifetime.ts); the finally below stops it on an ordinary end.
const release = endWithBench(() => {
  server.kill("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

try {
  for (let i = 0; ; i++) {
    if (i > 100) throw new Error("the server did not start");
    if (
      await fetch(`${app}/api/health`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  // Sign in through the provider's login page, as a person would; the app keeps the session cookie.
  const browser = newBrowser();
  await follow(
    browser,
    `${app}/authentication/login?returnTo=%2Fsurveys`,
    `${app}/surveys`,
    () => new URLSearchParams({ username: "admin", password: "admin123" }),
  );
  const cookie = browser.jar.header(`${app}/api/`);
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${app}/api${p}`, {
      method,
      headers: { cookie, origin: app, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? null : res.json();
  };
  const survey = await call("POST", "/surveys", { Title: "Last" });
  const category = await call("POST", "/categories", { SurveyId: survey.Id, Title: "A" });
  const question = await call("POST", "/questions", {
    SurveyId: survey.Id,
    CategoryId: category.Id,
    Title: "Q",
    Type: "SingleSelection",
  });
  const a = await call("POST", "/answer-options", { SurveyId: survey.Id, QuestionId: question.Id, Text: "a" });
  const b = await call("POST", "/answer-options", { SurveyId: survey.Id, QuestionId: question.Id, Text: "b" });
  await call("POST", `/surveys/${survey.Id}/approve`);
  await call("POST", `/patients/add?patientId=LOAD_1&surveyId=${survey.Id}`);

  let n = 0;
  const cpuBefore = cpuSeconds(server.pid!);
  const result = await autocannon({
    url: `${app}/api/question-responses/single-selection`,
    method: "POST",
    connections: 20,
    duration: DURATION_S,
    headers: { cookie, origin: app, "content-type": "application/json" },
    setupClient: (client) => {
      client.setBody(
        JSON.stringify({ PatientId: "LOAD_1", SurveyId: survey.Id, QuestionId: question.Id, AnswerOptionId: a.Id }),
      );
    },
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({
            PatientId: "LOAD_1",
            SurveyId: survey.Id,
            QuestionId: question.Id,
            AnswerOptionId: n++ % 2 ? a.Id : b.Id,
          }),
        }),
      },
    ],
  });
  const cpuPerAnswerUs = ((cpuSeconds(server.pid!) - cpuBefore) / result.requests.total) * 1e6;
  const rps = result.requests.average;
  const p99 = result.latency.p99;
  const errors = result.errors + result.non2xx + result.timeouts;
  const ok = rps >= BUDGET_RPS && p99 < BUDGET_P99_MS && errors === 0;
  console.table([
    {
      figure: "answer recording, requests/s",
      value: rps.toFixed(0),
      budget: `>= ${BUDGET_RPS}`,
      verdict: rps >= BUDGET_RPS ? "within" : "OVER",
    },
    {
      figure: "answer recording, p99 latency",
      value: `${p99} ms`,
      budget: `< ${BUDGET_P99_MS} ms`,
      verdict: p99 < BUDGET_P99_MS ? "within" : "OVER",
    },
    { figure: "errors (incl. non-2xx)", value: String(errors), budget: "0", verdict: errors === 0 ? "within" : "OVER" },
    {
      figure: "server CPU per answer",
      value: `${cpuPerAnswerUs.toFixed(0)} µs`,
      budget: "(for reference)",
      verdict: "",
    },
  ]);
  process.exitCode = ok ? 0 : 1;
} finally {
  release();
  server.kill("SIGTERM");
  await new Promise((resolve) => server.once("exit", resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
