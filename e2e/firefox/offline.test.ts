import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { caller, signIn as signInOverHttp, type Call } from "../../tests/server/real-server";
import { Gate } from "../gate";
import { png } from "../images";
import { element, launchFirefox, setBrowserOffline, until, type Firefox } from "./firefox";
import {
  attach,
  choose,
  fieldValue,
  isChosen,
  rowMenu,
  rowState,
  settled,
  shows,
  signIn,
  startCase,
  submitSurvey,
  typeAnswer,
} from "./steps";

/**
 * Offline in Firefox ESR: a survey with every question kind is downloaded; without a network (Firefox in
 * its offline state, and a gate in front of the server that refuses every connection, the service worker's
 * too; no HTTP cache) a case is started, answered, reloaded in the middle and sent; back online it syncs,
 * and the server holds every answer once, and the file.
 */

const app = inject("appUrl");
const port = inject("appPort");
const MARKERS = [
  { Text: "Kopf", X: 0.5, Y: 0.1 },
  { Text: "Knie", X: 0.75, Y: 0.4 },
];

let firefox: Firefox;
let gate: Gate;
let admin: Call;
let file: string;
let surveyId: number;
const title = `Firefox offline ${Date.now()}`;
const questions: Record<string, { id: number; options: Record<string, number> }> = {};

/** A published survey with one question of each kind, made through the API. */
async function surveyOfEveryKind() {
  const survey = await admin<{ Id: number }>("POST", "/surveys", { Title: title });
  const category = await admin<{ Id: number }>("POST", "/categories", { SurveyId: survey.Id, Title: "Teil 1" });
  const add = async (Title: string, Type: string, answers: string[] = [], extra: object = {}) => {
    const q = await admin<{ Id: number }>("POST", "/questions", {
      SurveyId: survey.Id,
      CategoryId: category.Id,
      Title,
      Type,
      ...extra,
    });
    const options: Record<string, number> = {};
    for (const Text of answers) {
      options[Text] = (
        await admin<{ Id: number }>("POST", "/answer-options", { SurveyId: survey.Id, QuestionId: q.Id, Text })
      ).Id;
    }
    questions[Title] = { id: q.Id, options };
  };
  await add("Befinden", "SingleSelection", ["gut", "schlecht"]);
  await add("Beschwerden", "MultipleSelection", ["Husten", "Fieber", "Schwindel"]);
  await add("Vorerkrankungen", "MultipleChoice", ["Diabetes", "Asthma"]);
  await add("Befund", "FreeText", [], { AllowFileAttachments: true });
  await add("Puls", "Numerical");
  await add("Zeitpunkt", "DateTime");
  await add("Wo schmerzt es?", "Image", [], {
    ImageSrc: `data:image/png;base64,${png(480, 320).toString("base64")}`,
    AnswerOptions: MARKERS,
  });
  await admin("POST", `/surveys/${survey.Id}/approve`);
  const detail = await admin<{
    Categories: { Questions: { Id: number; AnswerOptions: { Id: number; Title?: string }[] }[] }[];
  }>("GET", `/surveys/${survey.Id}`);
  const image = detail.Categories[0]!.Questions.find((q) => q.Id === questions["Wo schmerzt es?"]!.id)!;
  for (const o of image.AnswerOptions) questions["Wo schmerzt es?"]!.options[o.Title!] = o.Id;
  return survey.Id;
}

const atGate = (p: string) => `http://localhost:${gate.port}${p}`;

async function goOffline() {
  gate.cut();
  await setBrowserOffline(firefox.browser, true);
}

async function goOnline() {
  gate.restore();
  await setBrowserOffline(firefox.browser, false);
}

