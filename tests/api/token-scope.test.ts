import http from "node:http";
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantsScope } from "~/server/auth/claims.server";
import { newBrowser } from "~/server/idp/test-client.server";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { startApi, type ApiHarness } from "../support/api";

/**
 * The API takes a token for its audience only when it grants the API's scope, where the provider puts scopes in
 * its tokens (OIDC_API_SCOPE). A foreign provider is stood in for by an issuer of its own here: discovery and
 * a key set on loopback, tokens signed with its key.
 */

async function foreignIssuer() {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  const server = http.createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    if (req.url === "/.well-known/openid-configuration") {
      res.end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
        }),
      );
    } else if (req.url === "/jwks") res.end(JSON.stringify({ keys: [jwk] }));
    else res.writeHead(404).end("{}");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const token = (sub: string, claims: JWTPayload) =>
    new SignJWT({ roles: ["SsiUser", "SsiEditor"], name: sub, ...claims })
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .setIssuer(issuer)
      .setAudience("survey-api")
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);
  return { issuer, token, close: () => new Promise((r) => server.close(r)) };
}

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe("the API's scope in access tokens", () => {
  let foreign: Awaited<ReturnType<typeof foreignIssuer>>;
  let api: ApiHarness;

  beforeAll(async () => {
    foreign = await foreignIssuer();
    api = await startApi("sqlite", { idp, env: { OIDC_ISSUER: foreign.issuer, OIDC_CLIENT_SECRET: "x".repeat(16) } });
  });
  afterAll(async () => {
    await api.close();
    await foreign.close();
  });

  const asCaller = async (sub: string, claims: JWTPayload) =>
    (await api.call("GET", "/users/current", { token: await foreign.token(sub, claims) })).status;

  it("refuses a token for the audience that names its scopes without the API's, and records nobody", async () => {
    expect(await asCaller("no-scope-person", { scope: "openid profile" })).toBe(401);
    expect(await asCaller("no-scope-person", { scp: ["openid", "profile"] })).toBe(401);
    const users = await api.ctx.db.selectFrom("users").select("id").where("sub", "=", "no-scope-person").execute();
    expect(users).toEqual([]);
    const trail = await api.ctx.db
      .selectFrom("audit_log")
      .select("id")
      .where("actor_sub", "=", "no-scope-person")
      .execute();
    expect(trail).toEqual([]);
  });

  it("takes a token that grants the scope, or a provider's token that names no scopes at all", async () => {
    expect(await asCaller("scoped-person", { scope: "openid survey_api profile" })).toBe(200);
    expect(await asCaller("unscoped-provider-person", {})).toBe(200);
  });
});

describe("grantsScope", () => {
  it("reads `scope` and Entra's `scp`, and Entra's short name of a full scope", () => {
    expect(grantsScope({ scope: "openid survey_api" }, "survey_api")).toBe(true);
    expect(grantsScope({ scope: "openid" }, "survey_api")).toBe(false);
    expect(grantsScope({ scp: "access" }, "api://survey-api/access")).toBe(true);
    expect(grantsScope({ scp: ["read", "access"] }, "api://survey-api/access")).toBe(true);
    expect(grantsScope({ scp: "other" }, "api://survey-api/access")).toBe(false);
    expect(grantsScope({ scope: "" }, "survey_api")).toBe(false);
    expect(grantsScope({}, "survey_api")).toBe(true);
  });
});

describe("the embedded provider", () => {
  it("issues no token for the API without the API's scope", async () => {
    await expect(
      idp.signIn(newBrowser(), "editor", { scope: "openid profile", resource: "urn:survey-api" }),
    ).rejects.toThrow(/invalid_target/);
    const granted = await idp.signIn(newBrowser(), "editor");
    expect((await idp.verifyAccessToken(granted.access_token)).scope).toContain("survey_api");
  });
});
