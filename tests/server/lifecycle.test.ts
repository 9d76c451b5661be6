import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "~/server/idp/test-client.server";

const serverFile = path.resolve("server/index.js");
const built = fs.existsSync(path.resolve("build/server/index.js"));

interface Running {
  child: ChildProcess;
  out: string[];
  err: string[];
  url: string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>): Running {
  const child = spawn(process.execPath, [serverFile], {
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", ...env },
    stdio: "pipe",
  });
  const out: string[] = [];
  const err: string[] = [];
  child.stdout!.on("data", (d: Buffer) => out.push(...d.toString().split("\n").filter(Boolean)));
  child.stderr!.on("data", (d: Buffer) => err.push(d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, out, err, url: `http://127.0.0.1:${env.PORT}`, exited };
}

async function waitForHealth(url: string) {
  // Up to 60 s: on a loaded machine the embedded provider's worker alone can take 10 s to start.
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the server did not start");
}

describe("the production server", () => {
  let server: Running;
  let dataDir: string;

  beforeAll(async () => {
    if (!built) throw new Error("These tests run the production build: run `npm run build` first.");
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "survey-server-"));
    server = start({
      PORT: String(await freePort()),
      IDP_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      HOST: "127.0.0.1",
      TRUST_PROXY: "1",
    });
    await waitForHealth(server.url);
  }, 90_000);

  afterAll(() => {
    server.child.kill("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("writes one JSON log line per request", async () => {
    await fetch(`${server.url}/api/health?probe=log`);
    await new Promise((r) => setTimeout(r, 100));
    const lines = server.out.map((l) => JSON.parse(l) as Record<string, unknown>);
    const line = lines.find((l) => l.msg === "request" && l.path === "/api/health");
    expect(line).toMatchObject({ method: "GET", status: 200, level: "info" });
    expect(typeof line!.ms).toBe("number");
  });

  it("sends security headers", async () => {
    const res = await fetch(`${server.url}/authentication/error`);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    // The browser keeps no copy of a page: Back after a sign-out asks the server again.
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    const html = await res.text();
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    expect(html).toContain(`nonce="${nonce}"`);
  });

  it("serves every script a page preloads compressed and cached for good, without page policies", async () => {
    const html = await (await fetch(`${server.url}/authentication/error`)).text();
    // The preloads are held until the page has painted (decision 059): their element names them all the same.
    const scripts = [...html.matchAll(/<link (?:rel="modulepreload"|data-held-preload="") href="([^"]+)"/g)].map(
      (m) => m[1],
    );
    expect(html).not.toMatch(/<link rel="modulepreload"/);
    expect(scripts.some((s) => /\/assets\/manifest-[\w-]+\.js$/.test(s))).toBe(true);
    for (const script of scripts) {
      const res = await fetch(`${server.url}${script}`, { headers: { "accept-encoding": "br, gzip" } });
      expect(res.status, script).toBe(200);
      // Files under 1 KB are sent as they are: compressing them saves next to nothing.
      const size = (await res.arrayBuffer()).byteLength;
      if (res.headers.get("content-encoding") !== "br") expect(size, script).toBeLessThan(1024);
      expect(res.headers.get("cache-control"), script).toContain("immutable");
      expect(res.headers.get("x-content-type-options"), script).toBe("nosniff");
      expect(res.headers.get("content-security-policy"), script).toBeNull();
    }
  });

  it("sends a page gzipped in one piece to a browser that takes gzip, and plain to one that does not", async () => {
    const zipped = await fetch(`${server.url}/authentication/error`, { headers: { "accept-encoding": "gzip" } });
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("vary")).toContain("Accept-Encoding");
    expect(zipped.headers.get("content-security-policy")).toContain("nonce-");
    const plain = await fetch(`${server.url}/authentication/error`, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    const text = await plain.text();
    expect(Number(plain.headers.get("content-length"))).toBe(Buffer.byteLength(text));
    // fetch unzips: both carry the same page (but for the nonce, new on each request).
    const unnonced = (html: string) => html.replace(/nonce="[^"]+"/g, 'nonce=""').replace(/nonce-[^']+/g, "");
    expect(unnonced(await zipped.text())).toBe(unnonced(text));
    expect(text).toContain("</html>");
  });

  it("preloads the page's own language file, one of the two", async () => {
    const html = await (await fetch(`${server.url}/authentication/error`)).text();
    const files = [...html.matchAll(/<link rel="preload" href="([^"]+\.json)" as="fetch"/g)].map((m) => m[1]);
    expect(files).toHaveLength(1);
    const table = (await (await fetch(`${server.url}${files[0]}`)).json()) as { app?: { name?: string } };
    expect(table.app?.name).toBeTruthy();
  });

  it("answers a script that is not in the build with a plain 404, not a page", async () => {
    const res = await fetch(`${server.url}/assets/entry.client-gone.js`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("text/plain");
  });

  it("honours X-Forwarded-Proto and X-Forwarded-Host behind a proxy: cookies become Secure", async () => {
    const res = await fetch(`${server.url}/authentication/login?returnTo=%2Fsurveys`, {
      redirect: "manual",
      headers: { "x-forwarded-proto": "https", "x-forwarded-host": "surveys.example" },
    });
    expect(res.status).toBe(302);
    const cookies = res.headers.getSetCookie();
    const returnTo = cookies.find((c) => c.startsWith("sv_return_to="));
    expect(returnTo).toMatch(/;\s*Secure/i);
    expect(res.headers.get("strict-transport-security")).toContain("max-age");
    const plain = await fetch(`${server.url}/authentication/login?returnTo=%2Fsurveys`, { redirect: "manual" });
    expect(plain.headers.getSetCookie().find((c) => c.startsWith("sv_return_to="))).not.toMatch(/Secure/i);
  });

  it("refuses a JSON body declared over the path's limit with 413 before it has arrived", async () => {
    // 2 MB declared for a path that takes 1 MB; only a few bytes are ever sent.
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${server.url}/api/users/current/culture?culture=de-DE`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": "2000000" },
      });
      const timer = setTimeout(() => {
        req.destroy();
        reject(new Error("no answer while the body was still missing"));
      }, 3000);
      req.on("response", (res) => {
        clearTimeout(timer);
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on("error", () => undefined);
      req.write('{"pad":"');
    });
    expect(status).toBe(413);
  });

  it("drains and exits cleanly on SIGTERM", async () => {
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(server.out.some((l) => l.includes('"msg":"stopped"'))).toBe(true);
  });
});

describe("a bad configuration", () => {
  it("stops the server with a message naming the variable", async () => {
    const server = start({ PORT: "not-a-port", DATA_DIR: os.tmpdir() });
    expect(await server.exited).toBe(1);
    expect(server.err.join("")).toMatch(/PORT/);
  });

  it("a time zone the server does not know stops it, naming CLINIC_TIME_ZONE", async () => {
    const port = String(await freePort());
    const server = start({ PORT: port, CLINIC_TIME_ZONE: "Europe/Gotham", DATA_DIR: os.tmpdir() });
    expect(await server.exited).toBe(1);
    expect(server.err.join("")).toMatch(/CLINIC_TIME_ZONE: must be an IANA time zone name such as Europe\/Berlin/);
  });
});
