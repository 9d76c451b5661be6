import { SignJWT, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { startApi, type ApiHarness } from "../support/api";
import { dialects } from "../support/databases";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe.each(dialects)("foundation API on %s", (kind) => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi(kind, { idp });
  });
  afterAll(async () => {
    await api.close();
  });

  it("GET /health answers without sign-in", async () => {
    const res = await api.call("GET", "/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ Status: "Healthy" });
  });

  it("refuses a call without credentials with the error envelope", async () => {
    const res = await api.call("GET", "/users/current");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ Type: "UNAUTHORIZED", Error: expect.any(String) });
  });

  it("refuses a malformed, forged or foreign token", async () => {
    expect((await api.call("GET", "/users/current", { headers: { authorization: "Basic abc" } })).status).toBe(401);
    expect((await api.call("GET", "/users/current", { token: "not.a.jwt" })).status).toBe(401);
    const { privateKey } = await generateKeyPair("RS256");
    const forged = await new SignJWT({ roles: ["SsiEditor", "SsiUser"], name: "Mallory" })
      .setProtectedHeader({ alg: "RS256", kid: "forged" })
      .setIssuer(idp.issuer)
      .setAudience("survey-api")
      .setSubject("editor")
      .setExpirationTime("5m")
      .sign(privateKey);
    expect((await api.call("GET", "/users/current", { token: forged })).status).toBe(401);
  });

  it("GET /users/current describes the editor from the token's claims", async () => {
    const res = await api.call("GET", "/users/current", { token: await api.token("editor") });
    expect(res.status).toBe(200);
    const me = await res.json();
    expect(me).toMatchObject({
      FullName: "Dr. Anna Schneider",
      Institute: "Universitätsklinikum Musterstadt, Kardiologie",
      UserId: "editor",
      Culture: "de-DE",
      HasAcceptedTos: true,
      SurveyAccessRoles: ["SsiEditor"],
      Teams: [{ Id: expect.any(Number), Name: "Studienzentrum" }],
    });
    expect(me.SurveyUserDataId).toBeGreaterThan(0);
  });

  it("the admin has both roles; a plain user has none", async () => {
    const admin = await (await api.call("GET", "/users/current", { token: await api.token("admin") })).json();
    expect(admin.SurveyAccessRoles).toEqual(["SsiEditor", "SsiApprover"]);
    const user = await (await api.call("GET", "/users/current", { token: await api.token("user") })).json();
    expect(user.SurveyAccessRoles).toEqual([]);
  });

  it("refuses the outsider (403); tells the newcomer the terms are pending and refuses the rest until then", async () => {
    const outsider = await api.call("GET", "/users/current", { token: await api.token("outsider") });
    expect(outsider.status).toBe(403);
    expect((await outsider.json()).Type).toBe("FORBIDDEN");
    const token = await api.token("newcomer");
    // An API client learns from this answer that it has to send the person to the terms page.
    const me = await api.call("GET", "/users/current", { token });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ UserId: "newcomer", FullName: "Laura Fischer", HasAcceptedTos: false });
    // The same credentials, from the cache of recent callers or not, open nothing else.
    for (const [method, path] of [
      ["GET", "/surveys"],
      ["GET", "/teams"],
      ["POST", "/users/current/culture?culture=en-US"],
    ] as const) {
      const refused = await api.call(method, path, { token });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect((await refused.json()).Type).toBe("TOS_NOT_ACCEPTED");
    }
    expect((await api.call("GET", "/users/current", { token })).status).toBe(200);
  });

  it("POST /users/current/culture validates, persists and audits the language", async () => {
    const token = await api.token("approver");
    const bad = await api.call("POST", "/users/current/culture?culture=fr-FR", { token });
    expect(bad.status).toBe(400);
    expect((await bad.json()).Type).toBe("VALIDATION_ERROR");
    const missing = await api.call("POST", "/users/current/culture", { token });
    expect(missing.status).toBe(400);

    const ok = await api.call("POST", "/users/current/culture?culture=en-US", { token });
    expect(ok.status).toBe(204);
    const me = await (await api.call("GET", "/users/current", { token })).json();
    expect(me.Culture).toBe("en-US");
    const rows = await api.testDb.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "user.culture")
      .where("actor_user_id", "=", me.SurveyUserDataId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0].after!)).toEqual({ Culture: "en-US" });
  });

  it("GET /teams lists the teams named in claims; GET /tags lists tags", async () => {
    const token = await api.token("admin");
    const teams = await (await api.call("GET", "/teams", { token })).json();
    expect(teams.map((t: { Name: string }) => t.Name)).toEqual(
      expect.arrayContaining(["Station 3A", "Studienzentrum"]),
    );
    await api.testDb.db.insertInto("tags").values({ name: "Kardiologie" }).execute();
    const tags = await (await api.call("GET", "/tags", { token })).json();
    expect(tags).toEqual([{ Id: expect.any(Number), Name: "Kardiologie" }]);
  });

  it("accepts the session cookie for the app's own pages and refuses it cross-site", async () => {
    const token = await api.token("user");
    const identity = await api.ctx.verifyToken(token);
    const storage = api.ctx.sessions.forRequest(new Request("http://localhost:3000/"));
    const session = await storage.getSession();
    session.set("identity", identity);
    session.set("surveyUserDataId", 1);
    session.set("accessToken", token);
    session.set("accessTokenExpiresAt", Date.now() + 60_000);
    const cookie = (await storage.commitSession(session)).split(";")[0];

    const read = await api.call("GET", "/users/current", { headers: { cookie } });
    expect(read.status).toBe(200);
    const sameSite = await api.call("POST", "/users/current/culture?culture=de-DE", {
      headers: { cookie, origin: "http://localhost:3000" },
    });
    expect(sameSite.status).toBe(204);
    const crossSite = await api.call("POST", "/users/current/culture?culture=de-DE", {
      headers: { cookie, origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    const noOrigin = await api.call("POST", "/users/current/culture?culture=de-DE", { headers: { cookie } });
    expect(noOrigin.status).toBe(403);
  });

  it("answers unknown endpoints and oversized bodies with the envelope", async () => {
    const token = await api.token("user");
    const missing = await api.call("GET", "/no-such-thing", { token });
    expect(missing.status).toBe(404);
    expect((await missing.json()).Type).toBe("NOT_FOUND");
    const huge = await api.call("POST", "/users/current/culture?culture=de-DE", {
      token,
      body: JSON.stringify({ pad: "x".repeat(1_100_000) }),
      headers: { "content-length": String(1_100_012) },
    });
    expect(huge.status).toBe(413);
  });

  it("publishes an OpenAPI document made from the schemas", async () => {
    const doc = await (await api.call("GET", "/openapi.json")).json();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/health", "/users/current", "/users/current/culture", "/teams", "/tags"]),
    );
    const culture = doc.paths["/users/current/culture"].post.parameters[0];
    expect(culture).toMatchObject({ name: "culture", in: "query", required: true });
    expect(culture.schema.enum).toEqual(["de-DE", "en-US"]);
    const user = doc.paths["/users/current"].get.responses["200"].content["application/json"].schema;
    expect(user.$ref).toBe("#/components/schemas/User");
    expect(doc.components.schemas.User.properties).toHaveProperty("SurveyAccessRoles");
  });

  it("lists each operation's error answers by status and type, and the Idempotency-Key of creating writes", async () => {
    const doc = await (await api.call("GET", "/openapi.json")).json();
    const add = doc.paths["/patients/add"].post;
    expect(Object.keys(add.responses)).toEqual(["201", "400", "401", "403", "404", "409", "413", "422", "500", "503"]);
    expect(add.responses.default).toBeUndefined();
    const conflict = add.responses["409"].content["application/json"].schema.allOf[1].properties.Type.enum;
    expect(conflict).toEqual(
      expect.arrayContaining(["SURVEY_ALREADY_CLOSED", "SURVEY_PATIENTID_EXISTS", "SURVEY_INVALID_STATUS"]),
    );
    expect(add.responses["422"].description).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(add.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "Idempotency-Key", in: "header" })]),
    );
    // Only the signed-in person's own record answers before the terms are accepted.
    const current = doc.paths["/users/current"].get.responses["403"].content["application/json"].schema;
    expect(current.allOf[1].properties.Type.enum).toEqual(["FORBIDDEN"]);
    const surveys = doc.paths["/surveys"].get.responses["403"].content["application/json"].schema;
    expect(surveys.allOf[1].properties.Type.enum).toEqual(expect.arrayContaining(["FORBIDDEN", "TOS_NOT_ACCEPTED"]));
    const health = doc.paths["/health"].get;
    expect(Object.keys(health.responses)).toEqual(["200", "500", "503"]);
    const upload = doc.paths["/file-attachments/upload"].post.responses["406"].description;
    expect(upload).toContain("SURVEY_ATTACHMENTS_TOO_LARGE");
  });
});
