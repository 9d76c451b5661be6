import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

// A bench that fails or is stopped must not leave its server on its port nor its browser running (issue 47: a
// failed Lighthouse bench left its server behind). The bench here is a real one's start: the production
// server signed in to, and the tests' Chromium.
const built = fs.existsSync(path.resolve("build/server/index.js"));

interface Started {
  app: string;
  server: number;
  browser: number;
}

function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const answers = (app: string) =>
  fetch(`${app}/api/health`, { signal: AbortSignal.timeout(2000) }).then(
    () => true,
    () => false,
  );

/** Runs tests/bench/dying-bench.ts; resolves with what it started once it has ended, and its exit. */
async function runDying(how: "throw" | "event" | "wait") {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/bench/dying-bench.ts", how], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const started = await new Promise<Started>((resolve, reject) => {
    child.stdout.on("data", () => {
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve(JSON.parse(line) as Started);
    });
    void exited.then(() => reject(new Error(`the bench ended before it started: ${err}`)));
  });
  // Running, before its end: the check below is not passed by a server that never answered.
  expect(await answers(started.app)).toBe(true);
  if (how === "wait") child.kill("SIGTERM");
  else child.stdin.write("go\n");
  return { started, exit: await exited };
}

/** Waits up to 15 s (a server stops its work before it exits) for the port to close and the processes to end. */
async function expectAllStopped({ app, server, browser }: Started) {
  for (let i = 0; i < 150 && ((await answers(app)) || alive(server) || alive(browser)); i++)
    await new Promise((r) => setTimeout(r, 100));
  expect({ answers: await answers(app), server: alive(server), browser: alive(browser) }).toEqual({
    answers: false,
    server: false,
    browser: false,
  });
}

// A start takes up to half a minute on a loaded machine, the stop up to 15 s.
describe("a bench's server and browser end with the bench", { timeout: 90_000 }, () => {
  beforeAll(() => {
    if (!built) throw new Error("These tests run the production build: run `npm run build` first.");
  });

  it("when an error escapes it", async () => {
    const { started, exit } = await runDying("throw");
    expect(exit.code).not.toBe(0);
    await expectAllStopped(started);
  });

  it("when an 'error' event no one listens to ends it", async () => {
    const { started, exit } = await runDying("event");
    expect(exit.code).not.toBe(0);
    await expectAllStopped(started);
  });

  it("when a signal stops it", async () => {
    const { started, exit } = await runDying("wait");
    expect(exit.code).toBe(128 + 15);
    await expectAllStopped(started);
  });
});
