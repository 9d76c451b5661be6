import { describe, expect, it } from "vitest";
import { CreateQuestionSchema, CreateSubQuestionSchema, UpdateQuestionSchema } from "~/domain/editing";
import type { AnswerOption, Question } from "~/domain/survey";
import {
  createQuestionBody,
  imageFileIssue,
  imageSrcIssue,
  initialQuestionDraft,
  MAX_IMAGE_BYTES,
  questionFeatures,
  toggleDependence,
  updateQuestionBody,
  type QuestionDraft,
} from "./question-form";

const png = "data:image/png;base64,iVBORw0KGgo=";

const marker = (Id: number, Title: string, X: number, Y: number): AnswerOption => ({
  Id,
  QuestionId: 40,
  SurveyId: 1,
  Title,
  Value: null,
  IsExitAnswer: false,
  Weight: null,
  WeightingState: 2,
  Sort: 0,
  X,
  Y,
  Score: null,
  System: null,
  SubQuestions: [],
});

const question = (over: Partial<Question> = {}): Question => ({
  Id: 40,
  CategoryId: 3,
  SurveyId: 1,
  ParentAnswerOptionId: null,
  Title: "Wie geht es Ihnen?",
  Type: "SingleSelection",
  Sort: 0,
  AllowFileAttachments: false,
  AllowMultipleAnswers: false,
  Unit: null,
  IsTestQuestion: false,
  ImageSrc: null,
  Dependence: null,
  Hint: null,
  Codes: [],
  AnswerOptions: [],
  ...over,
});

const draftFor = (type: Question["Type"], over: Partial<QuestionDraft> = {}): QuestionDraft => ({
  ...initialQuestionDraft({ kind: "create", type, categoryId: 3 }),
  ...over,
});

describe("questionFeatures", () => {
  it("offers each option to the kinds it belongs to", () => {
    expect(questionFeatures("SingleSelection")).toMatchObject({ testQuestion: true, multipleAnswers: false });
    expect(questionFeatures("MultipleSelection")).toMatchObject({ multipleAnswers: true, multipleImplied: true });
    expect(questionFeatures("Image")).toMatchObject({ image: true, multipleAnswers: true, testQuestion: false });
    expect(questionFeatures("Numerical")).toMatchObject({ unit: true, testQuestion: false, multipleAnswers: false });
    expect(questionFeatures("FreeText")).toMatchObject({ unit: false, image: false, testQuestion: false });
  });
});

describe("toggleDependence", () => {
  it("sets SHOW when answers are chosen without a type, and keeps a chosen type", () => {
    const shown = toggleDependence({ type: null, ids: [] }, 7, true);
    expect(shown).toEqual({ type: "SHOW", ids: [7] });
    expect(toggleDependence({ type: "HIDE", ids: [7] }, 8, true)).toEqual({ type: "HIDE", ids: [7, 8] });
  });
  it("removes the rule when the last answer is cleared", () => {
    expect(toggleDependence({ type: "HIDE", ids: [7] }, 7, false)).toEqual({ type: null, ids: [] });
  });
});

describe("createQuestionBody", () => {
  it("builds a body the API's schema takes, with only what the kind stores", () => {
    const draft = draftFor("Numerical", { title: " Gewicht ", unit: " kg ", isTestQuestion: true });
    const body = createQuestionBody("Numerical", draft, 1, 3);
    expect(body).toEqual({
      SurveyId: 1,
      CategoryId: 3,
      Type: "Numerical",
      Title: "Gewicht",
      Hint: null,
      AllowFileAttachments: false,
      AllowMultipleAnswers: false,
      Unit: "kg",
      IsTestQuestion: false,
      ImageSrc: null,
      Dependence: null,
    });
    expect(CreateQuestionSchema.safeParse(body).success).toBe(true);
  });
  it("sends an image question with its markers and a sub-question without a category", () => {
    const draft = draftFor("Image", {
      title: "Wo?",
      imageSrc: png,
      markers: [{ key: 1, text: "Knie", x: 0.05, y: 0.05 }],
      dependence: { type: "SHOW", ids: [9, 8] },
    });
    const body = createQuestionBody("Image", draft, 1);
    expect(body).not.toHaveProperty("CategoryId");
    expect(body).toMatchObject({
      ImageSrc: png,
      AnswerOptions: [{ Title: "Knie", X: 0.05, Y: 0.05 }],
      Dependence: { Type: "SHOW", PreliminaryAnswerOptions: [8, 9] },
    });
    expect(CreateSubQuestionSchema.safeParse(body).success).toBe(true);
  });
  it("sends a new choice question with the answers typed in the modal, leaving out empty entries", () => {
    const draft = draftFor("SingleSelection", {
      title: "Befinden",
      answers: [
        { key: 1, text: " gut ", exit: false },
        { key: 2, text: "  ", exit: false },
        { key: 3, text: "möchte nicht antworten", exit: true },
      ],
    });
    const body = createQuestionBody("SingleSelection", draft, 1, 3);
    expect(body.AnswerOptions).toEqual([
      { Text: "gut", IsExitAnswer: false },
      { Text: "möchte nicht antworten", IsExitAnswer: true },
    ]);
    expect(CreateQuestionSchema.safeParse(body).success).toBe(true);
    // Other kinds take no answers in the modal, and the schema refuses them there.
    expect(createQuestionBody("FreeText", draftFor("FreeText", { title: "x" }), 1, 3)).not.toHaveProperty(
      "AnswerOptions",
    );
    expect(CreateQuestionSchema.safeParse({ ...body, Type: "FreeText" }).success).toBe(false);
  });
  it("always allows several answers for a multiple selection", () => {
    const body = createQuestionBody("MultipleSelection", draftFor("MultipleSelection", { title: "a" }), 1, 3);
    expect(body.AllowMultipleAnswers).toBe(true);
  });
});

