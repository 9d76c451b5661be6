import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DB } from "~/server/db/db.server";
import { follow, newBrowser, type Browser } from "~/server/idp/test-client.server";
import { dialects } from "../support/databases";
import { built, caller, createPostgresDatabase, killHard, serverEnv, startHealthy, type Running } from "./real-server";

/**
 * Signing a case at the embedded provider (docs/decisions/029-signed-close.md), on the production server and
 * both databases: "Sign" sends the person to the provider with prompt=login and max_age=0, which asks for the
 * password again although the provider's session lasts; the callback records the signature and closes the
 * case, leaving the session as it was. Another account at the provider, an authentication older than the
 * signing, and answers changed meanwhile are refused, and the case stays open.
 */

describe.each(dialects)("signing a case at the provider on %s", (kind) => {
  let server: Running;
  let db: DB;
  let drop: (() => Promise<unknown>) | undefined;
  let browser: Browser;
  let cookie: string;
  let survey: { id: number; textId: number };

  beforeAll(async () => {
    if (!built) throw new Error("These tests run the production build: run `npm run build` first.");
    const extra: Record<string, string> = { DEMO_DATA: "0" };
    if (kind === "postgres") {
      const database = await createPostgresDatabase();
      extra.DATABASE_URL = database.url;
      drop = database.drop;
    }
    server = await startHealthy(await serverEnv(extra));
    db = createDb({ dataDir: server.env.DATA_DIR, databaseUrl: extra.DATABASE_URL });
    // Signed in as a person is, through the provider's login page; the browser keeps the provider's session.
    browser = newBrowser();
    await follow(
      browser,
      `${server.url}/authentication/login?returnTo=%2Fsurveys`,
      `${server.url}/surveys`,
      () => new URLSearchParams({ username: "admin", password: "admin123" }),
    );
    cookie = browser.jar.header(`${server.url}/api/`);
    const call = caller(server.url, cookie);
    const made = await call("POST", "/surveys", { Title: "Signiert" });
    const category = await call("POST", "/categories", { SurveyId: made.Id, Title: "A" });
    const text = await call("POST", "/questions", {
      SurveyId: made.Id,
      CategoryId: category.Id,
      Title: "Befund",
      Type: "FreeText",
    });
    await call("PUT", `/surveys/${made.Id}`, { RequiresSignature: true });
    await call("POST", `/surveys/${made.Id}/approve`);
    survey = { id: made.Id as number, textId: text.Id as number };
  }, 120_000);

  afterAll(async () => {
    if (server) await killHard(server);
    await db?.destroy();
    await drop?.();
    if (server) fs.rmSync(server.env.DATA_DIR, { recursive: true, force: true });
  });

  async function filledCase(patientId: string) {
    const call = caller(server.url, cookie);
    await call("POST", `/patients/add?patientId=${patientId}&surveyId=${survey.id}`);
    await call("POST", "/question-responses/free-text", {
      PatientId: patientId,
      SurveyId: survey.id,
      QuestionId: survey.textId,
      TextResponse: `Befund ${patientId}`,
    });
  }

  /** "Sign" on the signing page: answers the provider's address the app sends the browser to. */
  async function pressSign(patientId: string, meaning = "author"): Promise<string> {
    const page = await browser.request(`${server.url}/survey/${survey.id}/sign/${patientId}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(patientId);
    expect(html).toContain('name="meaning"');
    const res = await browser.request(`${server.url}/survey/${survey.id}/sign/${patientId}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
      body: new URLSearchParams({ meaning }),
    });
    expect(res.status).toBe(302);
    return res.headers.get("location")!;
  }

  /** Goes through the provider: its login page must come, and is answered with these credentials. */
  async function atProvider(location: string, username: string) {
    let asked = 0;
    const outcome = await follow(browser, location, `${server.url}/survey/`, (html) => {
      if (!html.includes('name="password"')) return undefined;
      asked++;
      return new URLSearchParams({ username, password: `${username}123` });
    });
    return { asked, final: outcome.final };
  }

  const caseRow = (patientId: string) =>
    db
      .selectFrom("patient_data")
      .selectAll()
      .where("survey_id", "=", survey.id)
      .where("patient_id", "=", patientId)
      .executeTakeFirstOrThrow();
  const signaturesOf = async (patientId: string) =>
    db
      .selectFrom("case_signatures")
      .selectAll()
      .where("patient_data_id", "=", (await caseRow(patientId)).id)
      .execute();
  const appSessionOf = (header: string) => header.split("; ").find((c) => c.startsWith("sv_session="));
  const appSession = () => appSessionOf(browser.jar.header(`${server.url}/api/`));
  const currentUser = async () => {
    const res = await fetch(`${server.url}/api/users/current`, { headers: { cookie } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { FullName?: string; UserId?: string }).UserId;
  };

  it("asks for the password again although signed in, records the signature and closes the case", async () => {
    await filledCase("SIGN_1");
    const sessionsBefore = await db.selectFrom("sessions").select(["id", "data"]).execute();
    const location = await pressSign("SIGN_1", "approval");
    const url = new URL(location);
    expect(url.searchParams.get("prompt")).toBe("login");
    expect(url.searchParams.get("max_age")).toBe("0");
    expect(url.searchParams.get("nonce")).toBeTruthy();
    const started = Date.now();
    const { asked, final } = await atProvider(location, "admin");
    expect(asked).toBe(1);
    expect(final).toBe(`${server.url}/survey/${survey.id}/fill/SIGN_1?page=done`);
    expect((await caseRow("SIGN_1")).state).toBe("Closed");
    const [signature] = await signaturesOf("SIGN_1");
    expect(signature).toMatchObject({ meaning: "approval", signer_sub: "admin" });
    expect(Date.parse(signature!.auth_time)).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000 - 1000);
    // The session is the one it was: same row, same tokens, and it still works.
    expect(await db.selectFrom("sessions").select(["id", "data"]).execute()).toEqual(sessionsBefore);
    expect(appSession()).toBe(appSessionOf(cookie));
    expect(await currentUser()).toBe("admin");
    const sign = await db
      .selectFrom("audit_log")
      .select("after")
      .where("patient_data_id", "=", (await caseRow("SIGN_1")).id)
      .where("action", "=", "case.sign")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(sign.after!)).toMatchObject({ Meaning: "approval", AnswersHash: signature!.answers_hash });
    // The verifier of the survey's chain agrees.
    const verdict = await caller(server.url, cookie)("GET", `/audit-log/verify?surveyId=${survey.id}`);
    expect(verdict).toMatchObject({ Ok: true });
  });

  it("lets only the signed-in person confirm at the provider, and keeps the session", async () => {
    await filledCase("SIGN_OTHER");
    const sessionsBefore = await db.selectFrom("sessions").select(["id", "data"]).execute();
    let tries = 0;
    const outcome = await follow(browser, await pressSign("SIGN_OTHER"), `${server.url}/`, (html) => {
      if (!html.includes('name="password"') || tries++ > 0) return undefined;
      return new URLSearchParams({ username: "editor", password: "editor123" });
    });
    // The provider asks again, naming the person signed in there; nothing came back to the app.
    expect(outcome.page?.html).toContain("Bitte bestätigen Sie mit dem Passwort des angemeldeten Kontos");
    expect(outcome.page?.html).toContain('value="admin"');
    expect((await caseRow("SIGN_OTHER")).state).toBe("Open");
    expect(await db.selectFrom("sessions").select(["id", "data"]).execute()).toEqual(sessionsBefore);
    expect(await currentUser()).toBe("admin");
  });

  it("refuses a signing that another account signed in for, and keeps the session", async () => {
    await filledCase("SIGN_OTHER_2");
    const sessionsBefore = await db.selectFrom("sessions").select(["id", "data"]).execute();
    // A provider that lets someone else sign in (here: the other person, in a browser of their own).
    const location = await pressSign("SIGN_OTHER_2");
    const other = newBrowser();
    const { final: callback } = await follow(
      other,
      location,
      `${server.url}/authentication/login-callback`,
      () => new URLSearchParams({ username: "editor", password: "editor123" }),
    );
    const back = await browser.request(callback);
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe(`/survey/${survey.id}/sign/SIGN_OTHER_2?refused=otherAccount`);
    expect((await caseRow("SIGN_OTHER_2")).state).toBe("Open");
    expect(await signaturesOf("SIGN_OTHER_2")).toHaveLength(0);
    expect(await db.selectFrom("sessions").select(["id", "data"]).execute()).toEqual(sessionsBefore);
    expect(appSession()).toBe(appSessionOf(cookie));
    expect(await currentUser()).toBe("admin");
    const page = await browser.request(`${server.url}${back.headers.get("location")}`);
    expect(await page.text()).toContain('data-testid="sign-refused"');
  });

  it("refuses an authentication older than the signing", async () => {
    await filledCase("SIGN_STALE");
    const location = await pressSign("SIGN_STALE");
    // The provider's auth_time comes before the intent: as a provider that ignored prompt=login would answer.
    const state = new URL(location).searchParams.get("state")!;
    await db
      .updateTable("signing_intents")
      .set({ created_at: new Date(Date.now() + 60_000).toISOString() })
      .where("id", "=", state)
      .execute();
    const { final } = await atProvider(location, "admin");
    expect(final).toBe(`${server.url}/survey/${survey.id}/sign/SIGN_STALE?refused=stale`);
    expect((await caseRow("SIGN_STALE")).state).toBe("Open");
    expect(await signaturesOf("SIGN_STALE")).toHaveLength(0);
  });

  it("refuses a signing whose answers changed while the person was at the provider", async () => {
    await filledCase("SIGN_CHANGED");
    const location = await pressSign("SIGN_CHANGED");
    await caller(server.url, cookie)("POST", "/question-responses/free-text", {
      PatientId: "SIGN_CHANGED",
      SurveyId: survey.id,
      QuestionId: survey.textId,
      TextResponse: "geändert",
    });
    const { final } = await atProvider(location, "admin");
    expect(final).toBe(`${server.url}/survey/${survey.id}/sign/SIGN_CHANGED?refused=changed`);
    expect((await caseRow("SIGN_CHANGED")).state).toBe("Open");
    // Signing again with the answers as they are now succeeds.
    const again = await atProvider(await pressSign("SIGN_CHANGED"), "admin");
    expect(again.final).toBe(`${server.url}/survey/${survey.id}/fill/SIGN_CHANGED?page=done`);
    expect(await signaturesOf("SIGN_CHANGED")).toHaveLength(1);
  });

  it("uses an intent once: the callback replayed is refused", async () => {
    await filledCase("SIGN_TWICE");
    const location = await pressSign("SIGN_TWICE");
    let callback = "";
    await follow(browser, location, `${server.url}/authentication/login-callback`, (html) =>
      html.includes('name="password"') ? new URLSearchParams({ username: "admin", password: "admin123" }) : undefined,
    ).then((r) => (callback = r.final));
    const first = await browser.request(callback);
    expect(first.headers.get("location")).toBe(`/survey/${survey.id}/fill/SIGN_TWICE?page=done`);
    const second = await browser.request(callback);
    expect(second.headers.get("location")).toBe(`/survey/${survey.id}/sign/SIGN_TWICE?refused=expired`);
    expect(await signaturesOf("SIGN_TWICE")).toHaveLength(1);
  });

  it("refuses the plain close of such a case", async () => {
    await filledCase("SIGN_PLAIN");
    const res = await fetch(`${server.url}/api/patients/close?patientId=SIGN_PLAIN&surveyId=${survey.id}`, {
      method: "POST",
      headers: { cookie, origin: server.url },
    });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { Type: string }).Type).toBe("SIGNATURE_REQUIRED");
  });
});
