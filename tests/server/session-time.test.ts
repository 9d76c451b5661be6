import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DB } from "~/server/db/db.server";
import { built, caller, killHard, makeSurvey, serverEnv, signIn, startHealthy, type Running } from "./real-server";

/**
 * A working day compressed: access tokens that live 5 s, and a person who keeps working across several of
 * their lifetimes through the pages, the API with the session cookie and the answer saves. Then a renewal
 * that the provider refuses: every path treats the session as ended alike.
 */

const TOKEN_SECONDS = 5;

describe("a session across many access-token lifetimes", () => {
  let server: Running;
  let db: DB;

  beforeAll(async () => {
    if (!built) throw new Error("These tests run the production build: run `npm run build` first.");
    server = await startHealthy(
      await serverEnv({ DEMO_DATA: "0", IDP_ACCESS_TOKEN_TTL_SECONDS: String(TOKEN_SECONDS) }),
    );
    db = createDb({ dataDir: server.env.DATA_DIR });
  }, 90_000);

  afterAll(async () => {
    await killHard(server);
    await db?.destroy();
    fs.rmSync(server.env.DATA_DIR, { recursive: true, force: true });
  });

  const page = (cookie: string, path: string) =>
    fetch(`${server.url}${path}`, { headers: { cookie }, redirect: "manual" });
  const answer = (cookie: string, survey: { id: number; textId: number }, patientId: string, text: string) =>
    fetch(`${server.url}/api/question-responses/free-text`, {
      method: "POST",
      headers: { cookie, origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({
        PatientId: patientId,
        SurveyId: survey.id,
        QuestionId: survey.textId,
        TextResponse: text,
      }),
    });
  const sessionRows = async () =>
    (await db.selectFrom("sessions").select(["id", "data", "expires_at"]).execute()).map((r) => ({
      ...r,
      data: JSON.parse(r.data) as { accessToken: string; accessTokenExpiresAt: number; surveyUserDataId: number },
    }));

  it("keeps pages, API calls and answer saves working while tokens come and go", async () => {
    const cookie = await signIn(server.url, "admin");
    const call = caller(server.url, cookie);
    const survey = await makeSurvey(call);
    await call("POST", `/patients/add?patientId=SHIFT_1&surveyId=${survey.id}`);
    const [before] = await sessionRows();
    const tokens = new Set<string>();
    const until = Date.now() + TOKEN_SECONDS * 1000 * 3.5;
    for (let n = 0; Date.now() < until; n++) {
      const list = await page(cookie, "/surveys");
      expect(list.status, `list page, round ${n}`).toBe(200);
      expect((await page(cookie, `/survey/${survey.id}/fill/SHIFT_1`)).status, `fill page, round ${n}`).toBe(200);
      expect((await fetch(`${server.url}/api/users/current`, { headers: { cookie } })).status).toBe(200);
      expect((await answer(cookie, survey, "SHIFT_1", `round ${n}`)).status, `answer, round ${n}`).toBe(200);
      for (const row of await sessionRows()) tokens.add(row.data.accessToken);
      await new Promise((r) => setTimeout(r, 1500));
    }
    // At least three renewals, and the session's end stayed where the sign-in put it.
    expect(tokens.size).toBeGreaterThanOrEqual(4);
    const [after] = await sessionRows();
    expect(after.id).toBe(before.id);
    expect(after.expires_at).toBe(before.expires_at);
  }, 60_000);

  async function refuseNextRenewal() {
    const rows = await sessionRows();
    for (const row of rows) {
      const data = { ...row.data, refreshToken: "revoked-by-the-provider", renewAfter: Date.now() - 1 };
      await db
        .updateTable("sessions")
        .set({ data: JSON.stringify(data) })
        .where("id", "=", row.id)
        .execute();
    }
  }

  it("treats a session whose renewal was refused as ended on every path, whichever meets it first", async () => {
    await db.deleteFrom("sessions").execute();
    const cookie = await signIn(server.url, "admin");
    const call = caller(server.url, cookie);
    const survey = await makeSurvey(call);
    await call("POST", `/patients/add?patientId=END_1&surveyId=${survey.id}`);
    // Past the API's few seconds of remembered credentials.
    await new Promise((r) => setTimeout(r, 5_500));

    // The browser's answer save meets it first.
    await refuseNextRenewal();
    const save = await answer(cookie, survey, "END_1", "after the end");
    expect(save.status).toBe(401);
    expect(await save.json()).toMatchObject({ Type: "UNAUTHORIZED" });
    expect((await page(cookie, "/surveys")).headers.get("location")).toBe("/401");
    expect((await fetch(`${server.url}/api/users/current`, { headers: { cookie } })).status).toBe(401);
    expect(await sessionRows()).toHaveLength(0);

    // A page meets it first.
    const again = await signIn(server.url, "admin");
    await new Promise((r) => setTimeout(r, 5_500));
    await refuseNextRenewal();
    expect((await page(again, "/surveys")).headers.get("location")).toBe("/401");
    expect((await fetch(`${server.url}/api/users/current`, { headers: { cookie: again } })).status).toBe(401);
    expect((await answer(again, survey, "END_1", "after the end")).status).toBe(401);
  }, 60_000);

  it("ends the earlier session when the same browser signs in again", async () => {
    await db.deleteFrom("sessions").execute();
    const first = await signIn(server.url, "user");
    expect(await sessionRows()).toHaveLength(1);
    // Signing in again from that browser (its session cookie still sent) leaves only the new session.
    const { follow, newBrowser } = await import("~/server/idp/test-client.server");
    const browser = newBrowser();
    const session = first.split("; ").find((pair) => pair.startsWith("sv_session="))!;
    browser.jar.store(new Response(null, { headers: { "set-cookie": `${session}; Path=/` } }));
    await follow(
      browser,
      `${server.url}/authentication/login?returnTo=%2Fsurveys`,
      `${server.url}/surveys`,
      () => new URLSearchParams({ username: "user", password: "user123" }),
    );
    const rows = await sessionRows();
    expect(rows).toHaveLength(1);
    expect((await fetch(`${server.url}/api/users/current`, { headers: { cookie: first } })).status).toBe(401);
  }, 30_000);
});
