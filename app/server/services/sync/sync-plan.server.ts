import { AppError } from "~/domain/errors";
import type { OfflineSyncPayload, SyncQuestionAnswer } from "~/domain/offline-sync";
import type { Question } from "~/domain/survey";
import { hiddenAnsweredQuestionIds, visibleQuestionIds } from "~/domain/visibility";
import { valuesFor, type AnswerInput } from "../fill/answer-write.server";
import { isSingleChoice } from "~/domain/question-types";
import { toAnswers, type ResponseRow } from "../fill/case-answers.server";
import type { SurveyStructure } from "../fill/structure.server";

/** What a synced fill writes into its case, checked against the survey before anything is written. */
export interface FillPlan {
  /** Preliminary question id → chosen preliminary answer id. */
  preliminary: Record<number, number>;
  /** The answer rows (one per answer, one per chosen option of a selection). */
  rows: ResponseRow[];
  /** How many questions carry an answer. */
  answered: number;
}

function invalid(message: string): never {
  throw new AppError("VALIDATION_ERROR", message);
}

const valueFields = [
  "AnswerOptionId",
  "AnswerOptionIds",
  "TextResponse",
  "NumericalResponse",
  "DateTimeResponse",
] as const;

/** The answer in the shape the online write path takes; null when the entry carries no value. */
function inputOf(answer: SyncQuestionAnswer, question: Question): AnswerInput | null {
  const given = valueFields.filter((field) => answer[field] != null);
  if (given.length === 0) return null;
  if (given.length > 1) invalid(`Question ${question.Id}: send only the field of its kind, not ${given.join(" and ")}`);
  switch (given[0]) {
    case "AnswerOptionId":
      return { kind: "single", optionId: answer.AnswerOptionId! };
    case "AnswerOptionIds": {
      const ids = answer.AnswerOptionIds!;
      // The fill page keeps every choice as a list; a single-choice answer may come as a list of its one option.
      if (isSingleChoice(question) && new Set(ids).size <= 1) {
        return ids.length === 0 ? null : { kind: "single", optionId: ids[0] };
      }
      return { kind: "multiple", optionIds: ids };
    }
    case "TextResponse":
      return { kind: "text", text: answer.TextResponse! };
    case "NumericalResponse":
      return { kind: "number", value: answer.NumericalResponse! };
    case "DateTimeResponse":
      return { kind: "dateTime", value: answer.DateTimeResponse! };
  }
}

function preliminaryOf(structure: SurveyStructure, payload: OfflineSyncPayload): Record<number, number> {
  const preliminary: Record<number, number> = {};
  for (const answer of payload.PreliminaryQuestionAnswers) {
    const attribute = structure.attributes.get(answer.QuestionId);
    if (!attribute) invalid(`Preliminary question ${answer.QuestionId} is not part of this survey`);
    if (preliminary[attribute.Id] !== undefined) invalid(`Preliminary question ${attribute.Id} is answered twice`);
    if (!attribute.AnswerOptions.some((o) => o.Id === answer.AnswerOptionId)) {
      invalid(`Answer ${answer.AnswerOptionId} is not an answer of preliminary question ${attribute.Id}`);
    }
    preliminary[attribute.Id] = answer.AnswerOptionId;
  }
  return preliminary;
}

/** The rows of the fill's answers, each checked against its question; and the questions it answers. */
function givenRows(structure: SurveyStructure, payload: OfflineSyncPayload) {
  const rows: ResponseRow[] = [];
  const seen = new Set<number>();
  for (const answer of payload.QuestionAnswers) {
    const question = structure.questions.get(answer.QuestionId);
    if (!question) invalid(`Question ${answer.QuestionId} is not part of this survey`);
    if (seen.has(question.Id)) invalid(`Question ${question.Id} is answered twice`);
    seen.add(question.Id);
    const input = inputOf(answer, question);
    if (!input) continue;
    for (const value of valuesFor(question, input)) rows.push({ ...value, question_id: question.Id });
  }
  return { rows, questionIds: seen };
}

/** Every question the fill answers must be shown, given the preliminary answers and the choices. */
function requireShown(
  structure: SurveyStructure,
  preliminary: Record<number, number>,
  rows: ResponseRow[],
  ids: number[],
) {
  const visible = visibleQuestionIds(structure.topLevel, preliminary, toAnswers(rows));
  const hidden = ids.filter((id) => !visible.has(id));
  if (hidden.length > 0) {
    invalid(`Question ${hidden.join(", ")} is not shown for this case (preliminary answers or the parent's choice)`);
  }
}

/**
 * Checks a synced fill as the online write path checks each answer (the question belongs to the survey,
 * the value fits its kind, the options are its own) and, given the preliminary answers and the choices,
 * that every answered question is shown. Any fault refuses the whole fill with 400.
 */
export function planFill(structure: SurveyStructure, payload: OfflineSyncPayload): FillPlan {
  const preliminary = preliminaryOf(structure, payload);
  const { rows } = givenRows(structure, payload);
  const answered = Object.keys(toAnswers(rows)).map(Number);
  requireShown(structure, preliminary, rows, answered);
  return { preliminary, rows, answered: answered.length };
}

/**
 * A fill that continues the case's answers version (BaseVersion) carries only its changes: the answers it
 * gave or removed and the preliminary answers it changed. The case's other answers stay, checked as
 * planFill checks a whole fill; answers the changes hide go, as they go online when a preliminary answer
 * or a parent's choice changes. The plan is the case's whole new set.
 */
export function planChanges(
  structure: SurveyStructure,
  payload: OfflineSyncPayload,
  current: { rows: readonly ResponseRow[]; preliminary: Record<number, number> },
): FillPlan {
  const preliminary = { ...current.preliminary, ...preliminaryOf(structure, payload) };
  const given = givenRows(structure, payload);
  const removed = new Set<number>();
  for (const id of payload.RemovedQuestionIds ?? []) {
    if (!structure.questions.has(id)) invalid(`Question ${id} is not part of this survey`);
    if (given.questionIds.has(id)) invalid(`Question ${id} is both answered and removed`);
    removed.add(id);
  }
  const kept = current.rows.filter((r) => !removed.has(r.question_id) && !given.questionIds.has(r.question_id));
  const merged = [...kept, ...given.rows];
  requireShown(structure, preliminary, merged, Object.keys(toAnswers(given.rows)).map(Number));
  const hidden = new Set(hiddenAnsweredQuestionIds(structure.topLevel, preliminary, toAnswers(merged)));
  const rows = merged.filter((r) => !hidden.has(r.question_id));
  return { preliminary, rows, answered: Object.keys(toAnswers(rows)).length };
}
