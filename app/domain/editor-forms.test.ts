import { describe, expect, it } from "vitest";
import {
  CategoryTitleFormSchema,
  EditorActionSchema,
  PreliminaryQuestionFormSchema,
  questionFormSchema,
  SurveyInfoFormSchema,
} from "./editor-forms";
import type { QuestionType } from "./question-types";
import { parseForm } from "./forms";

const formOf = (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
};
const parseInfo = (fields: Record<string, string>) =>
  parseForm(formOf({ intent: "save", ...fields }), SurveyInfoFormSchema, { keepEmpty: true });

describe("the editor's header form", () => {
  it("takes an empty or a real period, trimmed", () => {
    const empty = parseInfo({ startDate: "", endDate: "" });
    expect(empty.status).toBe("success");
    expect(empty.status === "success" && empty.value).toEqual({ intent: "save", startDate: "", endDate: "" });
    const period = parseInfo({ startDate: " 01.03.2026 ", endDate: "31.03.2026" });
    expect(period.status === "success" && period.value).toMatchObject({ startDate: "01.03.2026" });
  });

  it("names each bad field with its own message key", () => {
    expect(parseInfo({ startDate: "31.02.2026", endDate: "" }).reply().error).toEqual({
      startDate: ["editor.dateInvalid"],
    });
    expect(parseInfo({ startDate: "02.03.2026", endDate: "01.03.2026" }).reply().error).toEqual({
      endDate: ["editor.endBeforeStart"],
    });
    expect(parseInfo({ startDate: "", endDate: "3/1/2026" }).reply().error).toEqual({
      endDate: ["editor.dateInvalid"],
    });
  });

  it("tells a cleared title from a form without one", () => {
    expect(parseInfo({ title: "   " }).reply().error).toEqual({ title: ["editor.titleRequired"] });
    expect(parseInfo({ title: "x".repeat(201) }).reply().error).toEqual({ title: ["editor.titleTooLong"] });
    const without = parseInfo({});
    expect(without.status === "success" && without.value.title).toBeUndefined();
  });

  it("answers the page with the values as sent, for the form drawn again", () => {
    const reply = parseInfo({ title: "", startDate: "1.1.2026" }).reply();
    expect(reply.initialValue).toMatchObject({ startDate: "1.1.2026" });
    expect(reply.error).toMatchObject({ title: ["editor.titleRequired"], startDate: ["editor.dateInvalid"] });
  });
});

describe("the editor page's other posts", () => {
  const parse = (fields: Record<string, string>) => parseForm(formOf(fields), EditorActionSchema, { keepEmpty: true });

  it("reads a move with numbers, and refuses an unknown kind", () => {
    const move = parse({ intent: "move", kind: "question", id: "12", newPosition: "0" });
    expect(move.status === "success" && move.value).toEqual({
      intent: "move",
      kind: "question",
      id: 12,
      newPosition: 0,
    });
    expect(parse({ intent: "move", kind: "table", id: "12", newPosition: "0" }).status).toBe("error");
  });

  it("checks the in-place title like the header's", () => {
    expect(parse({ intent: "title", title: "" }).reply().error).toEqual({ title: ["editor.titleRequired"] });
    expect(parse({ intent: "publish" }).status).toBe("success");
  });
});

describe("the category modal's title", () => {
  const check = (title: string) => {
    const form = new FormData();
    form.set("title", title);
    return parseForm(form, CategoryTitleFormSchema).reply().error;
  };
  it("names a blank title, never with zod's own words", () => {
    expect(check("")).toEqual({ title: ["questionnaire.titleRequired"] });
    expect(check("   ")).toEqual({ title: ["questionnaire.titleRequired"] });
    expect(check("Anamnese")).toBeUndefined();
  });
});

/** A form as the modals send it: each list's texts by position. */
const listForm = (fields: Record<string, string>, lists: Record<string, string[]> = {}) => {
  const form = formOf(fields);
  for (const [list, texts] of Object.entries(lists))
    texts.forEach((text, i) => form.append(`${list}[${i}].text`, text));
  return form;
};

describe("the preliminary question's modal", () => {
  const parse = (title: string, entries: string[]) =>
    parseForm(listForm({ title }, { entries }), PreliminaryQuestionFormSchema);

  it("takes a title with filled entries, trimmed", () => {
    const ok = parse(" Alter ", ["< 18", " >= 18 "]);
    expect(ok.status === "success" && ok.value).toEqual({
      title: "Alter",
      entries: [{ text: "< 18" }, { text: ">= 18" }],
    });
  });

  it("names a blank title, a missing list and every blank entry by its position", () => {
    expect(parse("   ", ["ja"]).reply().error).toEqual({ title: ["preliminary.titleRequired"] });
    expect(parse("Alter", []).reply().error).toEqual({ entries: ["preliminary.entriesRequired"] });
    expect(parse("", ["ja", "", " \t "]).reply().error).toEqual({
      title: ["preliminary.titleRequired"],
      "entries[1].text": ["preliminary.entryRequired"],
      "entries[2].text": ["preliminary.entryRequired"],
    });
  });

  it("holds the API's limits", () => {
    expect(parse("x".repeat(501), ["ja"]).reply().error).toEqual({ title: ["forms.invalid"] });
    expect(parse("Alter", ["x".repeat(501)]).reply().error).toEqual({ "entries[0].text": ["forms.invalid"] });
    expect(Object.keys(parse("Alter", Array(201).fill("ja")).reply().error ?? {})).toEqual(["entries"]);
  });
});

describe("the question modal", () => {
  const parse = (type: QuestionType, fields: Record<string, string>, lists?: Record<string, string[]>) =>
    parseForm(listForm(fields, lists), questionFormSchema(type));

  it("requires a title within the limit", () => {
    expect(parse("FreeText", { title: "  " }).reply().error).toEqual({ title: ["questionModal.titleRequired"] });
    expect(parse("FreeText", { title: "x".repeat(1001) }).reply().error).toEqual({
      title: ["questionModal.titleTooLong"],
    });
    expect(parse("FreeText", { title: "Anamnese" }).status).toBe("success");
  });

  it("checks a numerical question's unit", () => {
    expect(parse("Numerical", { title: "Gewicht", unit: "kg" }).status).toBe("success");
    expect(parse("Numerical", { title: "Gewicht", unit: "" }).status).toBe("success");
    expect(parse("Numerical", { title: "Gewicht", unit: "x".repeat(51) }).reply().error).toEqual({
      unit: ["questionModal.unitTooLong"],
    });
  });

  it("requires an image, a marker and a title on every marker for image questions", () => {
    expect(parse("Image", { title: "Wo?", imageSrc: "" }).reply().error).toEqual({
      imageSrc: ["questionModal.imageRequired"],
      markers: ["questionModal.markersRequired"],
    });
    const png = "data:image/png;base64,iVBORw0KGgo=";
    expect(parse("Image", { title: "Wo?", imageSrc: png }, { markers: ["Knie", " "] }).reply().error).toEqual({
      "markers[1].text": ["questionModal.markerRequired"],
    });
    expect(parse("Image", { title: "Wo?", imageSrc: png }, { markers: ["Knie"] }).status).toBe("success");
  });

  it("lets a new choice question's answers be left empty", () => {
    expect(parse("SingleSelection", { title: "Farbe" }, { answers: ["rot", "", "  "] }).status).toBe("success");
    expect(parse("SingleSelection", { title: "Farbe" }).status).toBe("success");
  });
});
