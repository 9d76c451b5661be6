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

/**
 * Whether a question takes several of its options (multiple selections, and image questions that allow
 * several markers): the shares of its answers can then add up to more than 100 %.
 */
export function takesSeveralOptions(q: { Type: QuestionType; AllowMultipleAnswers: boolean }): boolean {
  return (
    q.Type === "MultipleSelection" || q.Type === "MultipleChoice" || (q.Type === "Image" && q.AllowMultipleAnswers)
  );
}
