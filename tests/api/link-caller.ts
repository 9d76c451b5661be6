import { afterAll, beforeAll, beforeEach } from "vitest";
import { LINK_COOKIE } from "~/server/api/link-routes.server";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { openLink } from "~/server/services/links/open.server";
import { addressTries, linkOpenings } from "~/server/services/links/rate-limit.server";
import type { FillWorld } from "./fill-support";

/**
 * A test file's provider, and the links' rate limits cleared before each test (they are kept in the process,
 * and a file's tests open links from the same addresses). Returns the provider, for useFillWorld.
 */
export function linkTestProvider(): () => TestIdp {
  let idp: TestIdp;
  beforeAll(async () => {
    idp = await createTestIdp();
  });
  afterAll(async () => {
    await idp.dispose();
  });
  beforeEach(() => {
    addressTries.clear();
    linkOpenings.clear();
  });
  return () => idp;
}

/**
 * A patient's link as its caller (docs/decisions/057-patient-links.md): opened from `address`, then calls under
 * /l/api with the cookie the opening set, from the app's own origin.
 */
export async function asPatient(w: FillWorld, token: string, address = "10.0.0.1") {
  const opened = await openLink(w.db, { token }, address);
  if (opened.kind !== "open") throw new Error(`the link is ${opened.kind}`);
  return (method: string, path: string, body?: unknown) =>
    w.api.ctx.api.request(`http://localhost:3000/l/api${path}`, {
      method,
      headers: {
        cookie: `${LINK_COOKIE}=${opened.session}`,
        origin: w.api.ctx.env.publicUrl,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
}
