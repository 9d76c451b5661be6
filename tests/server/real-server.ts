import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { follow, freePort, newBrowser } from "~/server/idp/test-client.server";
import { POSTGRES_ADMIN_URL } from "../support/databases";

/**
 * The production server (server/index.js, after `npm run build`) as a child process on free ports, signed in
 * to through the identity provider's login page as a person would be. For the fault and scale tests.
 */

export const serverFile = path.resolve("server/index.js");
export const built = fs.existsSync(path.resolve("build/server/index.js"));

export interface Running {
  child: ChildProcess;
  out: string[];
  err: string[];
  url: string;
  exited: Promise<number | null>;
  env: Record<string, string>;
}

/** Starts server/index.js with the given environment (PORT is required); does not wait for it. */
export function startServer(env: Record<string, string>): Running {
  const child = spawn(process.execPath, [serverFile], {
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", HOST: "127.0.0.1", LOG_LEVEL: "error", ...env },
    stdio: "pipe",
  });
  const out: string[] = [];
  const err: string[] = [];
  child.stdout!.on("data", (d: Buffer) => out.push(...d.toString().split("\n").filter(Boolean)));
  child.stderr!.on("data", (d: Buffer) => err.push(d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, out, err, url: `http://localhost:${env.PORT}`, exited, env };
}

/** Every line the server wrote (stdout, then stderr), each parsed as JSON where it is; `other` lists those that are not. */
export function linesOf(running: Running): { json: Record<string, unknown>[]; other: string[] } {
  const json: Record<string, unknown>[] = [];
  const other: string[] = [];
  for (const line of [...running.out, ...running.err.join("").split("\n")]) {
    if (!line) continue;
    try {
      const parsed: unknown = JSON.parse(line);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) json.push(parsed as Record<string, unknown>);
      else other.push(line);
    } catch {
      other.push(line);
    }
  }
  return { json, other };
}

/** Waits until the server answers on its port (any status: a server whose database is down says 503). */
export async function waitForListening(url: string, healthy = true) {
  for (let i = 0; i < 600; i++) {
    try {
      const res = await fetch(`${url}/api/health`);
      if (!healthy || res.ok) return;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server at ${url} did not start`);
}

/** Starts the server and waits for /api/health. */
export async function startHealthy(env: Record<string, string>): Promise<Running> {
  const running = startServer(env);
  const failed = running.exited.then((code) => {
    throw new Error(`the server exited with ${code}: ${running.err.join("")}`);
  });
  await Promise.race([waitForListening(running.url), failed]);
  void failed.catch(() => undefined);
  return running;
}

/** Kills the process at once (SIGKILL) and waits for it to be gone. */
export async function killHard(running: Running) {
  if (running.child.exitCode === null && running.child.signalCode === null) running.child.kill("SIGKILL");
  await running.exited;
}

/** Fresh ports and a data folder for one server. */
export async function serverEnv(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  return {
    PORT: String(await freePort()),
    IDP_PORT: String(await freePort()),
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "survey-fault-")),
    ...extra,
  };
}

/** Signs in through the provider's login page; returns the cookie header for the app's API. */
export async function signIn(app: string, username: string, password = `${username}123`): Promise<string> {
  const browser = newBrowser();
  await follow(
    browser,
    `${app}/authentication/login?returnTo=%2Fsurveys`,
    `${app}/surveys`,
    () => new URLSearchParams({ username, password }),
  );
  const cookie = browser.jar.header(`${app}/api/`);
  if (!cookie.includes("=")) throw new Error(`sign-in of ${username} at ${app} gave no session`);
  return cookie;
}

export type Call = <T = any>(method: string, p: string, body?: unknown, headers?: Record<string, string>) => Promise<T>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Calls the API with a session cookie, as the app's pages do (same origin); throws on a non-2xx. */
export function caller(app: string, cookie: string, origin = app): Call {
  return async (method, p, body, headers = {}) => {
    const res = await fetch(`${app}/api${p}`, {
      method,
      headers: { cookie, origin, "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? null : res.json();
  };
}

/** A published survey of one single-selection and one free-text question (which takes attachments). */
export async function makeSurvey(call: Call) {
  const survey = await call("POST", "/surveys", { Title: "Faults" });
  const category = await call("POST", "/categories", { SurveyId: survey.Id, Title: "A" });
  const single = await call("POST", "/questions", {
    SurveyId: survey.Id,
    CategoryId: category.Id,
    Title: "Q1",
    Type: "SingleSelection",
  });
  const text = await call("POST", "/questions", {
    SurveyId: survey.Id,
    CategoryId: category.Id,
    Title: "Q2",
    Type: "FreeText",
    AllowFileAttachments: true,
  });
  const a = await call("POST", "/answer-options", { SurveyId: survey.Id, QuestionId: single.Id, Text: "a" });
  await call("POST", `/surveys/${survey.Id}/approve`);
  const { Hash } = await call("GET", `/surveys/${survey.Id}`);
  return {
    id: survey.Id as number,
    hash: Hash as string,
    singleId: single.Id as number,
    optionId: a.Id as number,
    textId: text.Id as number,
  };
}
export type Survey = Awaited<ReturnType<typeof makeSurvey>>;

/** An offline fill of the survey for a patient id: both questions answered. */
export function fill(survey: Survey, patientId: string, n: number) {
  return {
    PatientId: patientId,
    SurveyHash: survey.hash,
    Overwrite: false,
    Close: true,
    QuestionAnswers: [
      { QuestionId: survey.singleId, AnswerOptionId: survey.optionId },
      { QuestionId: survey.textId, TextResponse: `fill ${n}` },
    ],
    PreliminaryQuestionAnswers: [],
  };
}

/** A PostgreSQL database of its own for a test, with its URL; drop() removes it (and its connections). */
export async function createPostgresDatabase() {
  const name = `survey_fault_${Date.now().toString(36)}_${crypto.randomBytes(3).toString("hex")}`;
  await adminQuery(`create database "${name}"`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => adminQuery(`drop database if exists "${name}" with (force)`),
  };
}

export async function adminQuery<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]) {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}
