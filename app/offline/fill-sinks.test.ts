import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Survey } from "~/domain/survey";
import { syncPayload } from "./sync-payload";
import { fillWriters } from "./fill-sinks";
import { getEntry } from "./fill-store";
import { freshDatabases, question } from "./test-support";

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
});
