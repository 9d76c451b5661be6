import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import { demoAccounts, startEmbeddedIdp, type EmbeddedIdp } from "./index.server";
import { follow, freePort, pkcePair, type Browser } from "./test-client.server";

/** A running embedded provider on a free port with a temporary data directory, for tests. */

export const APP = "http://localhost:3000";
export const REDIRECT_URI = `${APP}/authentication/login-callback`;
export const LOGOUT_URI = `${APP}/authentication/logout-callback`;
export const CLIENT_ID = "survey-tool";
export const CLIENT_SECRET = "test-secret-0123456789";
export const AUDIENCE = "survey-api";
export const API_SCOPE = "survey_api";

export interface Tokens {
  access_token: string;
  id_token: string;
  refresh_token?: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

export const credentials = (username: string, password: string) => () => new URLSearchParams({ username, password });

export async function createTestIdp() {
  const dataDir = await mkdtemp(path.join(tmpdir(), "idp-test-"));
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const start = () =>
    startEmbeddedIdp({
      issuer,
      port,
      portSetting: "IDP_PORT",
      host: "127.0.0.1",
      dataDir,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUris: [REDIRECT_URI],
      postLogoutRedirectUris: [LOGOUT_URI],
      apiAudience: AUDIENCE,
      apiScope: API_SCOPE,
    });
  let idp: EmbeddedIdp = await start();

  const basic = () => `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`;

  const post = (endpoint: string, params: Record<string, string>) =>
    fetch(`${issuer}${endpoint}`, {
      method: "POST",
      headers: { authorization: basic(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(params),
    });

  const tokenRequest = (params: Record<string, string>) => post("/token", params);

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

  /** Signs in (unless the browser has a session already) and exchanges the code for tokens. */
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
    const code = callback.searchParams.get("code");
    if (!code || callback.searchParams.get("state") !== "state-123") {
      throw new Error(`no code in the callback: ${callback.search}`);
    }
    const response = await tokenRequest({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    });
    const body = (await response.json()) as Tokens;
    if (response.status !== 200) throw new Error(`token request failed: ${JSON.stringify(body)}`);
    return body;
  }

  /** Verifies an access token's RS256 signature against the published key set; returns its claims. */
  async function verifyAccessToken(token: string): Promise<JWTPayload & Record<string, unknown>> {
    const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
    const { payload } = await jwtVerify(token, jwks, { issuer, audience: AUDIENCE, algorithms: ["RS256"] });
    return payload as JWTPayload & Record<string, unknown>;
  }

  return {
    issuer,
    dataDir,
    basic,
    post,
    tokenRequest,
    authorizeUrl,
    signIn,
    verifyAccessToken,
    async stop() {
      await idp.close();
    },
    async restart() {
      idp = await start();
    },
    async dispose() {
      await idp.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestIdp = Awaited<ReturnType<typeof createTestIdp>>;
