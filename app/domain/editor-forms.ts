import { z } from "./zod";
import { periodErrors } from "./dates";
import { editingLimits } from "./editing";
import type { QuestionType } from "./question-types";
import { moveKinds } from "./moves";
import { typedScore } from "./scores";

/** A survey title's longest length (the field's maxLength and the check agree). */
export const SURVEY_TITLE_MAX = 200;

/** Section 4: a survey keeps a title. Read with keepEmpty, so a cleared title is "" and not absent. */
const title = z.string().trim().min(1, "editor.titleRequired").max(SURVEY_TITLE_MAX, "editor.titleTooLong");

const date = z
  .string()
  .trim()
  .optional()
  .transform((value) => value ?? "");

/**
 * The editor's header form (intent "save"): the period, and without JavaScript the title too (with it the
 * title is saved in place). Dates are DD.MM.YYYY or empty; the end is not before the start.
 */
export const SurveyInfoFormSchema = z
  .object({ intent: z.literal("save"), title: title.optional(), startDate: date, endDate: date })
  .superRefine((value, ctx) => {
    const errors = periodErrors(value.startDate, value.endDate);
    if (errors.start) ctx.addIssue({ code: "custom", path: ["startDate"], message: "editor.dateInvalid" });
    if (errors.end)
      ctx.addIssue({
        code: "custom",
        path: ["endDate"],
        message: errors.end === "invalid" ? "editor.dateInvalid" : "editor.endBeforeStart",
      });
  });

const position = z.coerce.number<string>().int().min(0).max(100_000);

/** Every post of the editor page, told apart by its intent (read with keepEmpty). */
export const EditorActionSchema = z.discriminatedUnion("intent", [
  SurveyInfoFormSchema,
  // Move up / move down without JavaScript (with it, the page calls the API itself).
  z.object({ intent: z.literal("move"), kind: z.enum(moveKinds), id: position, newPosition: position }),
  // The title saved in place by the page.
  z.object({ intent: z.literal("title"), title }),
  z.object({ intent: z.literal("publish") }),
  z.object({ intent: z.literal("unpublish") }),
]);

/** The category modal's one field (section 5). */
export const CategoryTitleFormSchema = z.object({
  title: z
    .string({ error: "questionnaire.titleRequired" })
    .trim()
    .min(1, "questionnaire.titleRequired")
    .max(editingLimits.categoryTitle, "forms.invalid"),
});

/** The answer modal's text (section 5); its other fields are choices that cannot be wrong. */
export const AnswerTextFormSchema = z.object({
  text: z
    .string({ error: "questionModal.answerTextRequired" })
    .trim()
    .min(1, "questionModal.answerTextRequired")
    .max(editingLimits.answerText, "questionModal.answerTextTooLong"),
});

/**
 * The answer modal: its text, and the answer's score as typed (docs/decisions/051-instrument-scores.md):
 * empty for none, a decimal comma or point.
 */
export const AnswerFormSchema = AnswerTextFormSchema.extend({
  score: z
    .string()
    .optional()
    .refine((v) => v === undefined || typedScore(v).ok, "questionModal.scoreInvalid"),
});

/** A required text of an entry list: its message when blank, the API's limit (section 5). */
const entryText = (required: string) =>
  z.string({ error: required }).trim().min(1, required).max(editingLimits.answerText, "forms.invalid");

/**
 * The preliminary question's modal (section 5): a title, and at least one entry, none of them blank. The
 * entries are the fields `entries[0].text`, `entries[1].text`, … in their order.
 */
export const PreliminaryQuestionFormSchema = z.object({
  title: z
    .string({ error: "preliminary.titleRequired" })
    .trim()
    .min(1, "preliminary.titleRequired")
    .max(editingLimits.attributeTitle, "forms.invalid"),
  entries: z
    .array(z.object({ text: entryText("preliminary.entryRequired") }), { error: "preliminary.entriesRequired" })
    .min(1, "preliminary.entriesRequired")
    .max(editingLimits.options, "forms.invalid"),
});

/**
 * The question modal (sections 2 and 5) for a kind of question: a title; a numerical question's unit; an
 * image question's image (`imageSrc`) and markers (`markers[i].text`, each titled). A new choice question's
 * answers (`answers[i].text`) may be left empty: empty ones are not sent.
 */
export function questionFormSchema(type: QuestionType) {
  // A field the kind does not offer is not in the form (Conform's coercion needs it optional to pass).
  const notOffered = z.string().optional();
  const image = type === "Image";
  return z.object({
    title: z
      .string({ error: "questionModal.titleRequired" })
      .trim()
      .min(1, "questionModal.titleRequired")
      .max(editingLimits.questionTitle, "questionModal.titleTooLong"),
    unit:
      type === "Numerical"
        ? z.string().trim().max(editingLimits.unit, "questionModal.unitTooLong").optional()
        : notOffered,
    imageSrc: image ? z.string({ error: "questionModal.imageRequired" }) : notOffered,
    markers: image
      ? z
          .array(z.object({ text: entryText("questionModal.markerRequired") }), {
            error: "questionModal.markersRequired",
          })
          .min(1, "questionModal.markersRequired")
          .max(editingLimits.options, "forms.invalid")
      : notOffered,
    answers: z
      .array(z.object({ text: z.string().trim().max(editingLimits.answerText, "forms.invalid").optional() }))
      .max(editingLimits.options, "forms.invalid")
      .optional(),
    hint: z.string().trim().max(editingLimits.hint, "questionModal.hintTooLong").optional(),
  });
}
