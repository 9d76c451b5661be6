import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRemoteJWKSet, decodeJwt, jwtVerify, type JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoAccounts, startEmbeddedIdp, type EmbeddedIdp } from "./index.server";
import { follow, formField, freePort, newBrowser, pkcePair, type Browser } from "./test-client.server";

const APP = "http://localhost:3000";
const REDIRECT_URI = `${APP}/authentication/login-callback`;
const LOGOUT_URI = `${APP}/authentication/logout-callback`;
const CLIENT_ID = "survey-tool";
const CLIENT_SECRET = "test-secret-0123456789";
const AUDIENCE = "survey-api";
const API_SCOPE = "survey_api";

let dataDir: string;
let port: number;
let issuer: string;
let idp: EmbeddedIdp;

function start() {
  return startEmbeddedIdp({
    issuer,
    port,
    host: "127.0.0.1",
    dataDir,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUris: [REDIRECT_URI],
    postLogoutRedirectUris: [LOGOUT_URI],
    apiAudience: AUDIENCE,
    apiScope: API_SCOPE,
  });
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "idp-test-"));
  port = await freePort();
  issuer = `http://127.0.0.1:${port}`;
  idp = await start();
});

afterAll(async () => {
  await idp?.close();
  await rm(dataDir, { recursive: true, force: true });
});

