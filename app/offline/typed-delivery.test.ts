import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Survey } from "~/domain/survey";
import { keepCaseCopy } from "./case-copies";
import { getEntry } from "./fill-store";
import { saveSurvey } from "./survey-store";
import { freshDatabases, json, offline, question, scriptedFetch, switchHolder, testHolder } from "./test-support";
import { deliverTyped, fillCaseAt } from "./typed-delivery";
import { openSealedText, preparePad, sealNow } from "./journal-seal";
import { journalKey, journalReady, noteTyped, typedValues } from "./typed-journal";

/** Local storage as the browser has it, for the notes of typed values. */
class MemoryStorage {
  private map = new Map<string, string>();
  getItem = (k: string) => this.map.get(k) ?? null;
  setItem = (k: string, v: string) => void this.map.set(k, v);
  removeItem = (k: string) => void this.map.delete(k);
}

const text = question(19, "FreeText");
const survey = {
  Id: 7,
  Title: "Wunde",
  Hash: "h1",
  Categories: [{ Id: 1, Title: "Befund", Questions: [text, question(20, "Numerical")] }],
} as unknown as Survey;
const kind = (q: typeof text) => ({ Id: q.Id, Type: q.Type, AllowMultipleAnswers: q.AllowMultipleAnswers });

const realFetch = globalThis.fetch;
beforeEach(async () => {
  freshDatabases();
  (globalThis as { window?: unknown }).window = { localStorage: new MemoryStorage(), dispatchEvent: () => true };
  // The page reads its holder's notes once the holder is known; the notes below are written after that.
  await journalReady();
});
afterEach(() => {
  globalThis.fetch = realFetch;
  delete (globalThis as { window?: unknown }).window;
});

describe("values typed on a page that went before they were kept", () => {
  it("are sent to the server again; a lost network keeps them, a refusal does not", async () => {
    const note = (patientId: string) => ({
      surveyId: 7,
      patientId,
      question: kind(text),
      value: { TextResponse: `von ${patientId}` },
      local: false,
    });
    noteTyped([note("A"), note("B"), note("C")]);
    const script = scriptedFetch([
      () => json(200, { RemovedQuestionIds: [], Version: 4 }),
      () => json(409, { Type: "SURVEY_ALREADY_CLOSED", Error: "closed" }),
      offline,
    ]);
    globalThis.fetch = script.fetch;
    await deliverTyped();
    expect(script.calls.map((c) => JSON.parse(String(c.init.body)) as unknown)).toEqual([
      { PatientId: "A", SurveyId: 7, QuestionId: 19, TextResponse: "von A" },
      { PatientId: "B", SurveyId: 7, QuestionId: 19, TextResponse: "von B" },
      { PatientId: "C", SurveyId: 7, QuestionId: 19, TextResponse: "von C" },
    ]);
    expect(typedValues().map((v) => v.patientId)).toEqual(["C"]);
  });

  it("kept on the device go into its fill, continuing the server's case the device has", async () => {
    await saveSurvey(survey);
    await keepCaseCopy({
      surveyId: 7,
      patientId: "X",
      patientDataId: 12,
      version: 5,
      answers: { 20: { NumericalResponse: 3 } },
      preliminary: {},
    });
    noteTyped([
      { surveyId: 7, patientId: "X", question: kind(text), value: { TextResponse: "Schmerz beim Gehen" }, local: true },
    ]);
    await deliverTyped();
    const entry = await getEntry(7, "X");
    expect(entry?.answers).toEqual({ 20: { NumericalResponse: 3 }, 19: { TextResponse: "Schmerz beim Gehen" } });
    expect(entry).toMatchObject({ notSynced: true, overwrite: false, base: { version: 5 } });
    expect(typedValues()).toEqual([]);
  });

  it("stay noted while the device has no copy of their survey, and for the case whose page is open", async () => {
    noteTyped([
      { surveyId: 8, patientId: "Y", question: kind(text), value: { TextResponse: "a" }, local: true },
      { surveyId: 7, patientId: "Z", question: kind(text), value: { TextResponse: "b" }, local: false },
    ]);
    globalThis.fetch = scriptedFetch([]).fetch;
    await deliverTyped(fillCaseAt("/survey/7/fill/Z"));
    expect(
      typedValues()
        .map((v) => v.patientId)
        .sort(),
    ).toEqual(["Y", "Z"]);
    expect(fillCaseAt("/survey/7/fill/P%C3%BC_1")).toEqual({ surveyId: 7, patientId: "Pü_1" });
    expect(fillCaseAt("/survey/7")).toBeNull();
  });
});

describe("the notes of typed values on a shared device", () => {
  it("are sealed for their holder: no text in local storage, none for another person, all for them again", async () => {
    const first = await testHolder("a11ce", 1);
    switchHolder(first);
    await journalReady();
    noteTyped([
      { surveyId: 7, patientId: "GERAET_1", question: kind(text), value: { TextResponse: "Ferse links" }, local: true },
    ]);
    const storage = (globalThis as unknown as { window: { localStorage: MemoryStorage } }).window.localStorage;
    const record = storage.getItem(journalKey(first.tag));
    expect(record).toBeTruthy();
    expect(record).not.toMatch(/GERAET_1|Ferse/);

    switchHolder(testHolder("b0b", 2));
    await journalReady();
    expect(typedValues()).toEqual([]);
    noteTyped([{ surveyId: 7, patientId: "B_1", question: kind(text), value: { TextResponse: "b" }, local: true }]);
    // The other person's notes were not touched.
    expect(storage.getItem(journalKey(first.tag))).toBe(record);

    switchHolder(first);
    await journalReady();
    expect(typedValues().map((v) => [v.patientId, v.value])).toEqual([["GERAET_1", { TextResponse: "Ferse links" }]]);
  });

  it("seal each write with a part of the key stream never used before", async () => {
    const holder = await testHolder("a11ce", 1);
    await preparePad(holder);
    const [a, b] = [sealNow(holder, "gleich"), sealNow(holder, "gleich")];
    expect(a).not.toBe(b);
    expect(await openSealedText(holder, a!)).toBe("gleich");
    expect(await openSealedText(holder, b!)).toBe("gleich");
  });
});
