import { readFile } from "node:fs/promises";
import path from "node:path";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { follow, newBrowser, pkcePair } from "./test-client.server";
import {
  API_SCOPE,
  CLIENT_ID,
  REDIRECT_URI,
  createTestIdp,
  credentials,
  type TestIdp,
  type Tokens,
} from "./test-fixture.server";

let t: TestIdp;

beforeAll(async () => {
  t = await createTestIdp();
});

afterAll(async () => {
  await t?.dispose();
});

describe("embedded identity provider", () => {
  it("publishes discovery metadata and a persisted RS256 key set", async () => {
    const meta = (await (await fetch(`${t.issuer}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    expect(meta.issuer).toBe(t.issuer);
    expect(meta.code_challenge_methods_supported).toEqual(["S256"]);
    expect(meta.end_session_endpoint).toBe(`${t.issuer}/session/end`);
    expect(meta.revocation_endpoint).toBeTruthy();
    expect(meta.introspection_endpoint).toBeTruthy();
    expect(meta.scopes_supported).toEqual(expect.arrayContaining(["openid", "profile", "offline_access"]));
    expect(meta.claims_supported).toEqual(expect.arrayContaining(["roles", "teams", "institute", "tos_accepted"]));
    const jwks = (await (await fetch(String(meta.jwks_uri))).json()) as { keys: Array<Record<string, string>> };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig" });
    expect(jwks.keys[0]).not.toHaveProperty("d");
    const stored = JSON.parse(await readFile(path.join(t.dataDir, "idp-jwks.json"), "utf8"));
    expect(stored.keys[0].kid).toBe(jwks.keys[0]!.kid);
  });

  it("signs in with code + PKCE and issues a verifiable JWT access token with the person's claims", async () => {
    const browser = newBrowser();
    const tokens = await t.signIn(browser, "editor");
    expect(tokens.token_type).toBe("Bearer");
    expect(tokens.expires_in).toBeLessThanOrEqual(300);
    expect(tokens.scope.split(" ")).toEqual(expect.arrayContaining([API_SCOPE]));
    expect(browser.jar.names().every((n) => n.startsWith("idp_"))).toBe(true);

    const claims = await t.verifyAccessToken(tokens.access_token);
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
    const tokens = await t.signIn(newBrowser(), "approver");
    expect(tokens.refresh_token).toBeTruthy();
    const response = await t.tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token! });
    const renewed = (await response.json()) as Tokens;
    expect(response.status, JSON.stringify(renewed)).toBe(200);
    expect(renewed.access_token).not.toBe(tokens.access_token);
    const claims = await t.verifyAccessToken(renewed.access_token);
    expect(claims.roles).toEqual(["SsiUser", "SsiApprover"]);
    expect(renewed.id_token).toBeTruthy();
  });

  it("serves the same claims from userinfo to a token without the API scope", async () => {
    const browser = newBrowser();
    await t.signIn(browser, "admin");
    const tokens = await t.signIn(browser, undefined, { scope: "openid profile" });
    const response = await fetch(`${t.issuer}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
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
    const german = await follow(newBrowser(), t.authorizeUrl(pkcePair().challenge), REDIRECT_URI, () => undefined);
    expect(german.page?.status).toBe(200);
    expect(german.page?.html).toContain('<html lang="de">');
    expect(german.page?.html).toContain('<label for="username">Benutzername</label>');
    expect(german.page?.html).toContain('autocomplete="current-password"');
    // Its icon is inline (its policy allows data: images): a browser asks the provider for no /favicon.ico.
    expect(german.page?.html).toMatch(
      /<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,%3Csvg%20xmlns/,
    );

    const english = await follow(
      newBrowser(),
      t.authorizeUrl(pkcePair().challenge, { ui_locales: "en-US" }),
      REDIRECT_URI,
      () => undefined,
    );
    expect(english.page?.html).toContain('<html lang="en">');
    expect(english.page?.html).toContain("Sign in");

    const byHeader = await follow(
      newBrowser("en-GB,en;q=0.8"),
      t.authorizeUrl(pkcePair().challenge),
      REDIRECT_URI,
      () => undefined,
    );
    expect(byHeader.page?.html).toContain('<html lang="en">');
  });

  it("shows an error on a wrong password and lets the person try again", async () => {
    const browser = newBrowser();
    let attempts = 0;
    const result = await follow(browser, t.authorizeUrl(pkcePair().challenge), REDIRECT_URI, () =>
      attempts++ === 0 ? new URLSearchParams({ username: "editor", password: "wrong" }) : undefined,
    );
    expect(result.page?.html).toContain('role="alert"');
    expect(result.page?.html).toContain("Benutzername oder Passwort ist falsch");
    expect(result.page?.html).toContain('value="editor"');
    const retry = await follow(browser, result.final, REDIRECT_URI, credentials("editor", "editor123"));
    expect(retry.final.startsWith(REDIRECT_URI)).toBe(true);
  });

  it("renders its own error pages in the person's language", async () => {
    const unknownClient = await fetch(`${t.issuer}/auth?client_id=nobody&response_type=code&scope=openid`, {
      headers: { "accept-language": "en-US" },
    });
    const html = await unknownClient.text();
    expect(unknownClient.status).toBe(400);
    expect(html).toContain('<html lang="en">');
    expect(html).toContain("Something went wrong");
    expect(unknownClient.headers.get("content-security-policy")).toContain("default-src 'none'");

    const stale = await fetch(`${t.issuer}/interaction/unknown-uid`);
    expect(stale.status).toBe(400);
    expect(await stale.text()).toContain("Anmeldung abgelaufen");
  });

  it("requires PKCE", async () => {
    const url = new URL(t.authorizeUrl("x"));
    url.searchParams.delete("code_challenge");
    url.searchParams.delete("code_challenge_method");
    const response = await fetch(url, { redirect: "manual" });
    const location = new URL(response.headers.get("location") ?? "", t.issuer);
    expect(location.searchParams.get("error")).toBe("invalid_request");
  });

  it("introspects and revokes tokens", async () => {
    const tokens = await t.signIn(newBrowser(), "editor");
    const introspect = async () => {
      const response = await fetch(`${t.issuer}/token/introspection`, {
        method: "POST",
        headers: { authorization: t.basic(), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token: tokens.refresh_token! }),
      });
      return (await response.json()) as { active: boolean };
    };
    expect((await introspect()).active).toBe(true);
    const revoked = await fetch(`${t.issuer}/token/revocation`, {
      method: "POST",
      headers: { authorization: t.basic(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens.refresh_token!, token_type_hint: "refresh_token" }),
    });
    expect(revoked.status).toBe(200);
    expect((await introspect()).active).toBe(false);
  });

  it("issues a refresh token even when the app forces a fresh sign-in (prompt=login)", async () => {
    const browser = newBrowser();
    await t.signIn(browser, "user");
    const tokens = await t.signIn(browser, "user", { prompt: "login" });
    expect(tokens.refresh_token).toBeTruthy();
    const response = await t.tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token! });
    expect(response.status).toBe(200);
  });

  it("asks for the password again on prompt=login and max_age=0 while its session lasts, and says when", async () => {
    const browser = newBrowser();
    await t.signIn(browser, "user");
    for (const extra of [{ prompt: "login" }, { max_age: "0" }] as Record<string, string>[]) {
      const { challenge } = pkcePair();
      let asked = 0;
      const { final } = await follow(browser, t.authorizeUrl(challenge, extra), REDIRECT_URI, (html) => {
        asked++;
        // The page names the person signed in here.
        expect(html).toContain('value="user"');
        return credentials("user", "user123")();
      });
      expect(asked, JSON.stringify(extra)).toBe(1);
      expect(new URL(final).searchParams.get("code")).toBeTruthy();
    }
    // The ID token says when the person authenticated, and carries the nonce.
    const tokens = await t.signIn(browser, "user", { max_age: "0", scope: "openid" });
    const claims = decodeJwt(tokens.id_token);
    expect(claims.nonce).toBe("nonce-123");
    expect(typeof claims.auth_time).toBe("number");
    expect(Math.abs(Number(claims.auth_time) - Date.now() / 1000)).toBeLessThan(10);
  });

  it("takes only the signed-in person at a re-authentication; another account is asked to sign out first", async () => {
    const browser = newBrowser();
    await t.signIn(browser, "user");
    const { challenge } = pkcePair();
    let pages = 0;
    const { page } = await follow(browser, t.authorizeUrl(challenge, { prompt: "login" }), REDIRECT_URI, () =>
      pages++ === 0 ? credentials("editor", "editor123")() : undefined,
    );
    expect(page?.html).toContain("Bitte bestätigen Sie mit dem Passwort des angemeldeten Kontos.");
    // The person's own sign-in here goes on: a silent sign-in still works for them.
    const silent = await t.signIn(browser, undefined, { prompt: "none" });
    expect(decodeJwt(silent.id_token).sub).toBe("user");
  });

  it("names a signing's survey on the password page in the case's language, right to left where it is", async () => {
    const browser = newBrowser();
    await t.signIn(browser, "user");
    const signingPage = async (language?: string) => {
      const signing = { signing_patient: "P 7", signing_survey: "الحالة", signing_meaning: "author" };
      const extra = { prompt: "login", ...signing, ...(language === undefined ? {} : { signing_language: language }) };
      const { page } = await follow(
        browser,
        t.authorizeUrl(pkcePair().challenge, extra),
        REDIRECT_URI,
        () => undefined,
      );
      return /<p id="signing-what">(.*?)<\/p>/.exec(page?.html ?? "")?.[1];
    };
    expect(await signingPage("ar")).toBe(
      'Sie unterschreiben den Fall P 7 der Umfrage „<span lang="ar" dir="rtl">الحالة</span>“ elektronisch, mit der Bedeutung: Verfasst',
    );
    expect(await signingPage("tr")).toContain('„<span lang="tr" dir="ltr">الحالة</span>“');
    // A request without a language, or with one that is not a content language, names the survey as it came.
    expect(await signingPage()).toContain("„الحالة“");
    expect(await signingPage('ar" onclick="x')).toContain("„الحالة“");
  });

  it("grants offline_access without a consent screen when the app asks with prompt=consent", async () => {
    const browser = newBrowser();
    const tokens = await t.signIn(browser, "editor", { prompt: "consent" });
    const response = await fetch(`${t.issuer}/token/introspection`, {
      method: "POST",
      headers: { authorization: t.basic(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens.refresh_token! }),
    });
    const info = (await response.json()) as { active: boolean; scope: string };
    expect(info.active).toBe(true);
    expect(info.scope.split(" ")).toEqual(expect.arrayContaining(["openid", "offline_access", API_SCOPE]));
  });
});
