/**
 * One question's answer as the fill page holds it, in the specification's field names (section 3,
 * question response). A choice answer lists its option ids (one for a single selection).
 */
export interface AnswerValue {
  AnswerOptionIds?: number[];
  TextResponse?: string;
  NumericalResponse?: number;
  /** "DD.MM.YYYY HH:mm" */
  DateTimeResponse?: string;
}

export type Answers = Record<number, AnswerValue>;
/** Preliminary question id → chosen preliminary answer id. */
export type PreliminaryAnswers = Record<number, number>;

export function isAnswered(value: AnswerValue | undefined): boolean {
  if (!value) return false;
  return (
    (value.AnswerOptionIds?.length ?? 0) > 0 ||
    (value.TextResponse ?? "").trim() !== "" ||
    (value.NumericalResponse !== undefined && Number.isFinite(value.NumericalResponse)) ||
    (value.DateTimeResponse ?? "") !== ""
  );
}

/** Answers from GET /question-responses. */
export function answersFromResponses(
  rows: {
    QuestionId: number;
    AnswerOptionId?: number | null;
    AnswerOptionIds?: number[] | null;
    TextResponse?: string | null;
    NumericalResponse?: number | null;
    DateTimeResponse?: string | null;
  }[],
): Answers {
  const answers: Answers = {};
  for (const r of rows) {
    const v: AnswerValue = {};
    const ids = r.AnswerOptionIds ?? (r.AnswerOptionId != null ? [r.AnswerOptionId] : undefined);
    if (ids?.length) v.AnswerOptionIds = ids;
    if (r.TextResponse != null) v.TextResponse = r.TextResponse;
    if (r.NumericalResponse != null) v.NumericalResponse = r.NumericalResponse;
    if (r.DateTimeResponse != null) v.DateTimeResponse = r.DateTimeResponse;
    answers[r.QuestionId] = v;
  }
  return answers;
}
