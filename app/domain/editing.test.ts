import { describe, expect, it } from "vitest";
import {
  CreateAnswerOptionSchema,
  CreateCategorySchema,
  CreatePatientAttributeSchema,
  CreateQuestionSchema,
  CreateSubQuestionSchema,
  DependenceInputSchema,
  ImageSrcSchema,
  UpdateAnswerOptionSchema,
  UpdatePatientAttributeSchema,
  UpdateQuestionSchema,
  moveTo,
  questionShapeIssues,
  resolveWeighting,
} from "./editing";

const PNG = "data:image/png;base64,iVBORw0KGgo=";
const base = { SurveyId: 1, CategoryId: 2 };

describe("category and preliminary question titles", () => {
  it("are trimmed and may not be blank", () => {
    expect(CreateCategorySchema.parse({ SurveyId: 1, Title: "  Anamnese " }).Title).toBe("Anamnese");
    expect(CreateCategorySchema.safeParse({ SurveyId: 1, Title: " \t " }).success).toBe(false);
    expect(CreateCategorySchema.safeParse({ SurveyId: 1, Title: "x".repeat(201) }).success).toBe(false);
  });

  it("a preliminary question needs at least one answer and no blank ones", () => {
    const ok = { SurveyId: 1, Title: "Geschlecht", AnswerOptions: [{ Text: " w " }] };
    expect(CreatePatientAttributeSchema.parse(ok).AnswerOptions).toEqual([{ Text: "w" }]);
    expect(CreatePatientAttributeSchema.safeParse({ ...ok, Title: " " }).success).toBe(false);
    expect(CreatePatientAttributeSchema.safeParse({ ...ok, AnswerOptions: [] }).success).toBe(false);
    expect(
      CreatePatientAttributeSchema.safeParse({ ...ok, AnswerOptions: [{ Text: "a" }, { Text: "" }] }).success,
    ).toBe(false);
    expect(CreatePatientAttributeSchema.safeParse({ ...ok, AnswerOptions: [{ Id: 3, Text: "a" }] }).success).toBe(
      false,
    );
  });

  it("an edited list names each kept answer once", () => {
    expect(
      UpdatePatientAttributeSchema.safeParse({ AnswerOptions: [{ Id: 3, Text: "a" }, { Text: "b" }] }).success,
    ).toBe(true);
    const twice = {
      AnswerOptions: [
        { Id: 3, Text: "a" },
        { Id: 3, Text: "b" },
      ],
    };
    expect(UpdatePatientAttributeSchema.safeParse(twice).success).toBe(false);
  });
});

describe("questions", () => {
  it("need a title and one of the kinds", () => {
    expect(CreateQuestionSchema.safeParse({ ...base, Title: "Wie?", Type: "FreeText" }).success).toBe(true);
    expect(CreateQuestionSchema.safeParse({ ...base, Title: "  ", Type: "FreeText" }).success).toBe(false);
    expect(CreateQuestionSchema.safeParse({ ...base, Title: "Wie?", Type: "Essay" }).success).toBe(false);
  });

  it("a unit only on numerical questions; a blank unit is none", () => {
    expect(CreateQuestionSchema.parse({ ...base, Title: "Gewicht", Type: "Numerical", Unit: " kg " }).Unit).toBe("kg");
    expect(CreateQuestionSchema.parse({ ...base, Title: "Gewicht", Type: "Numerical", Unit: " " }).Unit).toBeNull();
    expect(CreateQuestionSchema.safeParse({ ...base, Title: "x", Type: "FreeText", Unit: "kg" }).success).toBe(false);
  });

  it("image questions need an image data URL and at least one titled marker", () => {
    const image = { ...base, Title: "Wo?", Type: "Image", ImageSrc: PNG, AnswerOptions: [{ Text: "Knie" }] };
    const parsed = CreateQuestionSchema.parse(image);
    expect(parsed.AnswerOptions).toEqual([{ Text: "Knie" }]);
    const bad = [
      { ...image, ImageSrc: undefined },
      { ...image, AnswerOptions: [] },
      { ...image, AnswerOptions: undefined },
      { ...image, AnswerOptions: [{ Text: " " }] },
      { ...image, AnswerOptions: [{ Text: "a", X: 1.01 }] },
      { ...image, ImageSrc: "data:image/svg+xml;base64,PHN2Zz4=" },
      // Answers come with a new question of a choice kind or an image only.
      { ...image, Type: "Numerical", ImageSrc: undefined },
      { ...image, Type: "FreeText", AnswerOptions: undefined },
    ];
    for (const body of bad) expect(CreateQuestionSchema.safeParse(body).success, JSON.stringify(body)).toBe(false);
  });

  it("image data URLs: png, jpeg, gif or webp in base64, not too long", () => {
    for (const type of ["png", "jpeg", "gif", "webp"]) {
      expect(ImageSrcSchema.safeParse(`data:image/${type};base64,AAAA`).success).toBe(true);
    }
    expect(ImageSrcSchema.safeParse("data:image/bmp;base64,AAAA").success).toBe(false);
    expect(ImageSrcSchema.safeParse("data:image/png,<svg onload=x>").success).toBe(false);
    expect(ImageSrcSchema.safeParse(`data:image/png;base64,${"A".repeat(2_000_000)}`).success).toBe(false);
  });

  it("marker positions keep 3 decimals", () => {
    const image = { ...base, Title: "Wo?", Type: "Image", ImageSrc: PNG };
    const parsed = CreateQuestionSchema.parse({ ...image, AnswerOptions: [{ Text: "a", X: 0.12345, Y: 0.9999 }] });
    expect(parsed.AnswerOptions?.[0]).toMatchObject({ X: 0.123, Y: 1 });
  });

  it("a sub-question takes its parent's category, so it sends none", () => {
    expect(CreateSubQuestionSchema.safeParse({ SurveyId: 1, Title: "x", Type: "FreeText" }).success).toBe(true);
    expect(CreateSubQuestionSchema.safeParse({ ...base, Title: "x", Type: "FreeText" }).success).toBe(false);
  });

  it("an edit sends any subset of the fields", () => {
    expect(UpdateQuestionSchema.parse({})).toEqual({});
    expect(UpdateQuestionSchema.parse({ Title: " Neu " })).toEqual({ Title: "Neu" });
    expect(UpdateQuestionSchema.safeParse({ Title: "" }).success).toBe(false);
    expect(UpdateQuestionSchema.safeParse({ Sort: 1 }).success).toBe(false);
  });

  it("shape rules name the offending field", () => {
    expect(questionShapeIssues({ Type: "Image", ImageSrc: null, Unit: null, AnswerOptionCount: 0 })).toEqual([
      { path: "ImageSrc", message: expect.any(String) },
      { path: "AnswerOptions", message: expect.any(String) },
    ]);
    expect(questionShapeIssues({ Type: "Numerical", ImageSrc: null, Unit: "kg", AnswerOptionCount: 0 })).toEqual([]);
    expect(questionShapeIssues({ Type: "DateTime", ImageSrc: null, Unit: "kg", AnswerOptionCount: 0 })).toHaveLength(1);
  });
});

