// Load on offline sync: the production server (SQLite, embedded provider) in its own process, autocannon on
// loopback posting offline fills, each a distinct fill of 20 answers with its own patient id and
// Idempotency-Key. Budget (quality guide): sync moves at least 200 fills/s over loopback, with no errors.
// The machine is shared and noisy, so a baseline from the same run is printed beside it: single-answer
// writes (as bench/answer-load.ts makes them) on the same server right after.
// Usage: npx tsx bench/sync-load.ts   (after npm run build)
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { follow, freePort, newBrowser } from "~/server/idp/test-client.server";
import { SERVER_NODE_ARGS } from "./database";
import { endWithBench } from "./lifetime";

const BUDGET_FILLS = 200;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const BASELINE_S = Math.max(2, Math.round(DURATION_S / 3));

const port = await freePort();
const idpPort = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-sync-"));
const app = `http://localhost:${port}`;
const profile = process.env.BENCH_PROFILE ? ["--cpu-prof", "--cpu-prof-dir=/tmp/prof-sync"] : [];
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

/** Signs in through the provider's login page, as a person would; returns the session cookie. */
async function signIn(username: string, password: string) {
  const browser = newBrowser();
  await follow(
    browser,
    `${app}/authentication/login?returnTo=%2Fsurveys`,
    `${app}/surveys`,
    () => new URLSearchParams({ username, password }),
  );
  return browser.jar.header(`${app}/api/`);
}

function caller(cookie: string) {
  return async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${app}/api${p}`, {
      method,
      headers: { cookie, origin: app, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? null : res.json();
  };
}

type Answer = Record<string, unknown> & { QuestionId: number };

/** A survey of 20 questions of every kind but image; returns its id, hash and how to answer fill n. */
async function makeSurvey(call: ReturnType<typeof caller>) {
  const survey = await call("POST", "/surveys", { Title: "Sync load" });
  const category = await call("POST", "/categories", { SurveyId: survey.Id, Title: "A" });
  const kinds = [
    ...Array<string>(8).fill("SingleSelection"),
    ...Array<string>(4).fill("MultipleSelection"),
    ...Array<string>(4).fill("FreeText"),
    ...Array<string>(2).fill("Numerical"),
    ...Array<string>(2).fill("DateTime"),
  ];
  const answerers: ((n: number) => Answer)[] = [];
  for (const [i, Type] of kinds.entries()) {
    const q = await call("POST", "/questions", { SurveyId: survey.Id, CategoryId: category.Id, Title: `Q${i}`, Type });
    const options: number[] = [];
    if (Type.endsWith("Selection")) {
      for (const Text of ["a", "b", "c"]) {
        options.push((await call("POST", "/answer-options", { SurveyId: survey.Id, QuestionId: q.Id, Text })).Id);
      }
    }
    answerers.push((n) => {
      if (Type === "SingleSelection") return { QuestionId: q.Id, AnswerOptionId: options[n % 3] };
      if (Type === "MultipleSelection") return { QuestionId: q.Id, AnswerOptionIds: [options[n % 3], options[2]] };
      if (Type === "FreeText") return { QuestionId: q.Id, TextResponse: `Befund ${n}, Frage ${i}` };
      if (Type === "Numerical") return { QuestionId: q.Id, NumericalResponse: (n % 1000) / 10 };
      return { QuestionId: q.Id, DateTimeResponse: `${String((n % 28) + 1).padStart(2, "0")}.03.2026 10:30` };
    });
  }
  await call("POST", `/surveys/${survey.Id}/approve`);
  const { Hash } = await call("GET", `/surveys/${survey.Id}`);
  return {
    id: survey.Id as number,
    hash: Hash as string,
    answers: (n: number) => answerers.map((a) => a(n)),
  };
}

try {
  for (let i = 0; ; i++) {
    if (i > 100) throw new Error("the server did not start");
    const up = await fetch(`${app}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (up) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const survey = await makeSurvey(caller(await signIn("admin", "admin123")));
  const cookie = await signIn("user", "user123");
  const run = Date.now().toString(36);
  const fill = (n: number) => ({
    headers: { cookie, origin: app, "content-type": "application/json", "idempotency-key": `bench-${run}-${n}` },
    body: JSON.stringify({
      PatientId: `SYNC_${run}_${n}`,
      SurveyHash: survey.hash,
      Overwrite: false,
      Close: n % 2 === 0,
      QuestionAnswers: survey.answers(n),
      PreliminaryQuestionAnswers: [],
    }),
  });

  let n = 0;
  const result = await autocannon({
    url: `${app}/api/survey-offline-sync/${survey.id}`,
    method: "POST",
    connections: 10,
    duration: DURATION_S,
    requests: [{ setupRequest: (req) => ({ ...req, ...fill(n++) }) }],
  });
  // Baseline, after the sync load so that both run warm: one answer per request to one case.
  await caller(cookie)("POST", `/patients/add?patientId=BASE_${run}&surveyId=${survey.id}`);
  let b = 0;
  const baseline = await autocannon({
    url: `${app}/api/question-responses/single-selection`,
    method: "POST",
    connections: 10,
    duration: BASELINE_S,
    headers: { cookie, origin: app, "content-type": "application/json" },
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ PatientId: `BASE_${run}`, SurveyId: survey.id, ...survey.answers(b++)[0] }),
        }),
      },
    ],
  });

  // One fill read back: all 20 answers arrived.
  const check = await caller(cookie)("GET", `/question-responses?surveyId=${survey.id}&patientId=SYNC_${run}_1`);
  const fills = result.requests.average;
  const p99 = result.latency.p99;
  const errors = result.errors + result.non2xx + result.timeouts + (check.length === 20 ? 0 : 1);
  const ok = fills >= BUDGET_FILLS && errors === 0;
  console.table([
    {
      figure: "sync, fills/s (20 answers each)",
      value: fills.toFixed(0),
      budget: `>= ${BUDGET_FILLS}`,
      verdict: fills >= BUDGET_FILLS ? "within" : "OVER",
    },
    { figure: "sync, p99 latency", value: `${p99} ms`, budget: "(reported)", verdict: "-" },
    {
      figure: "baseline, single answers/s (same run)",
      value: baseline.requests.average.toFixed(0),
      budget: "(reported)",
      verdict: "-",
    },
    {
      figure: "fills/s per single answer/s",
      value: (fills / baseline.requests.average).toFixed(3),
      budget: "(reported)",
      verdict: "-",
    },
    { figure: "errors (incl. non-2xx)", value: String(errors), budget: "0", verdict: errors === 0 ? "within" : "OVER" },
  ]);
  process.exitCode = ok ? 0 : 1;
} finally {
  release();
  // The server writes its state while it stops: remove its folder only after it has exited.
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
  fs.rmSync(dataDir, { recursive: true, force: true });
}
