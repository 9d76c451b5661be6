import { describe, expect, it } from "vitest";
import { formMessages, parseForm } from "./forms";
import {
  ArchiveFormSchema,
  FillPageFormSchema,
  LanguageFormSchema,
  StartFormSchema,
  StatisticsDownloadFormSchema,
  SurveyListFormSchema,
} from "./page-forms";

const formOf = (fields: [string, string][]) => {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  return form;
};

describe("the page forms' schemas", () => {
  it("read the survey list's and the archive's posts", () => {
    const clone = parseForm(
      formOf([
        ["intent", "clone"],
        ["id", "7"],
        ["formKey", "k1"],
        ["q", ""],
      ]),
      SurveyListFormSchema,
    );
    expect(clone.status === "success" && clone.value).toEqual({ intent: "clone", id: 7, formKey: "k1", q: "" });
    const restore = parseForm(
      formOf([
        ["intent", "restore"],
        ["id", "3"],
        ["q", "pain"],
      ]),
      ArchiveFormSchema,
    );
    expect(restore.status === "success" && restore.value).toEqual({ intent: "restore", id: 3, q: "pain" });
  });

  it("give a missing or bad field a message of the locale files, never zod's English one", () => {
    const missing = parseForm(formOf([["intent", "clone"]]), SurveyListFormSchema);
    expect(missing.reply().error).toEqual({ id: [formMessages.required] });
    const bad = parseForm(
      formOf([
        ["intent", "archive"],
        ["id", "abc"],
      ]),
      SurveyListFormSchema,
    );
    expect(bad.reply().error).toEqual({ id: [formMessages.invalid] });
    const language = parseForm(formOf([["locale", "fr-FR"]]), LanguageFormSchema);
    expect(language.reply().error).toEqual({ locale: [formMessages.invalid] });
    const all = JSON.stringify([missing.reply().error, bad.reply().error, language.reply().error]);
    expect(all).not.toMatch(/expected|received|Invalid/);
  });

  it("read the start form with or without a typed id", () => {
    const typed = parseForm(
      formOf([
        ["patientId", "Case_1"],
        ["intent", "start"],
      ]),
      StartFormSchema,
    );
    expect(typed.status === "success" && typed.value).toMatchObject({ patientId: "Case_1", intent: "start" });
    const empty = parseForm(formOf([["patientId", ""]]), StartFormSchema);
    expect(empty.status === "success" && empty.value.patientId).toBe("");
    const long = parseForm(formOf([["patientId", "x".repeat(300)]]), StartFormSchema);
    expect(long.reply().error).toEqual({ patientId: ["start.surveyPatientIdInputError"] });
  });

  it("read a fill page's own fields and leave the answers' fields to the page's questions", () => {
    const page = parseForm(
      formOf([
        ["intent", "savePage"],
        ["categoryId", "4"],
        ["go", "category:9"],
        ["q12", "text"],
      ]),
      FillPageFormSchema,
    );
    expect(page.status === "success" && page.value).toEqual({ intent: "savePage", categoryId: 4, go: "category:9" });
    const noCategory = parseForm(
      formOf([
        ["intent", "savePage"],
        ["go", "stay"],
      ]),
      FillPageFormSchema,
    );
    expect(noCategory.status === "success" && noCategory.value).toEqual({ intent: "savePage", go: "stay" });
    const stay = parseForm(formOf([["intent", "savePreliminary"]]), FillPageFormSchema);
    expect(stay.status === "success" && stay.value.intent !== "language" && stay.value.go).toBe("stay");
    expect(
      parseForm(
        formOf([
          ["intent", "savePage"],
          ["categoryId", "4"],
          ["go", "away"],
        ]),
        FillPageFormSchema,
      ).status,
    ).toBe("error");
  });

  it("read the fill header's language switch, with the page's values or on its own", () => {
    const withPage = parseForm(
      formOf([
        ["intent", "savePage"],
        ["go", "language"],
        ["language", "ar"],
      ]),
      FillPageFormSchema,
    );
    expect(withPage.status === "success" && withPage.value).toEqual({
      intent: "savePage",
      go: "language",
      language: "ar",
    });
    const alone = parseForm(
      formOf([
        ["intent", "language"],
        ["language", "tr"],
      ]),
      FillPageFormSchema,
    );
    expect(alone.status === "success" && alone.value).toEqual({ intent: "language", language: "tr" });
    // A language that is no content language is refused, as is the switch without one.
    expect(
      parseForm(
        formOf([
          ["intent", "language"],
          ["language", "xx"],
        ]),
        FillPageFormSchema,
      ).status,
    ).toBe("error");
    expect(parseForm(formOf([["intent", "language"]]), FillPageFormSchema).status).toBe("error");
  });

  it("read a zip of one or many attachments", () => {
    const one = parseForm(
      formOf([
        ["intent", "zip"],
        ["question", "5"],
        ["id", "8"],
      ]),
      StatisticsDownloadFormSchema,
    );
    expect(one.status === "success" && one.value).toEqual({ intent: "zip", question: 5, id: [8] });
    const many = parseForm(
      formOf([
        ["intent", "zip"],
        ["question", "5"],
        ["id", "8"],
        ["id", "9"],
      ]),
      StatisticsDownloadFormSchema,
    );
    expect(many.status === "success" && many.value).toEqual({ intent: "zip", question: 5, id: [8, 9] });
    const none = parseForm(
      formOf([
        ["intent", "zip"],
        ["question", "5"],
      ]),
      StatisticsDownloadFormSchema,
    );
    expect(none.status).toBe("error");
  });
});