interface Tokens {
  access_token: string;
  id_token: string;
  refresh_token?: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

const basic = () => `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`;

async function tokenRequest(params: Record<string, string>): Promise<Response> {
  return fetch(`${issuer}/token`, {
    method: "POST",
    headers: { authorization: basic(), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(params),
  });
}

function authorizeUrl(challenge: string, extra: Record<string, string> = {}) {
  const url = new URL(`${issuer}/auth`);
  url.search = new URLSearchParams({
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    response_type: "code",
    scope: `openid profile offline_access ${API_SCOPE}`,
    state: "state-123",
    nonce: "nonce-123",
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...extra,
  }).toString();
  return url.href;
}

const credentials = (username: string, password: string) => () => new URLSearchParams({ username, password });

/** Signs in (if the browser has no session yet) and exchanges the code for tokens. */
async function signIn(browser: Browser, username?: string, extra: Record<string, string> = {}): Promise<Tokens> {
  const { verifier, challenge } = pkcePair();
  const account = demoAccounts.find((a) => a.username === username);
  const { final, page } = await follow(
    browser,
    authorizeUrl(challenge, extra),
    REDIRECT_URI,
    account ? credentials(account.username, account.password) : () => undefined,
  );
  if (page) throw new Error(`stopped at ${page.url} (${page.status}): ${page.html.slice(0, 400)}`);
  const callback = new URL(final);
  expect(callback.searchParams.get("state")).toBe("state-123");
  const code = callback.searchParams.get("code");
  expect(code, callback.search).toBeTruthy();
  const response = await tokenRequest({
    grant_type: "authorization_code",
    code: code!,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
  });
  const body = (await response.json()) as Tokens;
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body;
}

async function verifyAccessToken(token: string): Promise<JWTPayload & Record<string, unknown>> {
  const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
  const { payload, protectedHeader } = await jwtVerify(token, jwks, { issuer, audience: AUDIENCE });
  expect(protectedHeader.alg).toBe("RS256");
  return payload as JWTPayload & Record<string, unknown>;
}

describe("embedded identity provider", () => {
  it("publishes discovery metadata and a persisted RS256 key set", async () => {
    const meta = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(meta.issuer).toBe(issuer);
    expect(meta.code_challenge_methods_supported).toEqual(["S256"]);
    expect(meta.end_session_endpoint).toBe(`${issuer}/session/end`);
    expect(meta.revocation_endpoint).toBeTruthy();
    expect(meta.introspection_endpoint).toBeTruthy();
    expect(meta.scopes_supported).toEqual(expect.arrayContaining(["openid", "profile", "offline_access"]));
    expect(meta.claims_supported).toEqual(expect.arrayContaining(["roles", "teams", "institute", "tos_accepted"]));
    const jwks = (await (await fetch(String(meta.jwks_uri))).json()) as { keys: Array<Record<string, string>> };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig" });
    expect(jwks.keys[0]).not.toHaveProperty("d");
    const stored = JSON.parse(await readFile(path.join(dataDir, "idp-jwks.json"), "utf8"));
    expect(stored.keys[0].kid).toBe(jwks.keys[0]!.kid);
  });

  it("signs in with code + PKCE and issues a verifiable JWT access token with the person's claims", async () => {
    const browser = newBrowser();
    const tokens = await signIn(browser, "editor");
    expect(tokens.token_type).toBe("Bearer");
    expect(tokens.expires_in).toBeLessThanOrEqual(300);
    expect(tokens.scope.split(" ")).toEqual(expect.arrayContaining([API_SCOPE]));
    expect(browser.jar.names().every((n) => n.startsWith("idp_"))).toBe(true);

    const claims = await verifyAccessToken(tokens.access_token);
    expect(claims).toMatchObject({
      sub: "editor",
      client_id: CLIENT_ID,
      scope: API_SCOPE,
      name: "Dr. Anna Schneider",
      institute: "Universitätsklinikum Musterstadt, Kardiologie",
      roles: ["SsiUser", "SsiEditor"],
      teams: ["Studienzentrum"],
      tos_accepted: true,
      locale: "de-DE",
    });

    const idToken = decodeJwt(tokens.id_token);
    expect(idToken).toMatchObject({ aud: CLIENT_ID, nonce: "nonce-123", name: "Dr. Anna Schneider" });
    expect(idToken.roles).toEqual(["SsiUser", "SsiEditor"]);
    expect(idToken.teams).toEqual(["Studienzentrum"]);
  });

  it("issues a refresh token that renews the access token", async () => {
    const tokens = await signIn(newBrowser(), "approver");
    expect(tokens.refresh_token).toBeTruthy();
    const response = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token! });
    const renewed = (await response.json()) as Tokens;
    expect(response.status, JSON.stringify(renewed)).toBe(200);
    expect(renewed.access_token).not.toBe(tokens.access_token);
    const claims = await verifyAccessToken(renewed.access_token);
    expect(claims.roles).toEqual(["SsiUser", "SsiApprover"]);
    expect(renewed.id_token).toBeTruthy();
  });

  it("serves the same claims from userinfo to a token without the API scope", async () => {
    const browser = newBrowser();
    await signIn(browser, "admin");
    const tokens = await signIn(browser, undefined, { scope: "openid profile" });
    const response = await fetch(`${issuer}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      sub: "admin",
      name: "Julia Hoffmann",
      roles: ["SsiUser", "SsiEditor", "SsiApprover"],
      teams: ["Studienzentrum", "Station 3A"],
      tos_accepted: true,
    });
  });

  it("shows a German sign-in page by default and an English one for ui_locales=en-US", async () => {
    const german = await follow(newBrowser(), authorizeUrl(pkcePair().challenge), REDIRECT_URI, () => undefined);
    expect(german.page?.status).toBe(200);
    expect(german.page?.html).toContain('<html lang="de">');
    expect(german.page?.html).toContain('<label for="username">Benutzername</label>');
    expect(german.page?.html).toContain('autocomplete="current-password"');

    const english = await follow(
      newBrowser(),
      authorizeUrl(pkcePair().challenge, { ui_locales: "en-US" }),
      REDIRECT_URI,
      () => undefined,
    );
    expect(english.page?.html).toContain('<html lang="en">');
    expect(english.page?.html).toContain("Sign in");

    const byHeader = await follow(newBrowser("en-GB,en;q=0.8"), authorizeUrl(pkcePair().challenge), REDIRECT_URI, () => undefined);
    expect(byHeader.page?.html).toContain('<html lang="en">');
  });

  it("shows an error on a wrong password and lets the person try again", async () => {
    const browser = newBrowser();
    let attempts = 0;
    const result = await follow(browser, authorizeUrl(pkcePair().challenge), REDIRECT_URI, () =>
      attempts++ === 0 ? new URLSearchParams({ username: "editor", password: "wrong" }) : undefined,
    );
    expect(result.page?.html).toContain('role="alert"');
    expect(result.page?.html).toContain("Benutzername oder Passwort ist falsch");
    expect(result.page?.html).toContain('value="editor"');
    const retry = await follow(browser, result.final, REDIRECT_URI, credentials("editor", "editor123"));
    expect(retry.final.startsWith(REDIRECT_URI)).toBe(true);
  });

  it("requires PKCE", async () => {
    const url = new URL(authorizeUrl("x"));
    url.searchParams.delete("code_challenge");
    url.searchParams.delete("code_challenge_method");
    const response = await fetch(url, { redirect: "manual" });
    const location = new URL(response.headers.get("location") ?? "", issuer);
    expect(location.searchParams.get("error")).toBe("invalid_request");
  });

  it("records acceptance of the terms and reports it in new tokens", async () => {
    const browser = newBrowser();
    const before = await signIn(browser, "newcomer");
    expect((await verifyAccessToken(before.access_token)).tos_accepted).toBe(false);
    expect(decodeJwt(before.id_token).tos_accepted).toBe(false);

    const returnTo = `${APP}/surveys?welcome=1`;
    const page = await browser.request(`${issuer}/terms?return_to=${encodeURIComponent(returnTo)}`, {
      headers: { "accept-language": "de-DE" },
    });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain("Nutzungsbedingungen");
    const accepted = await browser.request(`${issuer}/terms`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf: formField(html, "csrf")!, return_to: formField(html, "return_to")! }),
    });
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get("location")).toBe(returnTo);

    const after = await signIn(browser);
    expect((await verifyAccessToken(after.access_token)).tos_accepted).toBe(true);
    const refreshed = await tokenRequest({ grant_type: "refresh_token", refresh_token: before.refresh_token! });
    const renewed = (await refreshed.json()) as Tokens;
    expect((await verifyAccessToken(renewed.access_token)).tos_accepted).toBe(true);
    const stored = JSON.parse(await readFile(path.join(dataDir, "idp-terms.json"), "utf8"));
    expect(stored.accepted).toHaveProperty("newcomer");
  });

  it("refuses a return_to on a foreign origin and needs a session", async () => {
    const browser = newBrowser();
    await signIn(browser, "user");
    const foreign = await browser.request(`${issuer}/terms?return_to=${encodeURIComponent("https://evil.example/")}`);
    expect(foreign.status).toBe(400);
    expect(await foreign.text()).not.toContain('name="csrf"');

    const page = await (await browser.request(`${issuer}/terms`)).text();
    const posted = await browser.request(`${issuer}/terms`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf: formField(page, "csrf")!, return_to: "https://evil.example/" }),
    });
    expect(posted.status).toBe(200);
    expect(posted.headers.get("location")).toBeNull();

    const forged = await browser.request(`${issuer}/terms`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf: "forged" }),
    });
    expect(forged.status).toBe(403);

    const anonymous = await fetch(`${issuer}/terms`);
    expect(anonymous.status).toBe(403);
  });

  it("signs out through an auto-submitting page and returns to the app", async () => {
    const browser = newBrowser();
    const tokens = await signIn(browser, "user");
    const end = new URL(`${issuer}/session/end`);
    end.search = new URLSearchParams({
      id_token_hint: tokens.id_token,
      post_logout_redirect_uri: LOGOUT_URI,
      state: "bye",
    }).toString();
    const page = await browser.request(end.href);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('<html lang="de">');
    expect(html).toMatch(/<script nonce="[^"]+">/);
    expect(html).toContain('name="logout" value="yes"');
    const nonce = /<script nonce="([^"]+)">/.exec(html)![1];
    expect(page.headers.get("content-security-policy")).toContain(`'nonce-${nonce}'`);

    const confirm = await browser.request(`${issuer}/session/end/confirm`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ xsrf: formField(html, "xsrf")!, logout: "yes" }),
    });
    expect(confirm.status).toBe(303);
    expect(confirm.headers.get("location")).toBe(`${LOGOUT_URI}?state=bye`);

    const again = await follow(browser, authorizeUrl(pkcePair().challenge), REDIRECT_URI, () => undefined);
    expect(again.page?.html).toContain('name="password"');
    const refreshed = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token! });
    expect(refreshed.status).toBe(400);
  });

  it("introspects and revokes tokens", async () => {
    const tokens = await signIn(newBrowser(), "editor");
    const introspect = async () => {
      const response = await fetch(`${issuer}/token/introspection`, {
        method: "POST",
        headers: { authorization: basic(), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token: tokens.refresh_token! }),
      });
      return (await response.json()) as { active: boolean };
    };
    expect((await introspect()).active).toBe(true);
    const revoked = await fetch(`${issuer}/token/revocation`, {
      method: "POST",
      headers: { authorization: basic(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens.refresh_token!, token_type_hint: "refresh_token" }),
    });
    expect(revoked.status).toBe(200);
    expect((await introspect()).active).toBe(false);
  });

  it("issues a refresh token even when the app forces a fresh sign-in (prompt=login)", async () => {
    const browser = newBrowser();
    await signIn(browser, "user");
    const tokens = await signIn(browser, "user", { prompt: "login" });
    expect(tokens.refresh_token).toBeTruthy();
    const response = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token! });
    expect(response.status).toBe(200);
  });

  it("grants offline_access without a consent screen when the app asks with prompt=consent", async () => {
    const browser = newBrowser();
    const tokens = await signIn(browser, "editor", { prompt: "consent" });
    const response = await fetch(`${issuer}/token/introspection`, {
      method: "POST",
      headers: { authorization: basic(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens.refresh_token! }),
    });
    const info = (await response.json()) as { active: boolean; scope: string };
    expect(info.active).toBe(true);
    expect(info.scope.split(" ")).toEqual(expect.arrayContaining(["openid", "offline_access", API_SCOPE]));
  });

  it("keeps keys, sessions, refresh tokens and terms acceptance across a restart; close() stops the server", async () => {
    const kid = (await (await fetch(`${issuer}/jwks`)).json()).keys[0].kid;
    const browser = newBrowser();
    const before = await signIn(browser, "approver");
    await idp.close();
    await expect(fetch(`${issuer}/jwks`)).rejects.toThrow();
    idp = await start();
    expect((await (await fetch(`${issuer}/jwks`)).json()).keys[0].kid).toBe(kid);
    const refreshed = await tokenRequest({ grant_type: "refresh_token", refresh_token: before.refresh_token! });
    expect(refreshed.status).toBe(200);
    expect((await signIn(browser)).id_token).toBeTruthy();
    const tokens = await signIn(newBrowser(), "newcomer");
    expect((await verifyAccessToken(tokens.access_token)).tos_accepted).toBe(true);
  });
});
