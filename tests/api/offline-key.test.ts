import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { holderTag } from "~/server/services/offline-holder.server";
import { json, useFillWorld } from "./fill-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

/** The key a person's offline work on a device is sealed with (docs/decisions/048-shared-device.md). */
describe("GET /users/current/offline-key", () => {
  const world = useFillWorld("sqlite", () => idp);
  const keyOf = async (who: "user" | "editor") => {
    const res = await world().raw(who, "GET", "/users/current/offline-key");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    return json<{ KeyId: string; Key: string }>(res);
  };

  it("gives each person a key of their own, the same every time, and nobody's to a caller without sign-in", async () => {
    const [first, again, other] = [await keyOf("user"), await keyOf("user"), await keyOf("editor")];
    expect(again).toEqual(first);
    expect(other.Key).not.toBe(first.Key);
    expect(other.KeyId).not.toBe(first.KeyId);
    expect(Buffer.from(first.Key, "base64url")).toHaveLength(32);
    // The tag names stores on a device and the page the server renders for that person; nothing more.
    expect(first.KeyId).toMatch(/^[0-9a-f]{24}$/);
    expect(first.KeyId).not.toContain("user");
    expect(holderTag(world().api.ctx.env, "user")).toBe(first.KeyId);
    expect((await world().raw("nobody", "GET", "/users/current/offline-key")).status).toBe(401);
  });
});
