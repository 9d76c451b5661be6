import fs from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { follow, newBrowser } from "~/server/idp/test-client.server";
import { built, caller, killHard, makeSurvey, serverEnv, signIn, startHealthy, type Running } from "./real-server";

/**
 * What an operator meets running the production server behind a proxy: forwarded headers, request ids,
 * liveness and readiness, a stop that drains, and hostile input at the sign-in and the API edge.
 */

const FORWARDED = { "x-forwarded-proto": "https", "x-forwarded-host": "surveys.example" };

/** The server's JSON log lines, from stdout and stderr (errors). */
function logLines(server: Running): Record<string, unknown>[] {
  const lines = [...server.out, ...server.err.join("").split("\n")];
  return lines.flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

/** Signs in through the provider, starting at the login with the given returnTo; answers the callback's answer. */
async function signInReturningTo(app: string, returnTo: string) {
  const browser = newBrowser();
  const { final } = await follow(
    browser,
    `${app}/authentication/login?returnTo=${returnTo}`,
    `${app}/authentication/login-callback`,
    () => new URLSearchParams({ username: "editor", password: "editor123" }),
  );
  return browser.request(final);
}

describe("the server behind a proxy (TRUST_PROXY=1)", () => {
  let server: Running;

  beforeAll(async () => {
    if (!built) throw new Error("These tests run the production build: run `npm run build` first.");
    server = await startHealthy(
      await serverEnv({ DEMO_DATA: "0", TRUST_PROXY: "1", LOG_LEVEL: "info", INSTANCE_ID: "copy-a" }),
    );
  }, 90_000);

  afterAll(async () => {
    await killHard(server);
    fs.rmSync(server.env.DATA_DIR, { recursive: true, force: true });
  });

  it("answers a page form post with its redirect when the proxy reports https, once", async () => {
    const res = await fetch(`${server.url}/language`, {
      method: "POST",
      redirect: "manual",
      headers: { ...FORWARDED, origin: "https://surveys.example", "content-type": "application/x-www-form-urlencoded" },
      body: "locale=en-US&redirectTo=%2Fsurveys",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/surveys");
    expect(res.headers.getSetCookie().join("\n")).toMatch(/; Secure/i);

    const cookie = await signIn(server.url, "editor");
    const listBefore = await (await fetch(`${server.url}/api/surveys`, { headers: { cookie } })).json();
    const create = await fetch(`${server.url}/surveys`, {
      method: "POST",
      redirect: "manual",
      headers: {
        ...FORWARDED,
        cookie,
        origin: "https://surveys.example",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "intent=create",
    });
    expect(create.status).toBe(302);
    expect(create.headers.get("location")).toMatch(/^\/survey\/\d+\/edit#start$/);
    const listAfter = await (await fetch(`${server.url}/api/surveys`, { headers: { cookie } })).json();
    expect(listAfter.Data.length).toBe(listBefore.Data.length + 1);
  });

  it("gives every request an id: the caller's when it sends a plain one, else a new one; logged with the copy", async () => {
    const given = await fetch(`${server.url}/api/health`, { headers: { "x-request-id": "proxy-7f3a.1" } });
    expect(given.headers.get("x-request-id")).toBe("proxy-7f3a.1");
    const made = await fetch(`${server.url}/api/health`);
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const odd = await fetch(`${server.url}/api/health`, { headers: { "x-request-id": "bad id with spaces" } });
    expect(odd.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    await new Promise((r) => setTimeout(r, 100));
    const line = logLines(server).find((l) => l.msg === "request" && l.requestId === "proxy-7f3a.1");
    expect(line).toMatchObject({ instance: "copy-a", path: "/api/health", status: 200 });
  });

  it("logs the address the proxy reports", async () => {
    await fetch(`${server.url}/api/health`, { headers: { "x-forwarded-for": "203.0.113.9", "x-request-id": "ip-1" } });
    await new Promise((r) => setTimeout(r, 100));
    expect(logLines(server).find((l) => l.requestId === "ip-1")?.ip).toBe("203.0.113.9");
  });

  it("answers JSON with a policy of its own, not a page's with an empty nonce", async () => {
    const res = await fetch(`${server.url}/api/health`);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(csp).not.toContain("nonce");
    const page = await fetch(`${server.url}/authentication/error`);
    expect(page.headers.get("content-security-policy")).toMatch(/'nonce-[A-Za-z0-9+/=]{8,}'/);
  });

  it("refuses a deeply nested JSON body with 400 on an authenticated route", async () => {
    const cookie = await signIn(server.url, "editor");
    const body = "[".repeat(8000) + "]".repeat(8000);
    const res = await fetch(`${server.url}/api/surveys`, {
      method: "POST",
      headers: { cookie, origin: server.url, "content-type": "application/json" },
      body,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ Type: "VALIDATION_ERROR" });
    const objects = '{"a":'.repeat(8000) + "1" + "}".repeat(8000);
    const res2 = await fetch(`${server.url}/api/statistics/1`, {
      method: "POST",
      headers: { cookie, origin: server.url, "content-type": "application/json" },
      body: objects,
    });
    expect(res2.status).toBe(400);
  });

  it("never sends a person to another site after sign-in, and never answers 500 for an odd returnTo", async () => {
    for (const returnTo of ["%2F%09%2Fevil.example", "%2F%5Cevil.example", "%2Fx%2F..%2F%2Fevil.example"]) {
      const res = await signInReturningTo(server.url, returnTo);
      expect(res.status, returnTo).toBe(302);
      expect(res.headers.get("location"), returnTo).toBe("/surveys");
    }
    const unicode = await signInReturningTo(server.url, encodeURIComponent("/survey/1/fill/Müller_1"));
    expect(unicode.status).toBe(302);
    expect(unicode.headers.get("location")).toBe("/survey/1/fill/M%C3%BCller_1");
    const crlf = await signInReturningTo(server.url, encodeURIComponent("/surveys\r\nSet-Cookie: x=1"));
    expect(crlf.status).toBe(302);
    expect(crlf.headers.get("location")).toBe("/surveys");

    const language = await fetch(`${server.url}/language`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
      body: "locale=en-US&redirectTo=%2F%09%2Fevil.example",
    });
    expect(language.status).toBe(302);
    expect(language.headers.get("location")).toBe("/surveys");
  });

  it("keeps the sign-in state cookie Secure behind https, and removes it once the sign-in used it", async () => {
    const start = await fetch(`${server.url}/authentication/login?returnTo=%2Fsurveys`, {
      redirect: "manual",
      headers: FORWARDED,
    });
    const state = start.headers.getSetCookie().find((c) => c.startsWith("sv_oauth"));
    expect(state).toMatch(/; Secure/i);
    expect(state).toMatch(/HttpOnly/i);

    const browser = newBrowser();
    const { final } = await follow(
      browser,
      `${server.url}/authentication/login?returnTo=%2Fsurveys`,
      `${server.url}/authentication/login-callback`,
      () => new URLSearchParams({ username: "user", password: "user123" }),
    );
    const stateCookies = () => browser.jar.names().filter((n) => n.startsWith("sv_oauth"));
    expect(stateCookies()).toHaveLength(1);
    const callback = await browser.request(final);
    expect(callback.status).toBe(302);
    const cleared = callback.headers.getSetCookie().find((c) => c.startsWith("sv_oauth"));
    expect(cleared).toMatch(/Max-Age=0/i);
    expect(stateCookies()).toEqual([]);
  });

  it("answers liveness and readiness apart", async () => {
    const live = await fetch(`${server.url}/api/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ Status: "Alive" });
    const ready = await fetch(`${server.url}/api/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ Status: "Ready", Draining: false, Database: true, AttachmentStore: true });
  });

  it("is not ready while its attachment store cannot be written, and ready again once it can", async () => {
    const dir = `${server.env.DATA_DIR}/attachments`;
    fs.mkdirSync(dir, { recursive: true });
    fs.chmodSync(dir, 0o500);
    try {
      // root writes anywhere: a file where the folder should be stands in for a store that refuses.
      if (process.getuid?.() === 0) {
        fs.rmSync(dir, { recursive: true });
        fs.writeFileSync(dir, "not a folder");
      }
      const res = await fetch(`${server.url}/api/health/ready`, { headers: { "x-request-id": "ready-probe-1" } });
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ Status: "NotReady", AttachmentStore: false, Database: true });
      // What the request logged on its way carries its id and the copy's, not only the request line.
      await new Promise((r) => setTimeout(r, 100));
      const line = logLines(server).find((l) => l.msg === "health.not_ready");
      expect(line).toMatchObject({ requestId: "ready-probe-1", instance: "copy-a" });
      expect((await fetch(`${server.url}/api/health/live`)).status).toBe(200);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect((await fetch(`${server.url}/api/health/ready`)).status).toBe(200);
  });
});

describe("the server reached without a proxy (TRUST_PROXY unset)", () => {
  let server: Running;

  beforeAll(async () => {
    server = await startHealthy(await serverEnv({ DEMO_DATA: "0", LOG_LEVEL: "info" }));
  }, 90_000);

  afterAll(async () => {
    await killHard(server);
    fs.rmSync(server.env.DATA_DIR, { recursive: true, force: true });
  });

  it("ignores forwarded headers a client makes up", async () => {
    const res = await fetch(`${server.url}/authentication/login?returnTo=%2Fsurveys`, {
      redirect: "manual",
      headers: { ...FORWARDED, "x-forwarded-for": "198.51.100.1", "x-request-id": "spoof-1" },
    });
    expect(res.status).toBe(302);
    expect(res.headers.getSetCookie().join("\n")).not.toMatch(/Secure/i);
    expect(res.headers.get("strict-transport-security")).toBeNull();
    await new Promise((r) => setTimeout(r, 100));
    const line = logLines(server).find((l) => l.requestId === "spoof-1");
    expect(line?.ip).not.toBe("198.51.100.1");
  });
});

describe("a stop (SIGTERM)", () => {
  it("says not ready while it drains, finishes what it can, and names an upload it had to cut", async () => {
    const server = await startHealthy(
      await serverEnv({ DEMO_DATA: "0", LOG_LEVEL: "info", SHUTDOWN_DELAY_SECONDS: "2" }),
    );
    try {
      const cookie = await signIn(server.url, "admin");
      const call = caller(server.url, cookie);
      const survey = await makeSurvey(call);
      const { PatientDataId } = await call("POST", `/patients/add?patientId=CUT_1&surveyId=${survey.id}`);
      const query = `questionId=${survey.textId}&patientDataId=${PatientDataId}&surveyId=${survey.id}`;
      // An upload whose body never finishes arriving.
      const cut = http.request(`${server.url}/api/file-attachments/upload?${query}`, {
        method: "POST",
        headers: {
          "content-type": "multipart/form-data; boundary=x",
          "content-length": "3000000",
          "x-request-id": "slow-upload-1",
          origin: server.url,
          cookie,
        },
      });
      cut.on("error", () => undefined);
      cut.write("--x\r\n");
      await new Promise((r) => setTimeout(r, 300));
      server.child.kill("SIGTERM");
      await new Promise((r) => setTimeout(r, 500));
      const ready = await fetch(`${server.url}/api/health/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ Status: "NotReady", Draining: true });
      const live = await fetch(`${server.url}/api/health/live`);
      expect(live.status).toBe(200);
      expect(live.headers.get("connection")).toBe("close");
      expect(await server.exited).toBe(0);
      const cutLine = logLines(server).find((l) => l.msg === "request.cut");
      expect(cutLine).toMatchObject({
        method: "POST",
        path: "/api/file-attachments/upload",
        requestId: "slow-upload-1",
      });
      expect(logLines(server).some((l) => l.msg === "stopped")).toBe(true);
    } finally {
      await killHard(server);
      fs.rmSync(server.env.DATA_DIR, { recursive: true, force: true });
    }
  }, 40_000);
});
