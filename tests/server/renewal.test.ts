import { OAuth2RequestError } from "remix-auth-oauth2";
import { describe, expect, it, vi } from "vitest";
import type * as Renewal from "~/server/auth/renewal.server";
import { createSessionStores, type AuthSessionData } from "~/server/auth/session.server";
import { withTestDb, allDialects, dialects } from "../support/databases";

/**
 * Token renewal of one session shared by several copies of the server (decision 017), against a provider
 * that rotates refresh tokens and revokes the grant when a spent one comes back, as Keycloak and Auth0 do.
 */

type RenewalModule = typeof Renewal;

/** A fresh instance of the renewal module: its in-process sharing is per copy, as in separate processes. */
async function copy(): Promise<RenewalModule> {
  vi.resetModules();
  return import("~/server/auth/renewal.server");
}

function rotatingProvider(lifeMs: number) {
  let current = "rt-0";
  let issued = 0;
  let revoked = false;
  const calls: string[] = [];
  return {
    calls,
    revoke: () => (revoked = true),
    async refresh(refreshToken: string) {
      calls.push(refreshToken);
      await new Promise((r) => setTimeout(r, 30));
      if (revoked || refreshToken !== current) {
        revoked = true;
        throw new OAuth2RequestError("invalid_grant", "grant revoked", null, null);
      }
      issued++;
      current = `rt-${issued}`;
      return {
        identity: { sub: "u1", name: "U", roles: ["SsiUser"], teams: [], institute: "", hasAcceptedTos: true },
        accessToken: `at-${issued}`,
        refreshToken: current,
        accessTokenExpiresAt: Date.now() + lifeMs,
      } as never;
    },
  };
}

function expiredSession(): AuthSessionData {
  return {
    identity: { sub: "u1", name: "U", roles: ["SsiUser"], teams: [], institute: "", hasAcceptedTos: true } as never,
    surveyUserDataId: 1,
    accessToken: "at-0",
    refreshToken: "rt-0",
    accessTokenExpiresAt: Date.now() - 1000,
    renewAfter: Date.now() - 2000,
  };
}

for (const kind of allDialects) {
  describe.skipIf(!dialects.includes(kind))(`renewing one session from several copies [${kind}]`, () => {
    it("renews once when three copies find the token due at the same moment; all use the result", () =>
      withTestDb(kind, async (db) => {
        const sessions = createSessionStores({ db, dataDir: "/tmp", secret: "s".repeat(32), ttlHours: 12 });
        const provider = rotatingProvider(60_000);
        await db
          .insertInto("sessions")
          .values({
            id: "s1",
            data: JSON.stringify(expiredSession()),
            expires_at: new Date(Date.now() + 3600_000).toISOString(),
          })
          .execute();
        const copies = [await copy(), await copy(), await copy()];
        const results = await Promise.all(
          copies.flatMap((m) =>
            [0, 1].map(() => m.freshSession(sessions, "s1", expiredSession(), (rt) => provider.refresh(rt))),
          ),
        );
        expect(provider.calls).toEqual(["rt-0"]);
        for (const r of results) expect(r?.accessToken).toBe("at-1");
        const stored = await sessions.read("s1");
        expect(stored?.data.refreshToken).toBe("rt-1");
        expect(stored?.renewingUntil).toBeNull();
      }));

    it("ends the session for every copy when the provider refuses, and keeps its end where sign-in put it", () =>
      withTestDb(kind, async (db) => {
        const sessions = createSessionStores({ db, dataDir: "/tmp", secret: "s".repeat(32), ttlHours: 12 });
        const provider = rotatingProvider(60_000);
        const end = new Date(Date.now() + 3600_000).toISOString();
        await db
          .insertInto("sessions")
          .values({ id: "s2", data: JSON.stringify(expiredSession()), expires_at: end })
          .execute();
        const a = await copy();
        const renewed = await a.freshSession(sessions, "s2", expiredSession(), (rt) => provider.refresh(rt));
        expect(renewed?.accessToken).toBe("at-1");
        const row = await db
          .selectFrom("sessions")
          .select("expires_at")
          .where("id", "=", "s2")
          .executeTakeFirstOrThrow();
        expect(row.expires_at).toBe(end);

        provider.revoke();
        const due = { ...renewed!, renewAfter: Date.now() - 1 };
        await db
          .updateTable("sessions")
          .set({ data: JSON.stringify(due) })
          .where("id", "=", "s2")
          .execute();
        const b = await copy();
        expect(await b.freshSession(sessions, "s2", due, (rt) => provider.refresh(rt))).toBeNull();
        expect(await sessions.read("s2")).toBeNull();
        // Another copy holding the old data finds it ended too, without asking the provider again.
        const calls = provider.calls.length;
        expect(await a.freshSession(sessions, "s2", due, (rt) => provider.refresh(rt))).toBeNull();
        expect(provider.calls.length).toBe(calls);
      }));

    it("keeps the session when the provider cannot be reached: the token while it lasts, then 'unavailable'", () =>
      withTestDb(kind, async (db) => {
        const sessions = createSessionStores({ db, dataDir: "/tmp", secret: "s".repeat(32), ttlHours: 12 });
        const m = await copy();
        const down = async () => {
          throw new TypeError("fetch failed");
        };
        const almost = { ...expiredSession(), accessTokenExpiresAt: Date.now() + 20_000, renewAfter: Date.now() - 1 };
        await db
          .insertInto("sessions")
          .values({ id: "s3", data: JSON.stringify(almost), expires_at: new Date(Date.now() + 3600_000).toISOString() })
          .execute();
        expect((await m.freshSession(sessions, "s3", almost, down))?.accessToken).toBe("at-0");
        const gone = { ...almost, accessTokenExpiresAt: Date.now() - 1 };
        await db
          .updateTable("sessions")
          .set({ data: JSON.stringify(gone) })
          .where("id", "=", "s3")
          .execute();
        await expect(m.freshSession(sessions, "s3", gone, down)).rejects.toBeInstanceOf(m.ProviderUnavailable);
        expect(await sessions.read("s3")).not.toBeNull();
      }));
  });
}

describe("renewAt", () => {
  it("renews a short-lived token when a fifth of its life is left, a long one 30 s before its end", async () => {
    const { renewAt } = await import("~/server/auth/renewal.server");
    expect(renewAt(120_000 + 20_000, 120_000)).toBe(120_000 + 16_000);
    expect(renewAt(1_000_000 + 300_000, 1_000_000)).toBe(1_000_000 + 270_000);
  });
});
