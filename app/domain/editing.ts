/**
 * What the editor may send (section 5): one schema per input, shared by the editor's forms and the REST API.
 * The API adds the checks that need the database (ids of the survey, recorded answers) on the server.
 */
import { z } from "./zod";
import { type QuestionType } from "./question-types";
import { QuestionTypeSchema, type Dependence } from "./survey";
import { IdSchema } from "./id-schema";
import { CodesSchema } from "./instrument";
import { isScore } from "./scores";

export const editingLimits = {
  categoryTitle: 200,
  questionTitle: 1000,
  answerText: 500,
  attributeTitle: 500,
  value: 200,
  unit: 50,
  /** A question's help text. */
  hint: 1000,
  /** An answer value's code system. */
  system: 500,
  /** Characters of an image data URL (about 2 MB). */
  imageSrc: 2_000_000,
  /** Answer options of one question, entries of one preliminary question. */
  options: 200,
  dependenceOptions: 200,
  /** Levels of sub-questions under a top-level question. */
  subQuestionDepth: 20,
} as const;

export { DEFAULT_MARKER_POSITION } from "./markers";

/** WeightingState values: 1 correct, 0 not correct, 2 not weighted. */
export const weightingStates = { notCorrect: 0, correct: 1, notWeighted: 2 } as const;

const id = IdSchema;

/** Trimmed text that may not be blank. */
export function requiredText(max: number, what: string) {
  return z.string().trim().min(1, `${what} is required`).max(max, `${what} is too long (at most ${max} characters)`);
}

/** Optional trimmed text; blank becomes null. */
function optionalText(max: number) {
  return z
    .string()
    .trim()
    .max(max)
    .nullable()
    .transform((v) => (v ? v : null));
}

export const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** A marker position: a fraction 0..1 kept to 3 decimals. */
export const PositionSchema = z.number().min(0).max(1).transform(round3);

export const WeightingStateSchema = z.union([z.literal(0), z.literal(1), z.literal(2)]);
/** An answer's score (docs/decisions/051-instrument-scores.md): −9999 to 9999, at most 4 decimals. */
export const ScoreSchema = z
  .number()
  .refine(isScore, "A score is a number from -9999 to 9999 with at most 4 decimals")
  .transform((v) => v + 0);
export const WeightSchema = z.number().int().min(1).max(3);

export const ImageSrcSchema = z
  .string()
  .max(editingLimits.imageSrc, "The image is too large")
  .regex(/^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/, "Expected a PNG, JPEG, GIF or WebP data URL");

/**
 * A dependence rule as the editor sends it. Selecting answers without a Type means SHOW; an empty list (or
 * null) removes the rule. The output is the stored rule, ids de-duplicated and sorted, or null.
 */
export const DependenceInputSchema = z
  .strictObject({
    Type: z.enum(["SHOW", "HIDE"]).nullable().optional(),
    PreliminaryAnswerOptions: z.array(id).max(editingLimits.dependenceOptions),
  })
  .nullable()
  .transform(normalizeDependence);

export function normalizeDependence(
  input: { Type?: "SHOW" | "HIDE" | null; PreliminaryAnswerOptions: number[] } | null,
): Dependence | null {
  if (!input) return null;
  const ids = [...new Set(input.PreliminaryAnswerOptions)].sort((a, b) => a - b);
  if (ids.length === 0) return null;
  return { Type: input.Type ?? "SHOW", PreliminaryAnswerOptions: ids };
}

export interface Weighting {
  WeightingState: number;
  Weight: number | null;
}

/**
 * The weighting stored after an edit: a weight only for a correct answer (choosing correct without a weight
 * gives 1), null otherwise. A weight sent with another state is refused (a message is returned).
 */
export function resolveWeighting(
  current: Weighting,
  input: { WeightingState?: number; Weight?: number | null },
): Weighting | string {
  const state = input.WeightingState ?? current.WeightingState;
  if (state !== weightingStates.correct) {
    if (input.Weight != null) return "A weight is only given to a correct answer (WeightingState 1)";
    return { WeightingState: state, Weight: null };
  }
  const weight = input.Weight !== undefined ? (input.Weight ?? 1) : (current.Weight ?? 1);
  return { WeightingState: state, Weight: weight };
}

const NEW_OPTION: Weighting = { WeightingState: weightingStates.notWeighted, Weight: null };

function weightRule(defaults: Weighting | null) {
  return (value: { WeightingState?: number; Weight?: number | null }, ctx: z.RefinementCtx) => {
    // On an edit the stored state decides, so only a state sent alongside is checked here.
    if (!defaults && value.WeightingState === undefined) return;
    const result = resolveWeighting(defaults ?? NEW_OPTION, value);
    if (typeof result === "string") ctx.addIssue({ code: "custom", path: ["Weight"], message: result });
  };
}

