import "fake-indexeddb/auto";
import { createStore, get } from "idb-keyval";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  beginDeviceHandover,
  deviceHandover,
  endDeviceHandover,
  endReturnedHandover,
  handedOverCase,
  returnOffline,
} from "./handover-device";
import { readHandoverMark } from "./handover-mark";
import { DEVICE_DB, DEVICE_STORE, HANDOVER_MARK } from "./sw-constants";
import { freshDatabases, testHolder } from "./test-support";

beforeEach(freshDatabases);
afterEach(() => vi.unstubAllGlobals());

const kase = { surveyId: 7, patientId: "P-4711" };

/** What the service worker learns of a hand-over (docs/decisions/058-hand-over.md). */
describe("the hand-over's mark", () => {
  it("names the case for the holder while the hand-over runs, and no patient id in clear", async () => {
    const anna = await testHolder();
    expect(await readHandoverMark(anna)).toBeNull();
    await beginDeviceHandover(anna, kase, "2468", "the-token", 1000);
    expect(await readHandoverMark(anna)).toEqual(kase);
    expect(await handedOverCase(anna)).toEqual(kase);
    const raw = await get<{ tag: string; case: ArrayBuffer }>(HANDOVER_MARK, createStore(DEVICE_DB, DEVICE_STORE));
    expect(raw?.tag).toBe(anna.tag);
    expect(new TextDecoder().decode(raw!.case)).not.toContain("P-4711");
  });

  it("opens for nobody else: another person's keys read no hand-over", async () => {
    await beginDeviceHandover(await testHolder(), kase, "2468", "the-token", 1000);
    expect(await readHandoverMark(await testHolder("b0b", 2))).toBeNull();
    // The same tag with other keys (a mark that does not open) is no hand-over either.
    expect(await readHandoverMark(await testHolder("a11ce", 3))).toBeNull();
  });

  it("is gone when the PIN returns the device offline, and when the hand-over ends", async () => {
    const anna = await testHolder();
    await beginDeviceHandover(anna, kase, "2468", "the-token", 1000);
    await returnOffline(anna, "the-token");
    expect(await readHandoverMark(anna)).toBeNull();
    expect(await handedOverCase(anna)).toBeNull();
    await beginDeviceHandover(anna, kase, "2468", "the-token", 1000);
    await endDeviceHandover(anna);
    expect(await readHandoverMark(anna)).toBeNull();
  });
});

/** The PIN typed offline: online again, the server's mode ends by its token before a sync. */
describe("endReturnedHandover", () => {
  const calls: { url: string; body: unknown }[] = [];
  const answer = (status: number) =>
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init?: RequestInit) => {
        calls.push({ url, body: JSON.parse(String(init?.body ?? "null")) });
        return new Response(status === 204 ? null : JSON.stringify({ Type: "FORBIDDEN" }), { status });
      }),
    );
  beforeEach(() => {
    calls.length = 0;
  });

  it("sends the token the PIN opened, then ends the device's record", async () => {
    const anna = await testHolder();
    await beginDeviceHandover(anna, kase, "2468", "the-token", 1000);
    await returnOffline(anna, "the-token");
    answer(204);
    expect(await endReturnedHandover(anna)).toBe("none");
    expect(calls).toEqual([
      { url: expect.stringMatching(/\/handover\/end$/), body: { ReturnToken: "the-token", Offline: true } },
    ]);
    expect(await deviceHandover(anna)).toBeNull();
  });

  it("asks nothing while the patient holds the device or when no hand-over is kept", async () => {
    const anna = await testHolder();
    answer(204);
    expect(await endReturnedHandover(anna)).toBe("none");
    await beginDeviceHandover(anna, kase, "2468", "the-token", 1000);
    expect(await endReturnedHandover(anna)).toBe("held");
    expect(calls).toEqual([]);
    expect(await readHandoverMark(anna)).toEqual(kase);
  });

  it("keeps the record when the server refuses the token", async () => {
    const anna = await testHolder();
    await beginDeviceHandover(anna, kase, "2468", "the-token", 1000);
    await returnOffline(anna, "the-token");
    answer(403);
    expect(await endReturnedHandover(anna)).toBe("refused");
    expect((await deviceHandover(anna))?.returned).toBe("the-token");
  });

  it("says the server is out of reach, and keeps the token for the next try, when the request fails", async () => {
    const anna = await testHolder();
    await beginDeviceHandover(anna, kase, "2468", "the-token", 1000);
    await returnOffline(anna, "the-token");
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    expect(await endReturnedHandover(anna)).toBe("unreachable");
    expect((await deviceHandover(anna))?.returned).toBe("the-token");
  });
});
