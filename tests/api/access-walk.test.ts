import { isDeepStrictEqual } from "node:util";
import { generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { responseSchemaOf } from "~/contracts/contract";
import { apiRoutes } from "~/server/api/app.server";
import { newBrowser } from "~/server/idp/test-client.server";
import { AUDIENCE, createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { startApi } from "../support/api";
import { dialects } from "../support/databases";
import { endpoints, send, splitRoute, type Endpoint } from "./endpoint-table";
import { buildWorld, type World } from "./endpoint-world";

/**
 * Every endpoint for every demo role, with the survey's teams open to all and restricted to one team, and
 * for callers who hold no valid credentials of this product: none at all, a token of another issuer, a
 * token of this issuer for another audience (the ID token), and one signed with a stranger's key. Every
 * JSON answer given is also checked against the endpoint's declared response schema.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe("the endpoint table", () => {
  it("has exactly one row per endpoint of the router", () => {
    const declared = apiRoutes.map((r) => `${r.method.toUpperCase()} ${r.path}`).sort();
    const rows = endpoints.map((e) => e.route).sort();
    expect(new Set(rows).size, "a route is listed twice").toBe(rows.length);
    expect(rows).toEqual(declared);
  });
});

type Column = "editor" | "approver" | "admin" | "user" | "outsider" | "newcomer" | Stranger;
type Stranger = "anonymous" | "otherIssuer" | "otherAudience" | "forged";
const strangers: Stranger[] = ["anonymous", "otherIssuer", "otherAudience", "forged"];
const columns: Column[] = ["editor", "approver", "admin", "user", "outsider", "newcomer", ...strangers];

/** The routes that answer a person who has not accepted the terms of service yet. */
const beforeTerms = new Set(apiRoutes.filter((r) => r.beforeTerms).map((r) => `${r.method.toUpperCase()} ${r.path}`));

/** What each column should get from an endpoint; `team` set means the survey leaves editor and approver out. */
function expected(e: Endpoint, team: string | null): Record<Column, number> {
  const out = {} as Record<Column, number>;
  for (const c of columns) {
    if (e.public) out[c] = e.access.admin;
    else if (strangers.includes(c as Stranger)) out[c] = 401;
    else if (c === "outsider") out[c] = 403;
    // Before accepting the terms a person reads only their own record, as a plain user would.
    else if (c === "newcomer") out[c] = beforeTerms.has(e.route) ? e.access.user : 403;
    else if (team && !e.global && (c === "editor" || c === "approver") && !(e.byRole && e.access[c] === 403)) {
      out[c] = 404;
    } else out[c] = e.access[c as keyof Endpoint["access"]];
  }
  return out;
}

async function strangerTokens(issuer: string): Promise<Record<Stranger, string | null>> {
  const claims = {
    roles: ["SsiUser", "SsiEditor", "SsiApprover"],
    teams: ["Studienzentrum"],
    tos_accepted: true,
    name: "M",
  };
  const { privateKey } = await generateKeyPair("RS256");
  const sign = (iss: string) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256", kid: "stranger" })
      .setIssuer(iss)
      .setAudience(AUDIENCE)
      .setSubject("admin")
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);
  return {
    anonymous: null,
    otherIssuer: await sign("https://idp.stranger.example"),
    otherAudience: (await idp.signIn(newBrowser(), "admin")).id_token,
    forged: await sign(issuer),
  };
}

describe.each(dialects)("access walk on %s", (kind) => {
  for (const team of [null, "Station 3A"]) {
    describe(team ? `surveys restricted to ${team}` : "surveys open to all teams", () => {
      let w: World;
      let foreign: Record<Stranger, string | null>;
      beforeAll(async () => {
        const api = await startApi(kind, { idp });
        w = await buildWorld(api, team);
        foreign = await strangerTokens(idp.issuer);
      });
      afterAll(async () => {
        await w?.api.close();
      });

      for (const e of endpoints) {
        it(e.route, async () => {
          const { method } = splitRoute(e.route);
          const route = apiRoutes.find((r) => `${r.method.toUpperCase()} ${r.path}` === e.route);
          const got = {} as Record<Column, number>;
          for (const c of columns) {
            const token = strangers.includes(c as Stranger)
              ? foreign[c as Stranger]
              : w.tokens[c as keyof World["tokens"]];
            const res = await send(w, method, await e.probe(w), token ? { authorization: `Bearer ${token}` } : {});
            got[c] = res.status;
            if (res.status >= 400) {
              const body = await res.json();
              expect(body, `${c}: ${JSON.stringify(body)}`).toEqual({
                Type: expect.any(String),
                Error: expect.any(String),
              });
            } else if (
              route &&
              responseSchemaOf(route, res.status) &&
              res.headers.get("content-type")?.startsWith("application/json")
            ) {
              // The answer has its declared schema's shape exactly (the schema of its status): parsing it would
              // change nothing, which is what lets the pages take the in-process API's answers unparsed
              // (api-client.server.ts).
              const body: unknown = await res.json();
              const parsed = responseSchemaOf(route, res.status)!.safeParse(body);
              expect(parsed.error?.issues, `${c}: ${e.route}`).toBeUndefined();
              expect(isDeepStrictEqual(parsed.data, body), `${c}: ${e.route} answers beyond its schema`).toBe(true);
            } else await res.arrayBuffer();
          }
          expect(got).toEqual(expected(e, team));
        });
      }
    });
  }
});
