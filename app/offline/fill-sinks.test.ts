import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Survey } from "~/domain/survey";
import { syncPayload } from "./sync-payload";
import { fillWriters } from "./fill-sinks";
import { getCaseCopy } from "./case-copies";
import { getEntry } from "./fill-store";
import { syncEntry } from "./sync-client";
import { freshDatabases, json, question, scriptedFetch } from "./test-support";

const q1 = question(1, "SingleSelection");
const q2 = question(2, "FreeText");
const survey = {
  Id: 7,
  Title: "Herz",
  Hash: "h1",
  Categories: [{ Id: 1, Questions: [q1, q2] }],
} as unknown as Survey;

function writers(offline: boolean) {
  return fillWriters({
    survey,
    patientId: "P1",
    userId: "sub",
    surveyUserDataId: 3,
    answers: { 1: { AnswerOptionIds: [11] } },
    preliminary: { 50: 501 },
    offline,
  });
}

beforeEach(freshDatabases);
afterEach(() => vi.unstubAllGlobals());

describe("fill writers", () => {
  it("offline: keeps each answer and the close on the device, not synced", async () => {
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    const w = writers(true);
    expect(await w.sink.save(q2, { TextResponse: "müde" })).toEqual({ ok: true, data: undefined });
    expect(await w.close()).toMatchObject({ ok: true });
    expect(fetch).not.toHaveBeenCalled();
    const entry = (await getEntry(7, "P1"))!;
    expect(entry).toMatchObject({ notSynced: true, close: true, overwrite: false });
    expect(entry.answers).toEqual({ 2: { TextResponse: "müde" } });
  });

  it("online: a network error moves this page to the device, starting from everything it held", async () => {
    vi.stubGlobal(
      "fetch",
      vi
        .fn()
        .mockResolvedValueOnce(new Response(JSON.stringify({}), { status: 200 }))
        .mockRejectedValue(new TypeError("Failed to fetch")),
    );
    const w = writers(false);
    expect((await w.sink.save(q1, { AnswerOptionIds: [12] })).ok).toBe(true);
    expect(await getEntry(7, "P1")).toBeUndefined();
    expect((await w.sink.save(q2, { TextResponse: "müde" })).ok).toBe(true);
    expect(w.isLocal()).toBe(true);
    const payload = syncPayload((await getEntry(7, "P1"))!);
    expect(payload).toMatchObject({
      Overwrite: true,
      PreliminaryQuestionAnswers: [{ QuestionId: 50, AnswerOptionId: 501 }],
    });
    expect(payload.QuestionAnswers).toEqual([
      { QuestionId: 1, AnswerOptionId: 12 },
      { QuestionId: 2, TextResponse: "müde" },
    ]);
  });

  it("online: an answer is saved once the device keeps the case as the server now holds it", async () => {
    // The person may leave the page (or lose the network) the moment it says "saved": the case copy they
    // continue offline from must already have the answer.
    const api = scriptedFetch([() => json(200, { RemovedQuestionIds: [], Version: 4 })]);
    vi.stubGlobal("fetch", api.fetch);
    const w = fillWriters({
      survey,
      patientId: "P1",
      userId: "sub",
      surveyUserDataId: 3,
      patientDataId: 99,
      answers: { 1: { AnswerOptionIds: [11] } },
      preliminary: { 50: 501 },
      offline: false,
    });
    expect((await w.sink.save(q2, { TextResponse: "müde" })).ok).toBe(true);
    expect(await getCaseCopy(7, "P1")).toMatchObject({
      patientDataId: 99,
      version: 4,
      answers: { 1: { AnswerOptionIds: [11] }, 2: { TextResponse: "müde" } },
      preliminary: { 50: 501 },
    });
  });

  it("online: a refusal from the server is not 'offline' and stores nothing", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn().mockResolvedValue(new Response(JSON.stringify({ Type: "SURVEY_ALREADY_CLOSED" }), { status: 409 })),
    );
    const w = writers(false);
    expect(await w.sink.save(q2, { TextResponse: "x" })).toMatchObject({ ok: false, type: "SURVEY_ALREADY_CLOSED" });
    expect(w.isLocal()).toBe(false);
    expect(await getEntry(7, "P1")).toBeUndefined();
  });

  it("after the sync took the fill off the device, the page saves to the server and continues from that sync", async () => {
    const w = writers(true);
    await w.sink.save(q2, { TextResponse: "müde" });
    // The sync: the server makes the case (99) at version 5; nothing is left on the device.
    const sync = scriptedFetch([() => json(200, { Data: 99, Version: 5 })]);
    expect(await syncEntry(7, "P1", { fetch: sync.fetch })).toBe("synced");
    expect(await getEntry(7, "P1")).toBeUndefined();
    w.synced({
      surveyId: 7,
      patientId: "P1",
      patientDataId: 99,
      version: 5,
      answers: { 1: { AnswerOptionIds: [11] }, 2: { TextResponse: "müde" } },
      preliminary: { 50: 501 },
      done: true,
    });
    expect(await w.resume()).toBe(true);
    expect(w.isLocal()).toBe(false);

    const api = scriptedFetch([() => json(200, { RemovedQuestionIds: [], Version: 6 })]);
    vi.stubGlobal("fetch", api.fetch);
    expect((await w.sink.save(q2, { TextResponse: "wach" })).ok).toBe(true);
    expect(api.calls.map((c) => c.url)).toEqual(["/api/question-responses/free-text"]);
    expect(await getEntry(7, "P1")).toBeUndefined();

    // The network goes again: the device continues the case from version 6, so its next sync is no clash.
    expect((await w.sink.save(q1, { AnswerOptionIds: [12] })).ok).toBe(true);
    expect(w.isLocal()).toBe(true);
    expect(syncPayload((await getEntry(7, "P1"))!)).toMatchObject({
      Overwrite: false,
      BaseVersion: 6,
      QuestionAnswers: [{ QuestionId: 1, AnswerOptionId: 12 }],
      RemovedQuestionIds: [],
      PreliminaryQuestionAnswers: [],
    });
  });

  it("stays on the device while the device still holds something of the fill", async () => {
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    const w = writers(true);
    await w.sink.save(q2, { TextResponse: "müde" });
    w.synced({ surveyId: 7, patientId: "P1", patientDataId: 99, version: 5, answers: {}, preliminary: {}, done: true });
    expect(await w.resume()).toBe(false);
    expect(w.isLocal()).toBe(true);
    await w.sink.save(q2, { TextResponse: "wach" });
    expect(fetch).not.toHaveBeenCalled();
    expect((await getEntry(7, "P1"))!.answers[2]).toEqual({ TextResponse: "wach" });
  });
});