/**
 * An answer's words: Text, or Title for an image question's marker (section 3: "Image answer options have a
 * Title"); a marker's Text is taken as its Title too. A new answer needs one of them; both must agree.
 */
function textRule(required: boolean) {
  return (value: { Text?: string; Title?: string }, ctx: z.RefinementCtx) => {
    if (required && value.Text === undefined && value.Title === undefined) {
      ctx.addIssue({ code: "custom", path: ["Text"], message: "Answer text (or an image marker's Title) is required" });
    }
    if (value.Text !== undefined && value.Title !== undefined && value.Text !== value.Title) {
      ctx.addIssue({ code: "custom", path: ["Title"], message: "Send Title or Text, not two different ones" });
    }
  };
}

const answerOptionFields = {
  Text: requiredText(editingLimits.answerText, "Answer text")
    .optional()
    .describe("The answer's text; for an image question's marker it is taken as its Title"),
  Title: requiredText(editingLimits.answerText, "Title")
    .optional()
    .describe("Image questions only: the marker's title (section 3); answers of other questions have a Text"),
  Value: optionalText(editingLimits.value).optional(),
  IsExitAnswer: z.boolean().optional(),
  WeightingState: WeightingStateSchema.optional(),
  Weight: WeightSchema.nullable().optional(),
  /** Image questions only: the marker's position (default 0.05, 0.05). */
  X: PositionSchema.optional(),
  Y: PositionSchema.optional(),
  Score: ScoreSchema.nullable().optional().describe("The answer's score in its instrument; null: none"),
  System: optionalText(editingLimits.system).optional().describe("The code system of Value"),
};

/** An answer option sent inside a question (image markers); Id names a kept one on an edit. */
export const AnswerOptionInputSchema = z
  .strictObject({ Id: id.optional(), ...answerOptionFields })
  .superRefine((o, ctx) => {
    textRule(true)(o, ctx);
    weightRule(o.Id === undefined ? NEW_OPTION : null)(o, ctx);
  });
export type AnswerOptionInput = z.infer<typeof AnswerOptionInputSchema>;

/** POST /answer-options */
export const CreateAnswerOptionSchema = z
  .strictObject({ SurveyId: id, QuestionId: id, ...answerOptionFields })
  .superRefine(textRule(true))
  .superRefine(weightRule(NEW_OPTION));
export type CreateAnswerOption = z.infer<typeof CreateAnswerOptionSchema>;

/** PUT /answer-options/{id}: any subset of the fields. */
export const UpdateAnswerOptionSchema = z
  .strictObject({ SurveyId: id.optional(), ...answerOptionFields })
  .superRefine(textRule(false))
  .superRefine(weightRule(null));
export type UpdateAnswerOption = z.infer<typeof UpdateAnswerOptionSchema>;

export interface QuestionShape {
  Type: QuestionType;
  ImageSrc: string | null;
  Unit: string | null;
  /** How many answer options the question has (image markers). */
  AnswerOptionCount: number;
}

/** The rules that tie a question's fields to its type; an empty list when the question is consistent. */
export function questionShapeIssues(q: QuestionShape): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  if (q.Type === "Image") {
    if (!q.ImageSrc) issues.push({ path: "ImageSrc", message: "An image question needs an image" });
    if (q.AnswerOptionCount < 1) {
      issues.push({ path: "AnswerOptions", message: "An image question needs at least one answer option" });
    }
  } else if (q.ImageSrc) {
    issues.push({ path: "ImageSrc", message: "Only image questions have an image" });
  }
  if (q.Unit && q.Type !== "Numerical") issues.push({ path: "Unit", message: "Only numerical questions have a unit" });
  return issues;
}

const questionFields = {
  Title: requiredText(editingLimits.questionTitle, "Title"),
  AllowFileAttachments: z.boolean().optional(),
  AllowMultipleAnswers: z.boolean().optional(),
  Unit: optionalText(editingLimits.unit).optional(),
  IsTestQuestion: z.boolean().optional(),
  ImageSrc: ImageSrcSchema.nullable().optional(),
  Dependence: DependenceInputSchema.optional(),
  Hint: optionalText(editingLimits.hint).optional().describe("A help text shown under the question; blank: none"),
  Codes: CodesSchema.optional().describe("The instrument's codes of the item"),
  /**
   * Image questions: their markers. A new single or multiple selection question may bring its first answers
   * too; later ones come through POST /answer-options.
   */
  AnswerOptions: z.array(AnswerOptionInputSchema).max(editingLimits.options).optional(),
};

