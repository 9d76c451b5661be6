import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_ANSWER_STANDS_MS } from "~/server/auth/discovery.server";
import { startEmbeddedIdp, type EmbeddedIdp } from "~/server/idp/index.server";
import { freePort } from "~/server/idp/test-client.server";
import { built, killHard, serverEnv, signIn, startHealthy, type Running } from "./real-server";

/**
 * An external identity provider (the embedded one, run on its own in this process and configured through
 * OIDC_ISSUER as a real one would be) that is down: sign-in shows the app's translated error page, in
 * German by default and in English, never a 500 or the browser's connection error; once the provider is
 * back, sign-in works again without restarting the app.
 */

const SECRET = "fault-test-client-secret";
const en = `sv_lng=${encodeURIComponent(Buffer.from(JSON.stringify("en-US")).toString("base64"))}`;

describe("the identity provider unavailable", () => {
  let server: Running;
  let env: Record<string, string>;
  let idp: EmbeddedIdp | undefined;
  let startIdp: () => Promise<EmbeddedIdp>;
  const idpDir = fs.mkdtempSync(path.join(os.tmpdir(), "survey-fault-idp-"));

  beforeAll(async () => {
    if (!built) throw new Error("These tests run the production build: run `npm run build` first.");
    const idpPort = await freePort();
    const issuer = `http://localhost:${idpPort}`;
    env = await serverEnv({ OIDC_ISSUER: issuer, OIDC_CLIENT_SECRET: SECRET, DEMO_DATA: "0" });
    const app = `http://localhost:${env.PORT}`;
    startIdp = () =>
      startEmbeddedIdp({
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
    // The app starts while the provider is down: it does not need it until someone signs in.
    server = await startHealthy(env);
  }, 60_000);

  afterAll(async () => {
    await killHard(server);
    await idp?.close();
    fs.rmSync(env.DATA_DIR, { recursive: true, force: true });
    fs.rmSync(idpDir, { recursive: true, force: true });
  });

  async function expectErrorPage(cookie?: string) {
    const start = await fetch(`${server.url}/authentication/login?returnTo=%2Fsurveys`, {
      redirect: "manual",
      headers: cookie ? { cookie } : {},
    });
    expect(start.status).toBe(302);
    const location = start.headers.get("location")!;
    expect(location).toBe("/authentication/error?reason=idp");
    const page = await fetch(`${server.url}${location}`, { headers: cookie ? { cookie } : {} });
    expect(page.status).toBe(200);
    return page.text();
  }

  it("shows the translated error page while the provider was never reached", async () => {
    const german = await expectErrorPage();
    expect(german).toContain("Der Anmeldedienst ist gerade nicht erreichbar.");
    expect(german).toContain('lang="de');
    const english = await expectErrorPage(en);
    expect(english).toContain("The sign-in service cannot be reached right now.");
    expect(english).not.toMatch(/at [\w.]+ \(|node_modules/);
  }, 30_000);

  it("signs in once the provider is up, without a restart", async () => {
    idp = await startIdp();
    const cookie = await signIn(server.url, "user");
    const me = await fetch(`${server.url}/api/users/current`, { headers: { cookie } });
    expect(me.status).toBe(200);
  }, 30_000);

  it("shows the error page again when the provider goes down after it was used", async () => {
    await idp!.close();
    idp = undefined;
    // The provider's last answer stands for a few seconds (decision 050): the sign-ins that start later see
    // the error page.
    await new Promise((r) => setTimeout(r, PROVIDER_ANSWER_STANDS_MS));
    expect(await expectErrorPage()).toContain("Der Anmeldedienst ist gerade nicht erreichbar.");
    idp = await startIdp();
    expect(await signIn(server.url, "user")).toContain("=");
  }, 30_000);
});
