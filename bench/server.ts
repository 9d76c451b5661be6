// The production server for a bench: its own process, ports and data folder, with a person signed in
// through the embedded provider's login page.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { follow, freePort, newBrowser } from "~/server/idp/test-client.server";
import { SERVER_NODE_ARGS } from "./database";
import { endWithBench } from "./lifetime";

export interface BenchServer {
  app: string;
  process: ChildProcess;
  /** The session cookie of the signed-in person, for /api and the pages. */
  cookie: string;
  stop(): Promise<void>;
}

export async function startBenchServer(
  who = { username: "admin", password: "admin123" },
  env: Record<string, string> = {},
): Promise<BenchServer> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-server-"));
  const app = `http://localhost:${port}`;
  // BENCH_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", to see what the server spends a request on;
  // BENCH_SERVER_OUT=1 shows the server's standard output (e.g. with "--trace-gc").
  const nodeArgs = [...SERVER_NODE_ARGS, ...(process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean)];
  const child = spawn(process.execPath, [...nodeArgs, "server/index.js"], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      PORT: String(port),
      IDP_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      LOG_LEVEL: "error",
      HOST: "127.0.0.1",
      ...env,
    },
    stdio: ["ignore", process.env.BENCH_SERVER_OUT ? "inherit" : "ignore", "inherit"],
  });
  // A bench that dies or is stopped before its own stop() takes its server with it (lifetime.ts).
  const release = endWithBench(() => {
    child.kill("SIGTERM");
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const stop = async () => {
    release();
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    if (child.exitCode === null && child.signalCode === null) await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // Up to 60 s: on a loaded machine the provider's worker alone takes seconds to start.
    for (let i = 0; ; i++) {
      if (i > 600) throw new Error("the server did not start");
      const up = await fetch(`${app}/api/health`)
        .then((r) => r.ok)
        .catch(() => false);
      if (up) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const browser = newBrowser();
    await follow(
      browser,
      `${app}/authentication/login?returnTo=%2Fsurveys`,
      `${app}/surveys`,
      () => new URLSearchParams(who),
    );
    return { app, process: child, cookie: browser.jar.header(`${app}/`), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
