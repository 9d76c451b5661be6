import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "~/server/idp/test-client.server";
import { built, killHard, linesOf, serverEnv, signIn, startHealthy, startServer, type Running } from "./real-server";
import { rawRequest } from "./raw-http";

/** Every line a process of the server writes is one JSON object: operators feed them to a log pipeline. */

function expectLogLines(running: Running) {
  const { json, other } = linesOf(running);
  expect(other).toEqual([]);
  for (const line of json)
    expect(line).toMatchObject({
      time: expect.any(String),
      level: expect.any(String),
      msg: expect.any(String),
      instance: expect.any(String),
    });
  return json;
}

describe("the server's log", () => {
  let server: Running;

  beforeAll(async () => {
    if (!built) throw new Error("These tests run the production build: run `npm run build` first.");
    // No NODE_ENV, as a shell that never set it: the server runs in production mode all the same.
    server = await startHealthy(await serverEnv({ LOG_LEVEL: "debug", INSTANCE_ID: "copy-log", NODE_ENV: "" }));
  }, 90_000);

  afterAll(async () => {
    await killHard(server);
    fs.rmSync(server.env.DATA_DIR, { recursive: true, force: true });
  });

  it("is JSON from start to stop: a sign-in, pages, refusals and a clean stop", async () => {
    const cookie = await signIn(server.url, "editor");
    await fetch(`${server.url}/surveys`, { headers: { cookie } });
    // The pages draw without a warning from React (an effect it cannot run on the server, a missing key).
    for (const page of ["/survey/1/edit", "/survey/1", "/surveys?view=archive"])
      expect((await fetch(`${server.url}${page}`, { headers: { cookie } })).status).toBe(200);
    await fetch(`${server.url}/no-such-page`, { headers: { cookie } });
    await fetch(`${server.url}/api/surveys/999999`, { headers: { cookie } });
    await fetch(`${server.url}/api/surveys`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    const lines = expectLogLines(server);
    expect(lines.map((l) => l.msg)).toEqual(
      expect.arrayContaining(["db.ready", "idp.embedded", "listening", "request", "stopped"]),
    );
    expect(lines.every((l) => l.instance === "copy-log")).toBe(true);
    expect(lines.find((l) => l.msg === "listening")).toMatchObject({ mode: "production" });
    expect(lines.filter((l) => l.msg === "console.error").map((l) => String(l.text).split("\n")[0])).toEqual([]);
  });
});

describe("requests the client gave up", () => {
  let server: Running;
  let cookie: string;

  beforeAll(async () => {
    server = await startHealthy(await serverEnv({ DEMO_DATA: "0", LOG_LEVEL: "info" }));
    cookie = await signIn(server.url, "editor");
  }, 90_000);

  afterAll(async () => {
    await killHard(server);
    fs.rmSync(server.env.DATA_DIR, { recursive: true, force: true });
  });

  /** Sends a request whose body never arrives whole, and goes away. */
  async function abandon(method: string, url: string, headers: Record<string, string>) {
    const socket = net.connect(Number(server.env.PORT), "127.0.0.1");
    await new Promise((r) => socket.once("connect", r));
    const head = rawRequest(method, url, { ...headers, "Content-Length": "5000" }, "");
    socket.write(Buffer.concat([head, Buffer.from("locale=")]));
    await new Promise((r) => setTimeout(r, 300));
    socket.destroy();
    await new Promise((r) => setTimeout(r, 500));
  }

  it("are logged as 499 aborted, not as 5xx failures (API and page)", async () => {
    await abandon("POST", "/api/surveys", { Cookie: cookie, Origin: server.url, "Content-Type": "application/json" });
    await abandon("POST", "/language", {
      Cookie: cookie,
      Origin: server.url,
      "Content-Type": "application/x-www-form-urlencoded",
    });
    const requests = expectLogLines(server).filter((l) => l.msg === "request");
    const api = requests.find((l) => l.path === "/api/surveys");
    const page = requests.find((l) => l.path === "/language");
    expect(api).toMatchObject({ status: 499, aborted: true });
    expect(page).toMatchObject({ status: 499, aborted: true });
    expect(requests.filter((l) => Number(l.status) >= 500)).toEqual([]);
  });
});

describe("a port that is taken", () => {
  async function takenPort() {
    const port = await freePort();
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(port, "0.0.0.0", () => r()));
    return { port, close: () => new Promise((r) => blocker.close(r)) };
  }

  it.each([
    ["IDP_PORT", "the embedded identity provider"],
    ["PORT", "the server"],
  ])("stops the server with a JSON line naming %s", async (setting) => {
    const taken = await takenPort();
    try {
      const env = await serverEnv({ DEMO_DATA: "0", HOST: "0.0.0.0", [setting]: String(taken.port) });
      const running = startServer(env);
      expect(await running.exited).toBe(1);
      const lines = expectLogLines(running);
      const failed = lines.find((l) => l.msg === "start.failed");
      expect(failed?.error).toContain(`${setting}:`);
      expect(failed?.error).toContain(`port ${taken.port}`);
      fs.rmSync(env.DATA_DIR, { recursive: true, force: true });
    } finally {
      await taken.close();
    }
  });

  it("a bad setting is one JSON line too", async () => {
    const env = await serverEnv({ PORT: "not-a-port" });
    const running = startServer(env);
    expect(await running.exited).toBe(1);
    expect(expectLogLines(running).find((l) => l.msg === "start.failed")?.error).toMatch(/PORT/);
  });
});

describe("what libraries and Node print", () => {
  it("becomes JSON lines: console output, a warning, a crash", async () => {
    const script = `
      await import(${JSON.stringify(path.resolve("server/json-lines.js"))});
      console.log("a %s", "notice");
      console.warn("oidc-provider WARNING: Unsupported runtime.");
      console.error(new Error("printed"));
      process.emitWarning("something experimental", "ExperimentalWarning");
      setTimeout(() => { throw new Error("nobody caught this"); }, 50);
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: "pipe" });
    const running: Running = {
      child,
      out: [],
      err: [],
      url: "",
      exited: new Promise((r) => child.on("exit", r)),
      env: {},
    };
    child.stdout.on("data", (d: Buffer) => running.out.push(...d.toString().split("\n").filter(Boolean)));
    child.stderr.on("data", (d: Buffer) => running.err.push(d.toString()));
    expect(await running.exited).toBe(1);
    const lines = expectLogLines(running);
    // stdout and stderr interleave in any order
    expect(lines.map((l) => `${l.level} ${l.msg}`).sort()).toEqual([
      "error console.error",
      "error process.crashed",
      "info console",
      "info console.warning",
      "info node.warning",
    ]);
    expect(lines.find((l) => l.msg === "console.warning")?.text).toBe("oidc-provider WARNING: Unsupported runtime.");
    expect(lines.find((l) => l.msg === "node.warning")).toMatchObject({
      name: "ExperimentalWarning",
      text: "something experimental",
    });
    expect(String(lines.find((l) => l.msg === "process.crashed")?.error)).toContain("nobody caught this");
  });
});
