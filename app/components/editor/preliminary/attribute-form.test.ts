import { describe, expect, it } from "vitest";
import type { PatientFormAttribute } from "~/domain/survey";
import { addEntry, draftBody, enterAction, initialDraft, isUnchanged, type DraftEntry } from "./attribute-form";

const attribute: PatientFormAttribute = {
  Id: 7,
  PatientFormId: 2,
  SurveyId: 3,
  Title: "Geschlecht",
  Enabled: true,
  PreSelected: false,
  Sort: 0,
  AnswerOptions: [
    { Id: 11, Text: "weiblich", Value: null, IsExitAnswer: false, Sort: 0 },
    { Id: 12, Text: "männlich", Value: "m", IsExitAnswer: false, Sort: 1 },
    { Id: 13, Text: "keine Angabe", Value: null, IsExitAnswer: true, Sort: 2 },
  ],
};

const entry = (key: number, text: string, exit = false, id?: number): DraftEntry => ({ key, id, text, exit });

describe("initialDraft", () => {
  it("starts a new question with an empty title and one empty entry", () => {
    expect(initialDraft()).toEqual({ title: "", entries: [{ key: 1, text: "", exit: false }] });
  });

  it("takes the title and the answers, with their ids, of a question being edited", () => {
    const draft = initialDraft(attribute);
    expect(draft.title).toBe("Geschlecht");
    expect(draft.entries.map((e) => [e.id, e.text, e.exit])).toEqual([
      [11, "weiblich", false],
      [12, "männlich", false],
      [13, "keine Angabe", true],
    ]);
    expect(new Set(draft.entries.map((e) => e.key)).size).toBe(3);
  });
});

describe("enterAction", () => {
  it("adds an entry when no entry is empty", () => {
    expect(enterAction([entry(1, "ja"), entry(2, "nein")], 2)).toEqual({ kind: "add" });
  });

  it("focuses an existing empty entry instead of adding one", () => {
    expect(enterAction([entry(1, "ja"), entry(2, ""), entry(3, "nein")], 3)).toEqual({ kind: "focus", key: 2 });
  });

  it("treats a blank entry as empty", () => {
    expect(enterAction([entry(1, "  "), entry(2, "nein")], 2)).toEqual({ kind: "focus", key: 1 });
  });

  it("stays in the current entry when it is the only empty one", () => {
    expect(enterAction([entry(1, "ja"), entry(2, "")], 2)).toEqual({ kind: "focus", key: 2 });
  });
});

describe("addEntry", () => {
  it("appends an empty entry with a fresh key", () => {
    const { entries, key } = addEntry([entry(3, "ja"), entry(1, "nein")]);
    expect(key).toBe(4);
    expect(entries).toHaveLength(3);
    expect(entries[2]).toEqual({ key: 4, text: "", exit: false });
  });
});

describe("draftBody", () => {
  it("trims texts and sends the ids of kept entries only", () => {
    const body = draftBody({ title: " Alter ", entries: [entry(1, " jung ", false, 11), entry(2, "alt", true)] }, 3);
    expect(body).toEqual({
      SurveyId: 3,
      Title: "Alter",
      AnswerOptions: [
        { Id: 11, Text: "jung", IsExitAnswer: false },
        { Text: "alt", IsExitAnswer: true },
      ],
    });
  });
});

describe("isUnchanged", () => {
  it("is true for the untouched question, also with extra spaces", () => {
    const draft = initialDraft(attribute);
    expect(isUnchanged(draft, attribute)).toBe(true);
    expect(isUnchanged({ ...draft, title: " Geschlecht " }, attribute)).toBe(true);
  });

  it("sees a changed title, text, exit flag, removed or added entry", () => {
    const draft = initialDraft(attribute);
    expect(isUnchanged({ ...draft, title: "Geschlecht (neu)" }, attribute)).toBe(false);
    const changed = (i: number, patch: Partial<DraftEntry>) =>
      isUnchanged({ ...draft, entries: draft.entries.map((e, j) => (i === j ? { ...e, ...patch } : e)) }, attribute);
    expect(changed(0, { text: "w" })).toBe(false);
    expect(changed(1, { exit: true })).toBe(false);
    expect(isUnchanged({ ...draft, entries: draft.entries.slice(1) }, attribute)).toBe(false);
    expect(isUnchanged({ ...draft, entries: addEntry(draft.entries).entries }, attribute)).toBe(false);
  });
});
