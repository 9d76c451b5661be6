/** Question kinds and their codes; statistics use the codes (3 numeric, 4 date-time). Free of zod. */
export const questionTypes = [
  "SingleSelection",
  "MultipleSelection",
  "Numerical",
  "DateTime",
  "FreeText",
  "Image",
  "MultipleChoice",
] as const;
export type QuestionType = (typeof questionTypes)[number];
export type QuestionTypeCode = 1 | 2 | 3 | 4 | 5 | 6 | 7;

export function questionTypeCode(type: QuestionType): QuestionTypeCode {
  return (questionTypes.indexOf(type) + 1) as QuestionTypeCode;
}

export function questionTypeName(code: number): QuestionType {
  return questionTypes[code - 1] ?? "FreeText";
}

/** Kinds whose answers are chosen options. */
export function hasAnswerOptions(type: QuestionType) {
  return type === "SingleSelection" || type === "MultipleSelection" || type === "MultipleChoice" || type === "Image";
}

/** The selection kinds: answer options as text (image questions choose markers instead). */
export function isSelection(type: QuestionType) {
  return type === "SingleSelection" || type === "MultipleSelection" || type === "MultipleChoice";
}

/** How a question is answered: one option, several options, a text, a number or a date and time. */
export type AnswerKind = "single" | "multiple" | "text" | "number" | "dateTime";

type Answered = { Type: QuestionType; AllowMultipleAnswers: boolean };

/**
 * The one rule for single against multiple choice: multiple selections (and the older multiple choice) take
 * several options, single selections one, and an image question several markers only when it allows multiple
 * answers. The answer endpoints, the offline entry, the stored answers' wire shape and the statistics' shares
 * all take it from here.
 */
export function answerKind(q: Answered): AnswerKind {
  switch (q.Type) {
    case "SingleSelection":
      return "single";
    case "MultipleSelection":
    case "MultipleChoice":
      return "multiple";
    case "Image":
      return q.AllowMultipleAnswers ? "multiple" : "single";
    case "FreeText":
      return "text";
    case "Numerical":
      return "number";
    case "DateTime":
      return "dateTime";
  }
}

/** Whether a question's chosen option is one (sent as AnswerOptionId rather than AnswerOptionIds). */
export function isSingleChoice(q: Answered): boolean {
  return answerKind(q) === "single";
}

/**
 * Whether a question takes several of its options (multiple selections, and image questions that allow
 * several markers): the shares of its answers can then add up to more than 100 %.
 */
export function takesSeveralOptions(q: Answered): boolean {
  return answerKind(q) === "multiple";
}

/**
 * Whether a case may hold several option rows for the question: every option kind but the single selection
 * (an image question's "multiple answers" may have been otherwise when its answers were stored).
 */
export function mayHoldSeveralOptions(type: QuestionType): boolean {
  return hasAnswerOptions(type) && type !== "SingleSelection";
}