describe("dependence", () => {
  it("selecting answers without a type means SHOW; ids are de-duplicated and sorted", () => {
    expect(DependenceInputSchema.parse({ PreliminaryAnswerOptions: [5, 3, 5] })).toEqual({
      Type: "SHOW",
      PreliminaryAnswerOptions: [3, 5],
    });
    expect(DependenceInputSchema.parse({ Type: "HIDE", PreliminaryAnswerOptions: [2] })).toEqual({
      Type: "HIDE",
      PreliminaryAnswerOptions: [2],
    });
  });

  it("an empty list or null removes it", () => {
    expect(DependenceInputSchema.parse({ Type: "HIDE", PreliminaryAnswerOptions: [] })).toBeNull();
    expect(DependenceInputSchema.parse(null)).toBeNull();
    expect(DependenceInputSchema.safeParse({ Type: "MAYBE", PreliminaryAnswerOptions: [1] }).success).toBe(false);
    expect(DependenceInputSchema.safeParse({ PreliminaryAnswerOptions: [0] }).success).toBe(false);
  });
});

describe("answers and weighting", () => {
  const answer = { SurveyId: 1, QuestionId: 2, Text: "Ja" };

  it("an answer needs a text", () => {
    expect(CreateAnswerOptionSchema.safeParse(answer).success).toBe(true);
    expect(CreateAnswerOptionSchema.safeParse({ ...answer, Text: "  " }).success).toBe(false);
    expect(CreateAnswerOptionSchema.parse({ ...answer, Value: " " }).Value).toBeNull();
  });

  it("a weight 1 to 3 only for a correct answer", () => {
    expect(CreateAnswerOptionSchema.safeParse({ ...answer, WeightingState: 1, Weight: 3 }).success).toBe(true);
    expect(CreateAnswerOptionSchema.safeParse({ ...answer, WeightingState: 1, Weight: 4 }).success).toBe(false);
    expect(CreateAnswerOptionSchema.safeParse({ ...answer, WeightingState: 0, Weight: 1 }).success).toBe(false);
    expect(CreateAnswerOptionSchema.safeParse({ ...answer, Weight: 1 }).success).toBe(false);
    expect(CreateAnswerOptionSchema.safeParse({ ...answer, WeightingState: 3 }).success).toBe(false);
    // An edit without a state is checked against the stored one, on the server.
    expect(UpdateAnswerOptionSchema.safeParse({ Weight: 2 }).success).toBe(true);
    expect(UpdateAnswerOptionSchema.safeParse({ WeightingState: 2, Weight: 2 }).success).toBe(false);
  });

  it("choosing correct without a weight gives 1; other states store none", () => {
    const none = { WeightingState: 2, Weight: null };
    expect(resolveWeighting(none, { WeightingState: 1 })).toEqual({ WeightingState: 1, Weight: 1 });
    expect(resolveWeighting(none, { WeightingState: 1, Weight: null })).toEqual({ WeightingState: 1, Weight: 1 });
    expect(resolveWeighting({ WeightingState: 1, Weight: 3 }, {})).toEqual({ WeightingState: 1, Weight: 3 });
    expect(resolveWeighting({ WeightingState: 1, Weight: 3 }, { WeightingState: 0 })).toEqual({
      WeightingState: 0,
      Weight: null,
    });
    expect(resolveWeighting({ WeightingState: 1, Weight: 3 }, { Weight: 2 })).toEqual({ WeightingState: 1, Weight: 2 });
    expect(typeof resolveWeighting(none, { Weight: 2 })).toBe("string");
  });
});

describe("moveTo", () => {
  it("moves an item to a 0-based position among the same list", () => {
    expect(moveTo(["a", "b", "c"], 2, 0)).toEqual(["c", "a", "b"]);
    expect(moveTo(["a", "b", "c"], 0, 2)).toEqual(["b", "c", "a"]);
    expect(moveTo(["a", "b", "c"], 1, 1)).toEqual(["a", "b", "c"]);
  });

  it("refuses positions outside the list", () => {
    expect(moveTo(["a", "b"], 0, 2)).toBeNull();
    expect(moveTo(["a", "b"], 0, -1)).toBeNull();
    expect(moveTo(["a", "b"], -1, 0)).toBeNull();
    expect(moveTo(["a", "b"], 0, 0.5)).toBeNull();
  });
});
