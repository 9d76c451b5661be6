import { readFile } from "node:fs/promises";
import path from "node:path";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { follow, formField, newBrowser, pkcePair } from "./test-client.server";
import { APP, LOGOUT_URI, REDIRECT_URI, createTestIdp, type TestIdp, type Tokens } from "./test-fixture.server";

let t: TestIdp;

beforeAll(async () => {
  t = await createTestIdp();
});

afterAll(async () => {
  await t?.dispose();
});

describe("embedded identity provider: terms of service and sign-out", () => {
  it("records acceptance of the terms and reports it in new tokens", async () => {
    const browser = newBrowser();
    const before = await t.signIn(browser, "newcomer");
    expect((await t.verifyAccessToken(before.access_token)).tos_accepted).toBe(false);
    expect(decodeJwt(before.id_token).tos_accepted).toBe(false);

    const returnTo = `${APP}/surveys?welcome=1`;
    const page = await browser.request(`${t.issuer}/terms?return_to=${encodeURIComponent(returnTo)}`, {
      headers: { "accept-language": "de-DE" },
    });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain("Nutzungsbedingungen");
    const accepted = await browser.request(`${t.issuer}/terms`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf: formField(html, "csrf")!, return_to: formField(html, "return_to")! }),
    });
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get("location")).toBe(returnTo);

    const after = await t.signIn(browser);
    expect((await t.verifyAccessToken(after.access_token)).tos_accepted).toBe(true);
    const refreshed = await t.tokenRequest({ grant_type: "refresh_token", refresh_token: before.refresh_token! });
    const renewed = (await refreshed.json()) as Tokens;
    expect((await t.verifyAccessToken(renewed.access_token)).tos_accepted).toBe(true);
    const stored = JSON.parse(await readFile(path.join(t.dataDir, "idp-terms.json"), "utf8"));
    expect(stored.accepted).toHaveProperty("newcomer");
  });

  it("refuses a return_to on a foreign origin and needs a session", async () => {
    const browser = newBrowser();
    await t.signIn(browser, "user");
    const foreign = await browser.request(`${t.issuer}/terms?return_to=${encodeURIComponent("https://evil.example/")}`);
    expect(foreign.status).toBe(400);
    expect(await foreign.text()).not.toContain('name="csrf"');

    const english = await (await browser.request(`${t.issuer}/terms?ui_locales=en-US`)).text();
    expect(english).toContain('<html lang="en">');
    expect(english).toContain("You have already accepted the terms of service.");

    const page = await (await browser.request(`${t.issuer}/terms`)).text();
    expect(page).toContain('<html lang="de">');
    const posted = await browser.request(`${t.issuer}/terms`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf: formField(page, "csrf")!, return_to: "https://evil.example/" }),
    });
    expect(posted.status).toBe(200);
    expect(posted.headers.get("location")).toBeNull();

    const forged = await browser.request(`${t.issuer}/terms`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf: "forged" }),
    });
    expect(forged.status).toBe(403);

    const anonymous = await fetch(`${t.issuer}/terms`);
    expect(anonymous.status).toBe(403);
  });

  it("signs out through an auto-submitting page and returns to the app", async () => {
    const browser = newBrowser();
    const tokens = await t.signIn(browser, "user");
    const end = new URL(`${t.issuer}/session/end`);
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

    const confirm = await browser.request(`${t.issuer}/session/end/confirm`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ xsrf: formField(html, "xsrf")!, logout: "yes" }),
    });
    expect(confirm.status).toBe(303);
    expect(confirm.headers.get("location")).toBe(`${LOGOUT_URI}?state=bye`);

    const again = await follow(browser, t.authorizeUrl(pkcePair().challenge), REDIRECT_URI, () => undefined);
    expect(again.page?.html).toContain('name="password"');
    const refreshed = await t.tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token! });
    expect(refreshed.status).toBe(400);
  });

  it("keeps keys, sessions, refresh tokens and terms acceptance across a restart; close() stops the server", async () => {
    const kid = (await (await fetch(`${t.issuer}/jwks`)).json()).keys[0].kid;
    const browser = newBrowser();
    const before = await t.signIn(browser, "approver");
    await t.stop();
    await expect(fetch(`${t.issuer}/jwks`)).rejects.toThrow();
    await t.restart();
    expect((await (await fetch(`${t.issuer}/jwks`)).json()).keys[0].kid).toBe(kid);
    const refreshed = await t.tokenRequest({ grant_type: "refresh_token", refresh_token: before.refresh_token! });
    expect(refreshed.status).toBe(200);
    expect((await t.signIn(browser)).id_token).toBeTruthy();
    const tokens = await t.signIn(newBrowser(), "newcomer");
    expect((await t.verifyAccessToken(tokens.access_token)).tos_accepted).toBe(true);
  });
});