function checkNewQuestion(
  q: { Type: QuestionType; ImageSrc?: string | null; Unit?: string | null; AnswerOptions?: AnswerOptionInput[] },
  ctx: z.RefinementCtx,
) {
  const issues = questionShapeIssues({
    Type: q.Type,
    ImageSrc: q.ImageSrc ?? null,
    Unit: q.Unit ?? null,
    AnswerOptionCount: q.AnswerOptions?.length ?? 0,
  });
  if (!["Image", "SingleSelection", "MultipleSelection"].includes(q.Type) && q.AnswerOptions !== undefined) {
    issues.push({ path: "AnswerOptions", message: "Only choice and image questions are created with answer options" });
  }
  for (const issue of issues) ctx.addIssue({ code: "custom", path: [issue.path], message: issue.message });
  checkIds(q.AnswerOptions, "new", ctx);
}

/** Entries of a new item carry no Id; entries of an edited list name each kept one at most once. */
function checkIds(list: { Id?: number }[] | undefined, kind: "new" | "edit", ctx: z.RefinementCtx) {
  const ids = (list ?? []).flatMap((e) => (e.Id === undefined ? [] : [e.Id]));
  if (kind === "new" && ids.length > 0) {
    ctx.addIssue({ code: "custom", path: ["AnswerOptions"], message: "New answer options have no Id" });
  } else if (new Set(ids).size !== ids.length) {
    ctx.addIssue({ code: "custom", path: ["AnswerOptions"], message: "An answer option is listed twice" });
  }
}

/** POST /questions */
export const CreateQuestionSchema = z
  .strictObject({ SurveyId: id, CategoryId: id, Type: QuestionTypeSchema, ...questionFields })
  .superRefine(checkNewQuestion);
export type CreateQuestion = z.infer<typeof CreateQuestionSchema>;

/** POST /answer-options/{id}/sub-question: the sub-question takes its parent's category. */
export const CreateSubQuestionSchema = z
  .strictObject({ SurveyId: id, Type: QuestionTypeSchema, ...questionFields })
  .superRefine(checkNewQuestion);
export type CreateSubQuestion = z.infer<typeof CreateSubQuestionSchema>;

/**
 * PUT /questions/{id}: any subset of the fields. SurveyId and Type may be sent but not changed; AnswerOptions
 * (image questions) is the whole new list: entries with Id are kept, those without are added.
 */
export const UpdateQuestionSchema = z
  .strictObject({ SurveyId: id, CategoryId: id, Type: QuestionTypeSchema, ...questionFields })
  .partial()
  .superRefine((q, ctx) => checkIds(q.AnswerOptions, "edit", ctx));
export type UpdateQuestion = z.infer<typeof UpdateQuestionSchema>;

/** POST /categories */
export const CreateCategorySchema = z.strictObject({
  SurveyId: id,
  Title: requiredText(editingLimits.categoryTitle, "Title"),
  Codes: CodesSchema.optional(),
});
export type CreateCategory = z.infer<typeof CreateCategorySchema>;

/** PUT /categories/{id} */
export const UpdateCategorySchema = z.strictObject({
  SurveyId: id.optional(),
  Title: requiredText(editingLimits.categoryTitle, "Title"),
  Codes: CodesSchema.optional(),
});
export type UpdateCategory = z.infer<typeof UpdateCategorySchema>;

/** One answer of a preliminary question; Id names a kept one on an edit. */
export const PatientAttributeEntrySchema = z.strictObject({
  Id: id.optional(),
  Text: requiredText(editingLimits.answerText, "Answer"),
  Value: optionalText(editingLimits.value).optional(),
  IsExitAnswer: z.boolean().optional(),
});
export type PatientAttributeEntry = z.infer<typeof PatientAttributeEntrySchema>;

const entries = z
  .array(PatientAttributeEntrySchema)
  .min(1, "At least one answer is required")
  .max(editingLimits.options);

const attributeFields = {
  Title: requiredText(editingLimits.attributeTitle, "Title"),
  AnswerOptions: entries,
  Enabled: z.boolean().optional(),
  PreSelected: z.boolean().optional(),
};

/** POST /patient-attributes/ */
export const CreatePatientAttributeSchema = z
  .strictObject({ SurveyId: id, ...attributeFields })
  .superRefine((a, ctx) => checkIds(a.AnswerOptions, "new", ctx));
export type CreatePatientAttribute = z.infer<typeof CreatePatientAttributeSchema>;

/** PUT /patient-attributes/{id}: AnswerOptions is the whole new list (kept entries carry their Id). */
export const UpdatePatientAttributeSchema = z
  .strictObject({ SurveyId: id, ...attributeFields })
  .partial()
  .superRefine((a, ctx) => checkIds(a.AnswerOptions, "edit", ctx));
export type UpdatePatientAttribute = z.infer<typeof UpdatePatientAttributeSchema>;

/**
 * The list after moving the item at `from` to the 0-based `to` among the same list; null when either index
 * is outside it.
 */
export function moveTo<T>(list: readonly T[], from: number, to: number): T[] | null {
  if (from < 0 || from >= list.length || to < 0 || to >= list.length || !Number.isInteger(to)) return null;
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}
