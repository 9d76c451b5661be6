import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  assertAnswering,
  discover,
  discoveryKeepMs,
  DISCOVERY_DEFAULT_KEEP_MS,
  PROVIDER_ANSWER_STANDS_MS,
} from "./discovery.server";

/**
 * The provider's metadata kept as its Cache-Control allows, fetched again once stale (the kept one serving
 * meanwhile), and a provider's answer standing for its being reachable only a few seconds: against a real
 * HTTP server that counts the fetches, with the clock moved on.
 */

describe("how long a discovery answer is kept", () => {
  it("follows max-age within a minute and a day, and keeps five minutes when nothing is said", () => {
    expect(discoveryKeepMs("public, max-age=3600")).toBe(3600_000);
    expect(discoveryKeepMs('max-age="600"')).toBe(600_000);
    expect(discoveryKeepMs("max-age=5")).toBe(60_000);
    expect(discoveryKeepMs("max-age=9999999")).toBe(24 * 3600_000);
    expect(discoveryKeepMs("no-store")).toBe(60_000);
    expect(discoveryKeepMs("private, no-cache, max-age=600")).toBe(60_000);
    expect(discoveryKeepMs(null)).toBe(DISCOVERY_DEFAULT_KEEP_MS);
    expect(discoveryKeepMs("s-maxage=600")).toBe(DISCOVERY_DEFAULT_KEEP_MS);
  });
});

describe("the kept discovery", () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  async function provider(cacheControl: string) {
    const seen = { fetches: 0, version: 1 };
    server = http.createServer((req, res) => {
      seen.fetches++;
      res.setHeader("Cache-Control", cacheControl);
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify({ issuer: "x", authorization_endpoint: `v${seen.version}`, jwks_uri: "http://x/jwks" }));
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { issuer, seen };
  }

  it("is fetched once while fresh, again in the background once stale, and serves while the provider is down", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { issuer, seen } = await provider("max-age=120");
    const firsts = await Promise.all(Array.from({ length: 20 }, () => discover(issuer)));
    expect(firsts.every((d) => d.authorization_endpoint === "v1")).toBe(true);
    for (let i = 0; i < 20; i++) await discover(issuer);
    expect(seen.fetches).toBe(1);

    // Stale: the kept one answers at once, and is fetched again beside it.
    seen.version = 2;
    vi.setSystemTime(Date.now() + 121_000);
    expect((await discover(issuer)).authorization_endpoint).toBe("v1");
    await vi.waitFor(() => expect(seen.fetches).toBe(2));
    await vi.waitFor(async () => expect((await discover(issuer)).authorization_endpoint).toBe("v2"));
    expect(seen.fetches).toBe(2);

    // The provider down and the document stale: still served, but the provider does not count as answering.
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    vi.setSystemTime(Date.now() + 121_000);
    expect((await discover(issuer)).authorization_endpoint).toBe("v2");
    await expect(assertAnswering(issuer, 1000)).rejects.toThrow();
    expect((await discover(issuer)).authorization_endpoint).toBe("v2");
  });

  it("counts a provider as answering for a few seconds after its last answer, then asks it again", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { issuer, seen } = await provider("max-age=3600");
    await Promise.all(Array.from({ length: 30 }, () => assertAnswering(issuer, 1000)));
    for (let i = 0; i < 30; i++) await assertAnswering(issuer, 1000);
    expect(seen.fetches).toBe(1);
    vi.setSystemTime(Date.now() + PROVIDER_ANSWER_STANDS_MS);
    await assertAnswering(issuer, 1000);
    expect(seen.fetches).toBe(2);
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    vi.setSystemTime(Date.now() + PROVIDER_ANSWER_STANDS_MS);
    await expect(assertAnswering(issuer, 1000)).rejects.toThrow();
  });
});
