import { describe, expect, it } from "vitest";
import { makePinRecord, newReturnToken, openWithPin, returnTokenHash } from "./handover-pin";

// Few iterations keep the tests quick; the device uses PIN_ITERATIONS.
const FAST = 1000;

describe("the hand-over's PIN on the device", () => {
  it("opens the return token with the right PIN only", async () => {
    const token = newReturnToken();
    const record = await makePinRecord("2468", token, FAST);
    expect(await openWithPin(record, "2468")).toBe(token);
    expect(await openWithPin(record, "2469")).toBeNull();
    expect(await openWithPin(record, "")).toBeNull();
  });

  it("keeps neither the PIN nor the token plain, and salts each record anew", async () => {
    const token = newReturnToken();
    const a = await makePinRecord("2468", token, FAST);
    const b = await makePinRecord("2468", token, FAST);
    const kept = JSON.stringify(a);
    expect(kept).not.toContain("2468");
    expect(kept).not.toContain(token);
    expect(a.salt).not.toBe(b.salt);
    expect(a.hash).not.toBe(b.hash);
    expect(atob(a.hash)).toHaveLength(32);
  });

  it("refuses a record whose sealed token was changed", async () => {
    const record = await makePinRecord("1357", newReturnToken(), FAST);
    const bytes = Uint8Array.from(atob(record.sealedToken), (c) => c.charCodeAt(0));
    bytes[0] ^= 1;
    expect(await openWithPin({ ...record, sealedToken: btoa(String.fromCharCode(...bytes)) }, "1357")).toBeNull();
  });

  it("gives the server only the token's SHA-256", async () => {
    const token = newReturnToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await returnTokenHash(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(await returnTokenHash(token)).toBe(await returnTokenHash(token));
    expect(await returnTokenHash(token)).not.toBe(await returnTokenHash(newReturnToken()));
  });
});
