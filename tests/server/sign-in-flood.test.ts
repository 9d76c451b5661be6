import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_ANSWER_STANDS_MS } from "~/server/auth/discovery.server";
import { startEmbeddedIdp, type EmbeddedIdp } from "~/server/idp/index.server";
import { freePort } from "~/server/idp/test-client.server";
import { built, killHard, serverEnv, signIn, startHealthy, type Running } from "./real-server";

/**
 * Many sign-ins started at once, as at a shift's start: the app keeps the provider's discovery document
 * (decision 050) and asks the provider whether it answers at most once per few seconds, however many starts
 * come. The provider (the embedded one, on its own, as a real one would be) is reached through a proxy that
 * counts what it is asked.
 */

const SECRET = "flood-test-client-secret";
const DISCOVERY = "/.well-known/openid-configuration";

describe("a flood of sign-in starts", () => {
  let server: Running;
  let env: Record<string, string>;
  let idp: EmbeddedIdp;
  let proxy: http.Server;
  let issuer: string;
  const asked: string[] = [];
  const idpDir = fs.mkdtempSync(path.join(os.tmpdir(), "survey-flood-idp-"));

  beforeAll(async () => {
    if (!built) throw new Error("These tests run the production build: run `npm run build` first.");
    const idpPort = await freePort();
    proxy = http.createServer((req, res) => {
      asked.push(req.url ?? "");
      const upstream = http.request(
        { host: "127.0.0.1", port: idpPort, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on("error", () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    issuer = `http://localhost:${(proxy.address() as AddressInfo).port}`;
    env = await serverEnv({ OIDC_ISSUER: issuer, OIDC_CLIENT_SECRET: SECRET, DEMO_DATA: "0" });
    const app = `http://localhost:${env.PORT}`;
    idp = await startEmbeddedIdp({
      issuer,
      port: idpPort,
      portSetting: "IDP_PORT",
      host: "127.0.0.1",
      dataDir: idpDir,
      clientId: "survey-tool",
      clientSecret: SECRET,
      redirectUris: [`${app}/authentication/login-callback`],
      postLogoutRedirectUris: [`${app}/surveys`],
      apiAudience: "survey-api",
      apiScope: "survey_api",
    });
    server = await startHealthy(env);
  }, 60_000);

  afterAll(async () => {
    await killHard(server);
    await idp?.close();
    await new Promise((resolve) => proxy.close(resolve));
    fs.rmSync(env.DATA_DIR, { recursive: true, force: true });
    fs.rmSync(idpDir, { recursive: true, force: true });
  });

  const start = async () => {
    const res = await fetch(`${server.url}/authentication/login?returnTo=%2Fsurveys`, { redirect: "manual" });
    await res.arrayBuffer();
    return { status: res.status, location: res.headers.get("location") ?? "" };
  };

  it("sends every start to the provider, which is asked for its discovery once per few seconds", async () => {
    const began = Date.now();
    const starts = [];
    for (let i = 0; i < 30; i++) starts.push(await start());
    starts.push(...(await Promise.all(Array.from({ length: 60 }, start))));
    const tookMs = Date.now() - began;

    expect(starts.filter((s) => s.status !== 302 || !s.location.startsWith(`${issuer}/`))).toEqual([]);
    const discoveries = asked.filter((url) => url.startsWith(DISCOVERY)).length;
    expect(discoveries).toBeGreaterThanOrEqual(1);
    // One for the document, and at most one more each time the last answer no longer stands.
    expect(discoveries).toBeLessThanOrEqual(1 + Math.ceil(tookMs / PROVIDER_ANSWER_STANDS_MS));
    expect(discoveries).toBeLessThan(starts.length / 10);
  }, 60_000);

  it("signs in with the kept document", async () => {
    const cookie = await signIn(server.url, "user");
    const me = await fetch(`${server.url}/api/users/current`, { headers: { cookie } });
    expect(me.status).toBe(200);
  }, 30_000);
});
