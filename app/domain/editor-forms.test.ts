import { describe, expect, it } from "vitest";
import { CategoryTitleFormSchema, EditorActionSchema, SurveyInfoFormSchema } from "./editor-forms";
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
