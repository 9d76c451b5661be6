import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  built,
  caller,
  killHard,
  linesOf,
  makeSurvey,
  serverEnv,
  signIn,
  startHealthy,
  type Running,
} from "./real-server";

/**
 * The app on the Node line running this test: the README's test command runs it on the suite's own line and
 * again on each other supported line (scripts/test-all.sh: `scripts/with-node.sh --line N`). Its embedded
 * defaults: SQLite (the native driver loaded by this Node), the embedded provider in its worker thread.
 */

describe(`the app on Node ${process.version}`, () => {
  let server: Running;

  beforeAll(async () => {
    if (!built) throw new Error("These tests run the production build: run `npm run build` first.");
    server = await startHealthy(await serverEnv({ LOG_LEVEL: "info" }));
  }, 90_000);

  afterAll(async () => {
    await killHard(server);
    fs.rmSync(server.env.DATA_DIR, { recursive: true, force: true });
  });

  it("starts, signs people in through the embedded provider, and takes one fill to its end", async () => {
    const admin = await signIn(server.url, "admin");
    const survey = await makeSurvey(caller(server.url, admin));
    const user = await signIn(server.url, "user");
    const call = caller(server.url, user);
    const patient = `NODE_${process.versions.node.split(".")[0]}`;
    await call("POST", `/patients/add?patientId=${patient}&surveyId=${survey.id}`);
    const page = await fetch(`${server.url}/survey/${survey.id}/fill/${patient}`, { headers: { cookie: user } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Q1");
    const base = { PatientId: patient, SurveyId: survey.id };
    await call("POST", "/question-responses/single-selection", {
      ...base,
      QuestionId: survey.singleId,
      AnswerOptionId: survey.optionId,
    });
    await call("POST", "/question-responses/free-text", { ...base, QuestionId: survey.textId, TextResponse: "gut" });
    await call("POST", `/patients/close?patientId=${patient}&surveyId=${survey.id}`);
    const answers = await call("GET", `/question-responses?patientId=${patient}&surveyId=${survey.id}`);
    expect(answers).toHaveLength(2);
    const latest = await call("GET", `/patients/latest?surveyId=${survey.id}`);
    expect(JSON.stringify(latest)).not.toContain(patient);
  });

  it("writes nothing but JSON lines on this Node", async () => {
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    const { json, other } = linesOf(server);
    expect(other).toEqual([]);
    expect(json.map((l) => l.msg)).toEqual(
      expect.arrayContaining(["db.ready", "idp.embedded", "listening", "stopped"]),
    );
  });
});
