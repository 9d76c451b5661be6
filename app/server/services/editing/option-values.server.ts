import { DEFAULT_MARKER_POSITION, resolveWeighting, weightingStates, type AnswerOptionInput } from "~/domain/editing";
import { AppError } from "~/domain/errors";
import type { QuestionType } from "~/domain/question-types";
import type { Row, Trx } from "~/server/db/types.server";
import { flag } from "./common.server";

/** The columns of an answer option the editor sets. */
export type OptionColumns = Pick<
  Row<"answer_options">,
  "text" | "value" | "is_exit_answer" | "weighting_state" | "weight" | "pos_x" | "pos_y" | "score" | "system"
>;

const NEW_OPTION = { WeightingState: weightingStates.notWeighted, Weight: null };

/**
 * An answer option's columns after applying the editor's input to the stored ones (or to the defaults of a
 * new option): a weight only for a correct answer, a marker position only on image questions. The score is
 * the answer's own, whatever its weighting (docs/decisions/051-instrument-scores.md).
 */
export function optionColumns(
  type: QuestionType,
  current: OptionColumns | null,
  input: Partial<Omit<AnswerOptionInput, "Id">>,
): OptionColumns {
  const weighting = resolveWeighting(
    current ? { WeightingState: current.weighting_state, Weight: current.weight } : NEW_OPTION,
    input,
  );
  if (typeof weighting === "string") throw new AppError("VALIDATION_ERROR", weighting);
  const image = type === "Image";
  if (!image && (input.X !== undefined || input.Y !== undefined)) {
    throw new AppError("VALIDATION_ERROR", "Only answer options of image questions have a position");
  }
  if (!image && input.Title !== undefined) {
    throw new AppError("VALIDATION_ERROR", "Only answer options of image questions have a Title; send Text");
  }
  const position = (given: number | undefined, stored: number | null | undefined) =>
    image ? (given ?? stored ?? DEFAULT_MARKER_POSITION) : null;
  return {
    text: input.Title ?? input.Text ?? current?.text ?? "",
    value: input.Value !== undefined ? input.Value : (current?.value ?? null),
    is_exit_answer: flag(input.IsExitAnswer) ?? current?.is_exit_answer ?? 0,
    weighting_state: weighting.WeightingState,
    weight: weighting.Weight,
    pos_x: position(input.X, current?.pos_x),
    pos_y: position(input.Y, current?.pos_y),
    score: input.Score !== undefined ? input.Score : (current?.score ?? null),
    system: input.System !== undefined ? input.System : (current?.system ?? null),
  };
}

/** A text as two answers of one question may not both read: case, spaces around and within aside. */
const sameText = (text: string) => text.trim().replace(/\s+/g, " ").toLocaleLowerCase("de-DE");

/**
 * Refuses with 409 SURVEY_ANSWER_OPTION_EXISTS when two answers of the question would read the same: the
 * new or changed `texts` among themselves, or one of them and another answer (but `except`) already there.
 */
export async function assertDistinctTexts(trx: Trx, questionId: number, texts: readonly string[], except?: number) {
  let query = trx.selectFrom("answer_options").select("text").where("question_id", "=", questionId);
  if (except !== undefined) query = query.where("id", "<>", except);
  const seen = new Set((await query.execute()).map((r) => sameText(r.text)).filter(Boolean));
  for (const text of texts) {
    const key = sameText(text);
    if (!key) continue;
    if (seen.has(key)) {
      throw new AppError("SURVEY_ANSWER_OPTION_EXISTS", `The question has an answer "${text.trim()}" already`);
    }
    seen.add(key);
  }
}

/** Appends answer options to a question, in the given order after `firstSort`; their ids in that order. */
export async function insertOptions(
  trx: Trx,
  target: { surveyId: number; questionId: number; type: QuestionType; firstSort: number },
  inputs: Omit<AnswerOptionInput, "Id">[],
): Promise<number[]> {
  if (inputs.length === 0) return [];
  // Every row carries every key (SQLite writes a missing key of a multi-row insert as NULL).
  const rows = inputs.map((input, i) => ({
    survey_id: target.surveyId,
    question_id: target.questionId,
    sort: target.firstSort + i,
    ...optionColumns(target.type, null, input),
  }));
  await assertDistinctTexts(
    trx,
    target.questionId,
    rows.map((r) => r.text),
  );
  const inserted = await trx.insertInto("answer_options").values(rows).returning("id").execute();
  return inserted.map((r) => r.id);
}
