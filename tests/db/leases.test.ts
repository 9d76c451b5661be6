import { expect, it, vi } from "vitest";
import type * as Leases from "~/server/db/leases.server";
import { describeEachDialect, useTestDb } from "../support/databases";

/** Two copies of the server: two instances of the leases module, each its own holder. */
async function copy(): Promise<typeof Leases> {
  vi.resetModules();
  return import("~/server/db/leases.server");
}

describeEachDialect("leases", (kind) => {
  const db = useTestDb(kind);

  it("lets one holder at a time take a lease, the same holder again, and another once it has expired", async () => {
    const [a, b] = [await copy(), await copy()];
    const now = new Date();
    expect(await a.takeLease(db(), "job", 60_000, now)).toBe(true);
    expect(await b.takeLease(db(), "job", 60_000, now)).toBe(false);
    expect(await a.takeLease(db(), "job", 60_000, now)).toBe(true);
    expect(await b.takeLease(db(), "other", 60_000, now)).toBe(true);
    const later = new Date(now.getTime() + 61_000);
    expect(await b.takeLease(db(), "job", 60_000, later)).toBe(true);
    expect(await a.takeLease(db(), "job", 60_000, later)).toBe(false);
    await b.releaseLease(db(), "job");
    expect(await a.takeLease(db(), "job", 60_000, later)).toBe(true);
  });

  it("runs one-time work once across copies started together", async () => {
    const copies = [await copy(), await copy(), await copy()];
    let running = 0;
    let overlapped = false;
    let done = 0;
    const seedIfEmpty = async () => {
      running++;
      if (running > 1) overlapped = true;
      await new Promise((r) => setTimeout(r, 50));
      const first = done === 0;
      if (first) done++;
      running--;
      return first;
    };
    const results = await Promise.all(copies.map((m) => m.runExclusively(db(), "seed", seedIfEmpty, { pollMs: 10 })));
    expect(overlapped).toBe(false);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await db().selectFrom("leases").select("name").where("name", "=", "seed").execute()).toEqual([]);
  });
});
