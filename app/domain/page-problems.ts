/** A typed value refused: the value as typed, and the key of its message. */
export interface ValueProblem {
  typed: string;
  reason: string;
}

/** A file refused: its name, and a message key (or the server's own text). */
export interface FileProblem {
  name: string;
  reason: string;
}

/**
 * What the fill page's form (without JavaScript) could not take, shown on the page drawn again: the
 * action answers it with status 400 instead of going on (decision 007).
 */
export interface PageProblems {
  /** The preliminary page was to be left while some of its questions had no answer. */
  preliminaryIncomplete?: boolean;
  /** Typed values refused, by question id. */
  values?: Record<number, ValueProblem>;
  /** Files refused, by question id. */
  files?: Record<number, FileProblem[]>;
  /**
   * A preliminary answer that ends the survey was sent: it is not taken until it is confirmed (the page asks,
   * as it does with JavaScript); the form's other answers are saved.
   */
  exit?: { attributeId: number; optionId: number };
  /**
   * The form's files together passed the server's limit: the form could not be read, so nothing of it was
   * saved (the patient's page says so, in the case's language).
   */
  tooLarge?: boolean;
  /**
   * A question's answer that ends the survey was sent: it is not taken until it is confirmed, as a preliminary
   * one; the form's other answers are saved. The question and the options the form chose for it.
   */
  questionExit?: { questionId: number; optionIds: number[] };
  /** A patient's submit while questions are unanswered (decision 067): asked about before the case closes. */
  submitOpen?: boolean;
}

export function hasProblems(problems: PageProblems): boolean {
  return Boolean(
    problems.preliminaryIncomplete ||
    Object.keys(problems.values ?? {}).length ||
    Object.keys(problems.files ?? {}).length,
  );
}
