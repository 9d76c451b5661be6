import { z } from "zod";
import { periodErrors } from "./dates";
import { editingLimits } from "./editing";
import { moveKinds } from "./moves";

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
