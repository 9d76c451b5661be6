import "fake-indexeddb/auto";
import { createStore, del } from "idb-keyval";
import { beforeEach, describe, expect, it } from "vitest";
import { syncPayload } from "./sync-payload";
import {
  addFile,
  countEntries,
  getEntry,
  recordAnswer,
  recordClose,
  recordPreliminary,
  removeFile,
} from "./fill-store";
import {
  changePatientId,
  chooseOverwrite,
  clearIfDone,
  firstEntries,
  listEntries,
  markAnswersSynced,
  settleFile,
} from "./fill-sync-store";
import { downloadedIds, getSurvey, getSurveyList, removeSurvey, saveSurvey, saveSurveyList } from "./survey-store";
import { ctx, freshDatabases, question } from "./test-support";
import type { Survey, SurveyListEntry } from "~/domain/survey";

beforeEach(freshDatabases);

describe("survey store", () => {
  it("keeps each survey under its id and the list under 'all'", async () => {
    await saveSurvey({ Id: 7, Title: "Herz" } as Survey);
    await saveSurveyList([{ Id: 7 }, { Id: 8 }] as SurveyListEntry[]);
    expect((await getSurvey(7))?.Title).toBe("Herz");
    expect(await downloadedIds()).toEqual([7]);
    expect((await getSurveyList()).map((s) => s.Id)).toEqual([7, 8]);
    await removeSurvey(7);
    expect(await downloadedIds()).toEqual([]);
  });
});

