import crypto from "node:crypto";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { follow, newBrowser, type Browser } from "~/server/idp/test-client.server";
import { built, caller, killHard, serverEnv, startHealthy, type Running } from "./real-server";

/**
 * The way back from a hand-over when the PIN is forgotten (docs/decisions/058-hand-over.md), on the production
 * server: "Sign in again" sends the staff member to the provider with prompt=login and max_age=0 for their own
 * account; their fresh sign-in ends the hand-over on the session, another account's is refused and the
 * patient's mode stays.
 */
describe("the hand-over's way back by a fresh sign-in", () => {
  let server: Running;
  let browser: Browser;
  let surveyId: number;

  const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex");
  const cookie = () => browser.jar.header(`${server.url}/api/`);
  const api = (method: string, path: string) =>
    fetch(`${server.url}/api${path}`, { method, headers: { cookie: cookie(), origin: server.url } });

  beforeAll(async () => {
    if (!built) throw new Error("These tests run the production build: run `npm run build` first.");
    server = await startHealthy(await serverEnv({ DEMO_DATA: "0" }));
    browser = newBrowser();
    await follow(
      browser,
      `${server.url}/authentication/login?returnTo=%2Fsurveys`,
      `${server.url}/surveys`,
      () => new URLSearchParams({ username: "admin", password: "admin123" }),
    );
    const call = caller(server.url, cookie());
    const made = await call("POST", "/surveys", { Title: "Übergabe" });
    const category = await call("POST", "/categories", { SurveyId: made.Id, Title: "A" });
    await call("POST", "/questions", { SurveyId: made.Id, CategoryId: category.Id, Title: "Befund", Type: "FreeText" });
    await call("POST", `/surveys/${made.Id}/approve`);
    surveyId = made.Id as number;
  }, 120_000);

  afterAll(async () => {
    if (server) await killHard(server);
    if (server) fs.rmSync(server.env.DATA_DIR, { recursive: true, force: true });
  });

  /** A case handed over to the patient: staff's pages answer with the patient's page. */
  async function handOver(patientId: string) {
    const call = caller(server.url, cookie());
    await call("POST", `/patients/add?patientId=${patientId}&surveyId=${surveyId}`);
    await call("POST", "/handover/start", { SurveyId: surveyId, PatientId: patientId, ReturnHash: sha256("token") });
    const list = await browser.request(`${server.url}/surveys`);
    expect(list.status).toBe(302);
    expect(list.headers.get("location")).toBe(`/survey/${surveyId}/fill/${patientId}`);
  }

  /** "Sign in again" on the way back's page: answers the provider's address. */
  async function pressSignIn(): Promise<string> {
    const page = await browser.request(`${server.url}/handover/return`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-testid="handover-sign-in"');
    const res = await browser.request(`${server.url}/handover/return`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
      body: "",
    });
    expect(res.status).toBe(302);
    return res.headers.get("location")!;
  }

  it("ends the hand-over after the same person's fresh sign-in, and opens the case for staff", async () => {
    await handOver("HR_1");
    const location = await pressSignIn();
    const url = new URL(location);
    expect(url.searchParams.get("prompt")).toBe("login");
    expect(url.searchParams.get("max_age")).toBe("0");
    expect(url.searchParams.get("login_hint")).toBe("admin");
    expect(url.searchParams.get("nonce")).toBeTruthy();
    expect(url.searchParams.has("signing_patient")).toBe(false);
    let asked = 0;
    const { final } = await follow(browser, location, `${server.url}/handover/return?`, (html) => {
      if (!html.includes('name="password"')) return undefined;
      asked++;
      return new URLSearchParams({ username: "admin", password: "admin123" });
    });
    // The provider asked for the password again although its session lasts.
    expect(asked).toBe(1);
    const fill = `/survey/${surveyId}/fill/HR_1`;
    expect(final).toBe(`${server.url}/handover/return?returned=${encodeURIComponent(fill)}`);
    expect(await (await api("GET", "/handover/current")).json()).toBeNull();
    expect((await api("GET", "/surveys?take=5&skip=0")).status).toBe(200);
    // The case's history names the hand-over and its end by the fresh sign-in (decision 058).
    const history = (await (
      await api("GET", `/audit-log/case-history?surveyId=${surveyId}&patientId=HR_1`)
    ).json()) as {
      Events: { Action: string; EndedBy?: string }[];
    };
    expect(history.Events.map((e) => [e.Action, e.EndedBy ?? null])).toEqual([
      ["handover.start", null],
      ["handover.end", "signIn"],
    ]);
    // The page that ends the device's record and then opens the case for staff.
    const page = await browser.request(final);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-testid="handover-returning"');
    expect((await browser.request(`${server.url}/surveys`)).status).toBe(200);
  });

  it("refuses another account's sign-in: the patient's mode stays", async () => {
    await handOver("HR_OTHER");
    const location = await pressSignIn();
    // A provider that lets someone else sign in (here: the other person, in a browser of their own).
    const other = newBrowser();
    const { final: callback } = await follow(
      other,
      location,
      `${server.url}/authentication/login-callback`,
      () => new URLSearchParams({ username: "editor", password: "editor123" }),
    );
    const back = await browser.request(callback);
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe("/handover/return?refused=otherAccount");
    expect(await (await api("GET", "/handover/current")).json()).toEqual({ SurveyId: surveyId, PatientId: "HR_OTHER" });
    expect((await api("GET", "/surveys?take=5&skip=0")).status).toBe(403);
    const page = await browser.request(`${server.url}/handover/return?refused=otherAccount`);
    expect(await page.text()).toContain('data-testid="handover-return-refused"');
    // The sign-in is tried once: its answer again does not end the mode either.
    await browser.request(callback);
    expect((await api("GET", "/surveys?take=5&skip=0")).status).toBe(403);
    // Without the fresh sign-in nothing but the case and the way back answers.
    expect((await browser.request(`${server.url}/authentication/login`)).headers.get("location")).toBe(
      `/survey/${surveyId}/fill/HR_OTHER`,
    );
  });
});
