import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formField } from "~/server/idp/test-client.server";
import { built, caller, killHard, serverEnv, signIn, startHealthy, type Running } from "./real-server";

/**
 * A page's form sent twice (a double click, a resubmitted form, a retry after an answer lost at the proxy)
 * creates once: each drawn page carries a key that its form sends back, and the writes carry it on.
 */

describe("page forms sent twice", () => {
  let server: Running;
  let cookie: string;

  beforeAll(async () => {
    if (!built) throw new Error("These tests run the production build: run `npm run build` first.");
    server = await startHealthy(await serverEnv({ DEMO_DATA: "0" }));
    cookie = await signIn(server.url, "admin");
  }, 90_000);

  afterAll(async () => {
    await killHard(server);
    fs.rmSync(server.env.DATA_DIR, { recursive: true, force: true });
  });

  const page = async (path: string) => {
    const res = await fetch(`${server.url}${path}`, { headers: { cookie } });
    expect(res.status, path).toBe(200);
    return res.text();
  };
  const post = (path: string, fields: Record<string, string>) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  const call = () => caller(server.url, cookie);

  it("creates one survey from the list's form sent twice, and another from the next drawn page", async () => {
    const count = async () => (await call()("GET", "/surveys")).Data.length as number;
    const before = await count();
    const formKey = formField(await page("/surveys"), "formKey");
    expect(formKey).toMatch(/^[0-9a-f]{32}$/);
    const [first, second] = await Promise.all([
      post("/surveys", { intent: "create", formKey: formKey! }),
      post("/surveys", { intent: "create", formKey: formKey! }),
    ]);
    expect(first.status).toBe(302);
    expect(second.status).toBe(302);
    expect(second.headers.get("location")).toBe(first.headers.get("location"));
    const third = await post("/surveys", { intent: "create", formKey: formKey! });
    expect(third.headers.get("location")).toBe(first.headers.get("location"));
    expect(await count()).toBe(before + 1);

    const next = formField(await page("/surveys"), "formKey");
    expect(next).not.toBe(formKey);
    await post("/surveys", { intent: "create", formKey: next! });
    expect(await count()).toBe(before + 2);
  });

  it("starts one case from the start form sent twice, also with a generated patient id", async () => {
    const api = call();
    const survey = await api("POST", "/surveys", { Title: "Doppelt" });
    await api("PUT", `/surveys/${survey.Id}`, { IsPatientIdAutoGenerationEnabled: true });
    const category = await api("POST", "/categories", { SurveyId: survey.Id, Title: "A" });
    await api("POST", "/questions", { SurveyId: survey.Id, CategoryId: category.Id, Title: "Q", Type: "FreeText" });
    await api("POST", `/surveys/${survey.Id}/approve`);
    const cases = async () => (await api("GET", `/patients/latest?count=10&surveyId=${survey.Id}`)).length as number;

    const formKey = formField(await page(`/survey/${survey.Id}`), "formKey");
    expect(formKey).toMatch(/^[0-9a-f]{32}$/);
    const sent = await Promise.all(
      [0, 1, 2].map(() => post(`/survey/${survey.Id}`, { patientId: "", formKey: formKey! })),
    );
    const targets = new Set(sent.map((r) => r.headers.get("location")));
    expect(sent.map((r) => r.status)).toEqual([302, 302, 302]);
    expect(targets.size).toBe(1);
    expect([...targets][0]).toMatch(new RegExp(`^/survey/${survey.Id}/fill/\\d{12}$`));
    expect(await cases()).toBe(1);

    // A fresh page gives a fresh key, and so a new case.
    const next = formField(await page(`/survey/${survey.Id}`), "formKey");
    const other = await post(`/survey/${survey.Id}`, { patientId: "", formKey: next! });
    expect(other.headers.get("location")).not.toBe([...targets][0]);
    expect(await cases()).toBe(2);
  });

  it("stores a file once from the fill page's form (without JavaScript) sent twice", async () => {
    const api = call();
    const survey = await api("POST", "/surveys", { Title: "Datei doppelt" });
    const category = await api("POST", "/categories", { SurveyId: survey.Id, Title: "A" });
    const question = await api("POST", "/questions", {
      SurveyId: survey.Id,
      CategoryId: category.Id,
      Title: "Befund",
      Type: "FreeText",
      AllowFileAttachments: true,
    });
    await api("POST", `/surveys/${survey.Id}/approve`);
    const added = await api("POST", `/patients/add?patientId=FILE_TWICE&surveyId=${survey.Id}`);

    const path = `/survey/${survey.Id}/fill/FILE_TWICE?page=questionnaire`;
    const formKey = formField(await page(path), "formKey");
    expect(formKey).toMatch(/^[0-9a-f]{32}$/);
    const send = () => {
      const form = new FormData();
      for (const [k, v] of Object.entries({
        intent: "savePage",
        go: "stay",
        formKey: formKey!,
        questionIds: String(question.Id),
      }))
        form.append(k, v);
      form.append(`f${question.Id}`, new File(["Befund vom Montag"], "befund.txt", { type: "text/plain" }));
      return fetch(`${server.url}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie, origin: server.url },
        body: form,
      });
    };
    const first = await send();
    const second = await send();
    // Both go on as saved: the second is answered as the first, not refused as a file already there.
    expect([first.status, second.status]).toEqual([302, 302]);
    const counts = await api("GET", `/file-attachments/count?patientDataId=${added.PatientDataId}`);
    expect(counts).toEqual([{ QuestionId: question.Id, NumberOfFileAttachment: 1 }]);
  });
});