describe("fill store", () => {
  it("records answers, preliminary answers and close, each marked not synced", async () => {
    await recordAnswer(ctx("P1"), question(1, "SingleSelection"), { AnswerOptionIds: [11] });
    await recordAnswer(ctx("P1"), question(2, "FreeText"), { TextResponse: "müde" });
    await recordAnswer(ctx("P1"), question(3, "Image", true), { AnswerOptionIds: [31, 32] });
    await recordAnswer(ctx("P1"), question(2, "FreeText"), undefined);
    await recordPreliminary(ctx("P1"), 50, 501);
    const closed = await recordClose(ctx("P1"));
    expect(closed).toMatchObject({ status: "Closed", close: true, notSynced: true, rev: 6 });
    expect(syncPayload(closed)).toEqual({
      PatientId: "P1",
      SurveyHash: "h1",
      // Who made the fill: the server syncs it under that person only (decision 048).
      AuthorId: "user-sub",
      Overwrite: false,
      Close: true,
      QuestionAnswers: [
        { QuestionId: 1, AnswerOptionId: 11 },
        { QuestionId: 3, AnswerOptionIds: [31, 32] },
      ],
      PreliminaryQuestionAnswers: [{ QuestionId: 50, AnswerOptionId: 501 }],
    });
  });

  it("starts from the page's answers when a case opened online goes offline, and overwrites", async () => {
    const seed = {
      answers: { 1: { AnswerOptionIds: [11] } },
      preliminary: { 50: 501 },
      questionTypes: { 1: "single" as const },
    };
    const entry = await recordAnswer(ctx("P2", { seed }), question(2, "Numerical"), { NumericalResponse: 80.5 });
    expect(entry.overwrite).toBe(true);
    expect(syncPayload(entry).QuestionAnswers).toHaveLength(2);
  });

  it("continuing the server's case, sends only what changed since its version; overwriting, everything", async () => {
    const base = {
      version: 5,
      answers: { 1: { AnswerOptionIds: [11] }, 2: { NumericalResponse: 70 }, 3: { TextResponse: "bleibt" } },
      preliminary: { 50: 501, 60: 601 },
    };
    const seed = { ...base, questionTypes: { 1: "single" as const, 2: "number" as const, 3: "text" as const } };
    const context = ctx("P5", { seed, base });
    await recordAnswer(context, question(2, "Numerical"), { NumericalResponse: 80.5 });
    await recordAnswer(context, question(1, "SingleSelection"), undefined);
    await recordAnswer(context, question(4, "FreeText"), { TextResponse: "neu" });
    const entry = await recordPreliminary(context, 60, 602);
    expect(entry).toMatchObject({ overwrite: false, base: { version: 5 } });
    expect(syncPayload(entry)).toMatchObject({
      Overwrite: false,
      BaseVersion: 5,
      QuestionAnswers: [
        { QuestionId: 2, NumericalResponse: 80.5 },
        { QuestionId: 4, TextResponse: "neu" },
      ],
      RemovedQuestionIds: [1],
      PreliminaryQuestionAnswers: [{ QuestionId: 60, AnswerOptionId: 602 }],
    });
    // The user chose to overwrite the server's case (after a clash): the whole fill goes, without a version.
    const chosen = (await chooseOverwrite(7, "P5"))!;
    const whole = syncPayload(chosen);
    expect(whole).toMatchObject({ Overwrite: true });
    expect(whole.BaseVersion).toBeUndefined();
    expect(whole.QuestionAnswers.map((a) => a.QuestionId).sort()).toEqual([2, 3, 4]);
    expect(whole.PreliminaryQuestionAnswers).toHaveLength(2);
  });

  it("lists entries of every survey and keeps files until each is settled", async () => {
    const bytes = new TextEncoder().encode("hello").buffer;
    await addFile(ctx("P1"), 1, { name: "a.txt", type: "text/plain", bytes });
    await addFile(ctx("P1"), 1, { name: "b.txt", type: "text/plain", bytes });
    await removeFile(ctx("P1"), 1, "b.txt");
    await recordAnswer(ctx("P9", { survey: { Id: 8, Title: "Lunge", Hash: "x" } }), question(1, "FreeText"), {
      TextResponse: "x",
    });
    expect((await listEntries()).map((e) => `${e.surveyId}/${e.patientId}`).sort()).toEqual(["7/P1", "8/P9"]);
    expect(await countEntries()).toBe(2);
    expect(await firstEntries(1)).toHaveLength(1);
    expect(await firstEntries(5)).toHaveLength(2);
    const entry = (await getEntry(7, "P1"))!;
    expect(new TextDecoder().decode(entry.upload.files[1][0].bytes)).toBe("hello");

    await markAnswersSynced(7, "P1", entry.rev, 42);
    expect(await clearIfDone(7, "P1")).toBe(false);
    await settleFile(7, "P1", 1, "a.txt", "SURVEY_ATTACHMENTS_TOO_LARGE");
    expect((await getEntry(7, "P1"))!.upload.files[1][0].error).toBe("SURVEY_ATTACHMENTS_TOO_LARGE");
    await settleFile(7, "P1", 1, "a.txt");
    expect(await clearIfDone(7, "P1")).toBe(true);
    expect(await getEntry(7, "P1")).toBeUndefined();
  });

  it("keeps an entry not synced, under a new fill id, when it changed during its sync", async () => {
    const first = await recordAnswer(ctx("P1"), question(1, "FreeText"), { TextResponse: "a" });
    await recordAnswer(ctx("P1"), question(1, "FreeText"), { TextResponse: "b" });
    const after = await markAnswersSynced(7, "P1", first.rev, 42);
    expect(after).toMatchObject({ notSynced: true, overwrite: true, patientDataId: 42 });
    expect(after!.fillId).not.toBe(first.fillId);
    expect(await clearIfDone(7, "P1")).toBe(false);
  });

  it("moves an entry to a new patient id as a new fill, refusing an id kept already", async () => {
    const e = await recordAnswer(ctx("P1"), question(1, "FreeText"), { TextResponse: "a" });
    await recordAnswer(ctx("P2"), question(1, "FreeText"), { TextResponse: "b" });
    expect(await changePatientId(7, "P1", "P2")).toBe(false);
    expect(await changePatientId(7, "P1", "P3")).toBe(true);
    const moved = (await getEntry(7, "P3"))!;
    expect(moved).toMatchObject({ patientId: "P3", notSynced: true });
    expect(moved.fillId).not.toBe(e.fillId);
    expect(await getEntry(7, "P1")).toBeUndefined();
  });

  it("still lists an entry whose index update was cut off by the page going away", async () => {
    await recordAnswer(ctx("P1"), question(1, "FreeText"), { TextResponse: "a" });
    // The entry is written first; the index of surveys is a second write that a closed page may miss.
    await del("surveys", createStore("survey-offline-fills", "index"));
    expect(await countEntries()).toBe(1);
    expect((await listEntries()).map((e) => e.patientId)).toEqual(["P1"]);
    expect((await firstEntries(10)).map((e) => e.patientId)).toEqual(["P1"]);
  });
});