describe("Firefox ESR: offline fill with a reload, then the sync", () => {
  beforeAll(async () => {
    admin = caller(app, await signInOverHttp(app, "admin"));
    surveyId = await surveyOfEveryKind();
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "firefox-files-")), "befund.png");
    fs.writeFileSync(file, png());
    gate = new Gate(port);
    await gate.start();
    firefox = await launchFirefox();
  });

  afterAll(async () => {
    await firefox?.close();
    await gate?.stop();
    if (file) fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it("answers every kind offline, across a reload, and the server gets each answer once", async () => {
    const { page } = firefox;
    // Signed in at the app's own address; the session cookie goes to the gate's port too.
    await signIn(page, app, "admin");
    await page.goto(atGate("/surveys"));
    await rowMenu(page, title, "Für offline herunterladen");
    await until(
      page,
      "the survey downloaded",
      (t) => {
        const row = Array.from(document.querySelectorAll('[data-testid="survey-row"]')).find(
          (r) => window.__ff.norm(r.querySelector(".row__title")?.textContent) === t,
        );
        return !!row?.querySelector('[data-testid="row-ready"]');
      },
      title,
    );

    await goOffline();
    await page.reload();
    await element(page, "the offline indicator", () => document.querySelector(".net--offline"));
    expect(await rowState(page, title)).toMatchObject({ downloaded: true, disabled: false });
    // A survey not downloaded cannot be opened offline.
    expect(await rowState(page, "Herzinsuffizienz – Verlaufsbogen")).toMatchObject({
      downloaded: false,
      disabled: true,
    });
    await rowMenu(page, title, "Umfrage ausfüllen");
    const patientId = `FF_OFF_${Date.now()}`;
    await startCase(page, patientId);
    await element(page, "the offline notice", () => document.querySelector('[data-testid="fill-offline-notice"]'));

    await choose(page, "Befinden", "gut");
    await choose(page, "Beschwerden", "Husten");
    await choose(page, "Beschwerden", "Fieber");
    await choose(page, "Vorerkrankungen", "Asthma");
    await typeAnswer(page, "Befund", "ohne Befund");
    await attach(page, "Befund", file);
    await until(page, "the file kept on the device", () =>
      window.__ff.hasText("befund.png", '[data-testid="attachment-local"]'),
    );
    await settled(page);

    // A reload in the middle keeps everything.
    await page.reload();
    await element(page, "the offline notice", () => document.querySelector('[data-testid="fill-offline-notice"]'));
    await isChosen(page, "Befinden", "gut");
    await isChosen(page, "Beschwerden", "Husten");
    await isChosen(page, "Beschwerden", "Fieber");
    await isChosen(page, "Vorerkrankungen", "Asthma");
    expect(await fieldValue(page, "Befund")).toBe("ohne Befund");
    await until(page, "the file still kept", () =>
      window.__ff.hasText("befund.png", '[data-testid="attachment-local"]'),
    );

    await typeAnswer(page, "Puls", "72");
    await typeAnswer(page, "Zeitpunkt", "24.12.2026 18:30");
    await choose(page, "Wo schmerzt es?", "Knie");
    await settled(page);
    await submitSurvey(page);
    await until(page, "the done page", () => location.search.includes("page=done"));

    // Nothing reached the server while offline: it does not know the case.
    const responses = () =>
      admin<
        {
          QuestionId: number;
          AnswerOptionId?: number;
          AnswerOptionIds?: number[];
          TextResponse?: string;
          NumericalResponse?: number;
          DateTimeResponse?: string;
        }[]
      >("GET", `/question-responses/?surveyId=${surveyId}&patientId=${patientId}`);
    await expect(responses()).rejects.toThrow(/404 .*SURVEY_PATIENTID_NOT_FOUND/);

    // Back online: the app syncs by itself.
    await goOnline();
    await shows(page, "1 Offline-Erfassung wurde synchronisiert.");
    // The confirmation page tells the truth now: no "no connection", and the case is closed on the server.
    await shows(page, `Der Fall ${patientId} ist abgeschlossen; seine Antworten können nicht mehr geändert werden.`);
    expect(await page.$('[data-testid="fill-offline-notice"]')).toBeNull();
    const arrived = await responses();
    expect(arrived.map((r) => r.QuestionId).sort()).toEqual(
      Object.values(questions)
        .map((q) => q.id)
        .sort(),
    );
    const of = (t: string) => arrived.find((r) => r.QuestionId === questions[t]!.id)!;
    const option = (t: string, a: string) => questions[t]!.options[a]!;
    expect(of("Befinden").AnswerOptionId ?? of("Befinden").AnswerOptionIds?.[0]).toBe(option("Befinden", "gut"));
    expect([...(of("Beschwerden").AnswerOptionIds ?? [])].sort()).toEqual(
      [option("Beschwerden", "Husten"), option("Beschwerden", "Fieber")].sort(),
    );
    expect(of("Vorerkrankungen").AnswerOptionIds).toEqual([option("Vorerkrankungen", "Asthma")]);
    expect(of("Befund").TextResponse).toBe("ohne Befund");
    expect(of("Puls").NumericalResponse).toBe(72);
    expect(of("Zeitpunkt").DateTimeResponse).toBe("24.12.2026 18:30");
    expect(of("Wo schmerzt es?").AnswerOptionId ?? of("Wo schmerzt es?").AnswerOptionIds?.[0]).toBe(
      option("Wo schmerzt es?", "Knie"),
    );
    const patient = await admin<{ State: string; PatientDataId: number }>(
      "GET",
      `/patients?patientId=${patientId}&surveyId=${surveyId}`,
    );
    expect(patient.State).toBe("Closed");
    const files = await admin<{ NumberOfFileAttachment: number }[]>(
      "GET",
      `/file-attachments/count?patientDataId=${patient.PatientDataId}`,
    );
    expect(files.map((f) => f.NumberOfFileAttachment)).toEqual([1]);

    // Nothing is left to sync: the list shows no waiting fill, and the server's answers stay as they are.
    await page.goto(atGate("/surveys"));
    await element(page, "the online indicator", () => document.querySelector(".net--online"));
    expect(await page.$('[data-testid="open-sync"]')).toBeNull();
    expect(await responses()).toHaveLength(arrived.length);
    // No page error, console error or blocked script on the way.
    expect(firefox.problems).toEqual([]);
  });
});
