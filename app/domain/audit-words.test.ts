import { describe, expect, it } from "vitest";
import { canonicalField, changesOf, entityName, type TrailNames } from "./audit-words";

const names: TrailNames = {
  questions: new Map([[7, "Körpergröße"]]),
  options: new Map([
    [63, "gut"],
    [64, "schlecht"],
  ]),
  categories: new Map([[3, "Messung"]]),
  attributes: new Map([[5, "Mobilität"]]),
  teams: new Map([
    [1, "Station A"],
    [2, "Station B"],
  ]),
  tags: new Map([[9, "Wunde"]]),
};

describe("the trail in words", () => {
  it("reads a database column and the API's field alike", () => {
    expect(canonicalField("is_exit_answer")).toBe("IsExitAnswer");
    expect(canonicalField("IsExitAnswer")).toBe("IsExitAnswer");
    expect(canonicalField("title")).toBe("Title");
  });

  it("names each changed field with its values as people read them, never ids or flags", () => {
    const { changes, more } = changesOf(
      JSON.stringify({ text: "gut", is_exit_answer: 0, question_id: 7, weight: null }),
      JSON.stringify({ text: "sehr gut", is_exit_answer: 1, question_id: 7, weight: 2 }),
      names,
      "answer_option",
    );
    expect(more).toBe(false);
    expect(changes).toEqual([
      { field: "Text", before: { text: "gut" }, after: { text: "sehr gut" } },
      { field: "IsExitAnswer", before: { word: "no" }, after: { word: "yes" } },
      { field: "Weight", before: { none: true }, after: { text: "2" } },
    ]);
  });

  it("shows teams and tags by name, HTML as its text, statuses and types as words, and says when more changed", () => {
    const { changes, more } = changesOf(
      JSON.stringify({ UserTeamPermissions: [1], IntroText: "<p>Hallo <b>Welt</b></p>", Status: "Draft", Secret: 1 }),
      JSON.stringify({ UserTeamPermissions: [1, 2], IntroText: "", Status: "Active", Secret: 2 }),
      names,
      "survey",
    );
    expect(changes).toEqual([
      { field: "UserTeamPermissions", before: { text: "Station A" }, after: { text: "Station A, Station B" } },
      { field: "IntroText", before: { text: "Hallo Welt" }, after: { none: true } },
      { field: "Status", before: { word: "status.Draft" }, after: { word: "status.Active" } },
    ]);
    expect(more).toBe(true);
  });

  it("gives a new order by the names of what was reordered", () => {
    expect(changesOf("[64,63]", "[63,64]", names, "answer_option").changes).toEqual([
      { field: "order", before: { text: "schlecht, gut" }, after: { text: "gut, schlecht" } },
    ]);
  });

  it("lists what a creation set, and nothing for an unchanged field", () => {
    const created = changesOf(null, JSON.stringify({ Title: "Größe", Type: "Numerical", Sort: 0 }), names, "question");
    expect(created.changes.map((c) => c.field)).toEqual(["Title", "Type", "Sort"]);
    expect(created.changes[1]!.after).toEqual({ word: "type.Numerical" });
    const same = changesOf(
      JSON.stringify({ Title: "A", Unit: "cm" }),
      JSON.stringify({ Title: "B", Unit: "cm" }),
      names,
      "question",
    );
    expect(same.changes.map((c) => c.field)).toEqual(["Title"]);
  });

  it("names what an entry is about: as it is now, else as the entry recorded it", () => {
    expect(entityName("question", "7", null, null, names)).toBe("Körpergröße");
    expect(entityName("patient_form_attribute", "5", null, null, names)).toBe("Mobilität");
    expect(entityName("category", "99", JSON.stringify({ title: "Gelöscht" }), null, names)).toBe("Gelöscht");
    expect(entityName("survey", "1", null, JSON.stringify({ Status: "Active" }), names)).toBeNull();
  });
});
