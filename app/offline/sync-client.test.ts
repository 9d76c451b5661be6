import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it } from "vitest";
import { addFile, getEntry, recordAnswer, recordClose } from "./fill-store";
import { getCaseCopy } from "./case-copies";
import { SYNC_START_EVENT, syncAll, syncEntry, syncReport } from "./sync-client";
import { CASE_SYNCED_EVENT, type CaseSynced } from "./case-synced";
import { ctx, freshDatabases, json, offline, question, scriptedFetch } from "./test-support";

beforeEach(freshDatabases);

const bytes = () => new TextEncoder().encode("x").buffer;

async function closedFillWithFile(patientId = "P1") {
  await recordAnswer(ctx(patientId), question(1, "FreeText"), { TextResponse: "a" });
  await addFile(ctx(patientId), 1, { name: "a.txt", type: "text/plain", bytes: bytes() });
  return recordClose(ctx(patientId));
}

describe("sync client", () => {
  it("posts the answers with the fill id, uploads the files to the returned case, closes it, then clears", async () => {
    const entry = await closedFillWithFile();
    const { fetch, calls } = scriptedFetch([
      () => json(200, { Data: 42 }),
      () => json(200, [{ Id: 1 }]),
      () => new Response(null, { status: 204 }),
    ]);
    expect(await syncEntry(7, "P1", { fetch })).toBe("synced");
    expect(calls[0].url).toBe("/api/survey-offline-sync/7");
    expect(new Headers(calls[0].init.headers).get("Idempotency-Key")).toBe(entry.fillId);
    // A closed case takes no files: the case is closed after them.
    expect(JSON.parse(String(calls[0].init.body))).toMatchObject({ PatientId: "P1", Close: false, Overwrite: false });
    expect(calls[1].url).toContain("/api/file-attachments/upload?questionId=1&patientDataId=42&surveyId=7");
    expect((calls[1].init.body as FormData).get("files")).toBeInstanceOf(Blob);
    expect(calls[2].url).toBe("/api/patients/close?patientId=P1&surveyId=7");
    expect(await getEntry(7, "P1")).toBeUndefined();
  });

  it("continues from the version the server answers: later changes go as changes, and the device keeps the case", async () => {
    const base = { version: 5, answers: { 1: { TextResponse: "alt" } }, preliminary: {} };
    const context = ctx("P7", { seed: { ...base, questionTypes: { 1: "text" as const } }, base });
    await recordAnswer(context, question(1, "FreeText"), { TextResponse: "neu" });
    await addFile(context, 1, { name: "a.txt", type: "text/plain", bytes: bytes() });
    const first = scriptedFetch([() => json(200, { Data: 42, Version: 9 }), offline]);
    expect(await syncEntry(7, "P7", { fetch: first.fetch })).toBe("offline");
    expect(JSON.parse(String(first.calls[0].init.body))).toMatchObject({
      BaseVersion: 5,
      QuestionAnswers: [{ QuestionId: 1, TextResponse: "neu" }],
    });
    expect(await getCaseCopy(7, "P7")).toMatchObject({
      version: 9,
      patientDataId: 42,
      answers: { 1: { TextResponse: "neu" } },
    });

    // Changed again while its file still waits: only that change goes, continuing version 9.
    await recordAnswer(context, question(2, "Numerical"), { NumericalResponse: 3 });
    const second = scriptedFetch([offline]);
    await syncEntry(7, "P7", { fetch: second.fetch });
    const body = JSON.parse(String(second.calls[0].init.body)) as Record<string, unknown>;
    expect(body).toMatchObject({
      BaseVersion: 9,
      Overwrite: false,
      QuestionAnswers: [{ QuestionId: 2, NumericalResponse: 3 }],
    });
  });

  it("closes at once in the sync when there are no files", async () => {
    await recordAnswer(ctx("P1"), question(1, "FreeText"), { TextResponse: "a" });
    await recordClose(ctx("P1"));
    const { fetch, calls } = scriptedFetch([() => json(200, { Data: 42 })]);
    expect(await syncEntry(7, "P1", { fetch })).toBe("synced");
    expect(JSON.parse(String(calls[0].init.body))).toMatchObject({ Close: true });
    expect(calls).toHaveLength(1);
  });

  it("finishes a fill whose case the server keeps open for a signature, with or without files", async () => {
    // No files: the sync saves the answers and says that the case is signed online (decision 029).
    await recordAnswer(ctx("P1"), question(1, "FreeText"), { TextResponse: "a" });
    await recordClose(ctx("P1"));
    const plain = scriptedFetch([() => json(200, { Data: 42, SignatureRequired: true })]);
    expect(await syncEntry(7, "P1", { fetch: plain.fetch })).toBe("synced");
    expect(await getEntry(7, "P1")).toBeUndefined();
    // Files: the close after them is refused for the signature, and nothing is left to send.
    await closedFillWithFile("P2");
    const files = scriptedFetch([
      () => json(200, { Data: 43 }),
      () => json(200, [{ Id: 1 }]),
      () => json(409, { Type: "SIGNATURE_REQUIRED", Error: "sign it" }),
    ]);
    expect(await syncEntry(7, "P2", { fetch: files.fetch })).toBe("synced");
    expect(await getEntry(7, "P2")).toBeUndefined();
  });

  it("keeps everything when the network is gone, and resends with the same key", async () => {
    const entry = await closedFillWithFile();
    expect(await syncEntry(7, "P1", scriptedFetch([offline]))).toBe("offline");
    expect(await getEntry(7, "P1")).toMatchObject({ notSynced: true, fillId: entry.fillId });

    // The answers arrived but the upload was cut off: only the file is sent again.
    expect(await syncEntry(7, "P1", scriptedFetch([() => json(200, { Data: 42 }), offline]))).toBe("offline");
    expect(await getEntry(7, "P1")).toMatchObject({ notSynced: false, patientDataId: 42 });
    const retry = scriptedFetch([
      () =>
        json(406, { Type: "SURVEY_ATTACHMENTS_DUPLICATED_FILENAME", Error: "SURVEY_ATTACHMENTS_DUPLICATED_FILENAME" }),
      // The close then finds the case closed already (a close that arrived before): done as well.
      () => json(409, { Type: "SURVEY_ALREADY_CLOSED", Error: "closed" }),
    ]);
    expect(await syncEntry(7, "P1", retry)).toBe("synced");
    expect(retry.calls.map((c) => c.url.split("?")[0])).toEqual([
      "/api/file-attachments/upload",
      "/api/patients/close",
    ]);
  });

  it.each([
    ["SYNC_SURVEY_PATIENTID_CLASH", 409],
    ["SYNC_SURVEY_ALREADY_CLOSED", 409],
    ["SYNC_SURVEY_OUTDATED_HASH", 400],
    ["SYNC_SURVEY_INVALID_STATUS", 400],
  ])("stores %s on the entry and deletes nothing", async (type, status) => {
    await closedFillWithFile();
    expect(await syncEntry(7, "P1", scriptedFetch([() => json(status, { Type: type, Error: "no" })]))).toBe("conflict");
    expect(await getEntry(7, "P1")).toMatchObject({ syncError: type, notSynced: true });
  });

  it("keeps a refused file with its error and says files are left", async () => {
    await closedFillWithFile();
    const { fetch } = scriptedFetch([
      () => json(200, { Data: 42 }),
      () => json(406, { Type: "SURVEY_ATTACHMENTS_TOO_LARGE", Error: "SURVEY_ATTACHMENTS_TOO_LARGE" }),
      () => new Response(null, { status: 204 }),
    ]);
    expect(await syncEntry(7, "P1", { fetch })).toBe("filesLeft");
    expect((await getEntry(7, "P1"))!.upload.files[1][0].error).toBe("SURVEY_ATTACHMENTS_TOO_LARGE");
  });

  it("stops at a lapsed sign-in without touching the entry", async () => {
    const entry = await closedFillWithFile();
    expect(await syncEntry(7, "P1", scriptedFetch([() => json(401, {})]))).toBe("unauthorized");
    expect(await getEntry(7, "P1")).toEqual(entry);
  });

  it("syncs all entries that need no decision and counts them", async () => {
    await recordAnswer(ctx("A"), question(1, "FreeText"), { TextResponse: "a" });
    await recordAnswer(ctx("B"), question(1, "FreeText"), { TextResponse: "b" });
    await recordAnswer(ctx("C"), question(1, "FreeText"), { TextResponse: "c" });
    const replies = [
      () => json(200, { Data: 1 }),
      () => json(409, { Type: "SYNC_SURVEY_PATIENTID_CLASH", Error: "x" }),
      () => json(200, { Data: 3 }),
    ];
    const summary = await syncAll({ ...scriptedFetch(replies), concurrency: 1 });
    expect(summary).toEqual({
      attempted: 3,
      synced: 2,
      conflicts: 1,
      filesLeft: 0,
      failed: 0,
      left: 1,
      offline: false,
      unauthorized: false,
    });
    // The clash waits for the user: the automatic sync does not send it again.
    const again = scriptedFetch([]);
    expect(await syncAll(again)).toMatchObject({ synced: 0, left: 1 });
    expect(again.calls).toHaveLength(0);
  });

  it("announces the start of a sync, so that views of the local files close", async () => {
    await recordAnswer(ctx("P1"), question(1, "FreeText"), { TextResponse: "a" });
    const target = new EventTarget();
    const seen: string[] = [];
    target.addEventListener(SYNC_START_EVENT, (e) => seen.push(e.type));
    (globalThis as { window?: EventTarget }).window = target;
    try {
      const { fetch } = scriptedFetch([() => json(200, { Data: 42 })]);
      expect(await syncEntry(7, "P1", { fetch })).toBe("synced");
    } finally {
      delete (globalThis as { window?: EventTarget }).window;
    }
    expect(seen).toEqual([SYNC_START_EVENT]);
  });

  it("tells an open page of the case when its answers are on the server, and when nothing is left here", async () => {
    await recordAnswer(ctx("P1"), question(1, "FreeText"), { TextResponse: "a" });
    await addFile(ctx("P1"), 1, { name: "a.txt", type: "text/plain", bytes: bytes() });
    const target = new EventTarget();
    const seen: CaseSynced[] = [];
    target.addEventListener(CASE_SYNCED_EVENT, (e) => seen.push((e as CustomEvent<CaseSynced>).detail));
    (globalThis as { window?: EventTarget }).window = target;
    try {
      // The answers go, the file does not: the page hears that the answers are there, not more.
      const first = scriptedFetch([() => json(200, { Data: 42, Version: 3 }), offline]);
      expect(await syncEntry(7, "P1", { fetch: first.fetch })).toBe("offline");
      expect(seen).toEqual([
        {
          surveyId: 7,
          patientId: "P1",
          patientDataId: 42,
          version: 3,
          answers: { 1: { TextResponse: "a" } },
          preliminary: {},
          done: false,
        },
      ]);
      // The next sync uploads the file: now nothing of the fill is left on the device.
      const second = scriptedFetch([() => json(200, [{ Id: 1 }])]);
      expect(await syncEntry(7, "P1", { fetch: second.fetch })).toBe("synced");
      expect(seen[1]).toEqual({ ...seen[0], done: true, closed: false });
    } finally {
      delete (globalThis as { window?: EventTarget }).window;
    }
  });
});

describe("sync report", () => {
  const base = {
    attempted: 0,
    synced: 0,
    conflicts: 0,
    filesLeft: 0,
    failed: 0,
    left: 0,
    offline: false,
    unauthorized: false,
  };
  it("says that nothing was synced and why when every entry clashes", () => {
    expect(syncReport({ ...base, attempted: 3, conflicts: 3, left: 3 })).toEqual([
      { key: "offline.syncedNone" },
      { key: "offline.syncDecide", count: 3 },
    ]);
  });
  it("names each kind of outcome with its count", () => {
    expect(syncReport({ ...base, attempted: 5, synced: 2, conflicts: 1, filesLeft: 1, failed: 1, left: 3 })).toEqual([
      { key: "offline.syncedCount", count: 2 },
      { key: "offline.syncDecide", count: 1 },
      { key: "offline.syncFilesRefused", count: 1 },
      { key: "offline.syncFailedCount", count: 1 },
    ]);
    expect(syncReport({ ...base, attempted: 1, offline: true, left: 1 })).toEqual([
      { key: "offline.syncedNone" },
      { key: "errors.network" },
    ]);
  });
});
