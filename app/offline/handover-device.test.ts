import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { get } from "idb-keyval";
import { beforeEach, describe, expect, it } from "vitest";
import {
  beginDeviceHandover,
  deviceHandover,
  endDeviceHandover,
  HANDOVER_KEY,
  setHandoverTextSize,
  tryPin,
} from "./handover-device";
import { personStore, resetSealedForTests } from "./sealed";
import { deriveHolder } from "./vault";

const kase = { surveyId: 7, patientId: "P-4711" };
const holderOf = (n: number) => deriveHolder(n.toString(16).repeat(24), new Uint8Array(32).fill(n));

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  resetSealedForTests();
});

describe("the hand-over kept on the device", () => {
  it("is sealed for the staff member: no patient id, PIN or token in clear, nothing for another person", async () => {
    const anna = await holderOf(1);
    await beginDeviceHandover(anna, kase, "2468", "the-token", 1000);
    const raw = await get(HANDOVER_KEY, personStore(anna, "handover"));
    const bytes = new TextDecoder().decode((raw as { data: ArrayBuffer }).data);
    for (const secret of ["P-4711", "2468", "the-token"]) expect(bytes).not.toContain(secret);
    expect((await deviceHandover(anna))?.case).toEqual(kase);
    const ben = await holderOf(2);
    expect(await deviceHandover(ben)).toBeNull();
  });

  it("counts wrong PINs across reloads, waits after five, and answers the token for the right one", async () => {
    const anna = await holderOf(1);
    await beginDeviceHandover(anna, kase, "2468", "the-token", 1000);
    for (let i = 1; i <= 4; i++)
      expect(await tryPin(anna, "0000", 1000)).toEqual({ ok: false, waitMs: 0, failures: i });
    resetSealedForTests(); // a reload: only what is kept stays
    expect(await tryPin(anna, "1111", 1000)).toEqual({ ok: false, waitMs: 30_000, failures: 5 });
    // While the wait runs even the right PIN is not tried.
    expect(await tryPin(anna, "2468", 20_000)).toEqual({ ok: false, waitMs: 11_000, failures: 5 });
    expect(await tryPin(anna, "2468", 31_000)).toEqual({ ok: true, returnToken: "the-token" });
    expect((await deviceHandover(anna))?.tries).toEqual({ failures: 0, waitUntil: 0 });
  });

  it("keeps the text size and ends", async () => {
    const anna = await holderOf(1);
    await beginDeviceHandover(anna, kase, "2468", "t", 1000);
    await setHandoverTextSize(anna, 2);
    expect((await deviceHandover(anna))?.textSize).toBe(2);
    await endDeviceHandover(anna);
    expect(await deviceHandover(anna)).toBeNull();
    expect(await tryPin(anna, "2468")).toEqual({ ok: false, waitMs: 0, failures: 0 });
  });
});