describe("updateQuestionBody", () => {
  it("is null when nothing changed", () => {
    const q = question({ Dependence: { Type: "HIDE", PreliminaryAnswerOptions: [3, 2] } });
    expect(updateQuestionBody(q, initialQuestionDraft({ kind: "edit", question: q }), 1)).toBeNull();
  });
  it("sends only the changed fields", () => {
    const q = question({ Type: "SingleSelection" });
    const draft = { ...initialQuestionDraft({ kind: "edit", question: q }), title: "Neu", isTestQuestion: true };
    const body = updateQuestionBody(q, draft, 1);
    expect(body).toEqual({ SurveyId: 1, Title: "Neu", IsTestQuestion: true });
    expect(UpdateQuestionSchema.safeParse(body).success).toBe(true);
  });
  it("sends Dependence null when every answer was cleared", () => {
    const q = question({ Dependence: { Type: "SHOW", PreliminaryAnswerOptions: [3] } });
    const draft = initialQuestionDraft({ kind: "edit", question: q });
    const cleared = { ...draft, dependence: toggleDependence(draft.dependence, 3, false) };
    expect(updateQuestionBody(q, cleared, 1)).toEqual({ SurveyId: 1, Dependence: null });
  });
  it("sends the marker list of an image question only when markers changed", () => {
    const q = question({ Type: "Image", ImageSrc: png, AnswerOptions: [marker(61, "Knie", 0.2, 0.3)] });
    const draft = initialQuestionDraft({ kind: "edit", question: q });
    expect(updateQuestionBody(q, draft, 1)).toBeNull();
    const moved = { ...draft, markers: draft.markers.map((m) => ({ ...m, y: 0.35 })) };
    const body = updateQuestionBody(q, moved, 1);
    expect(body).toEqual({ SurveyId: 1, AnswerOptions: [{ Id: 61, Title: "Knie", X: 0.2, Y: 0.35 }] });
    expect(UpdateQuestionSchema.safeParse(body).success).toBe(true);
  });
  it("sends the hint trimmed when it changed, and null when it was emptied", () => {
    const q = question({ Hint: "Bitte die letzten zwei Wochen bedenken." });
    const draft = initialQuestionDraft({ kind: "edit", question: q });
    expect(draft.hint).toBe("Bitte die letzten zwei Wochen bedenken.");
    expect(updateQuestionBody(q, { ...draft, hint: " Bitte die letzte Woche bedenken. " }, 1)).toEqual({
      SurveyId: 1,
      Hint: "Bitte die letzte Woche bedenken.",
    });
    const cleared = updateQuestionBody(q, { ...draft, hint: "  " }, 1);
    expect(cleared).toEqual({ SurveyId: 1, Hint: null });
    expect(UpdateQuestionSchema.safeParse(cleared).success).toBe(true);
    // Codes are the imported instrument's: an edit never sends them, so the server keeps them.
    const coded = question({ Codes: [{ System: "http://loinc.org", Code: "44250-9", Display: null }] });
    const renamed = { ...initialQuestionDraft({ kind: "edit", question: coded }), title: "Wenig Interesse" };
    expect(updateQuestionBody(coded, renamed, 1)).toEqual({ SurveyId: 1, Title: "Wenig Interesse" });
  });
  it("leaves options the kind does not offer as stored", () => {
    const q = question({ Type: "FreeText", AllowMultipleAnswers: true });
    const draft = { ...initialQuestionDraft({ kind: "edit", question: q }), allowFileAttachments: true };
    expect(updateQuestionBody(q, draft, 1)).toEqual({ SurveyId: 1, AllowFileAttachments: true });
  });
});

describe("image files", () => {
  it("takes PNG, JPEG, GIF and WebP up to the size whose data URL fits the API", () => {
    expect(imageFileIssue({ type: "image/webp", size: 1000 })).toBeNull();
    expect(imageFileIssue({ type: "image/svg+xml", size: 1000 })).toBe("type");
    expect(imageFileIssue({ type: "image/png", size: MAX_IMAGE_BYTES + 1 })).toBe("size");
    const longest = `data:image/jpeg;base64,${"A".repeat((MAX_IMAGE_BYTES / 3) * 4)}`;
    expect(imageSrcIssue(longest)).toBeNull();
  });
  it("checks the data URL the way the API does", () => {
    expect(imageSrcIssue(png)).toBeNull();
    expect(imageSrcIssue("data:text/plain;base64,AAAA")).toBe("type");
    expect(imageSrcIssue(`data:image/png;base64,${"A".repeat(2_000_000)}`)).toBe("size");
  });
});
