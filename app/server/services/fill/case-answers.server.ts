import type { AnswerValue, Answers } from "~/domain/answers";
import type { QuestionResponse } from "~/domain/fill-requests";
import { storedToWireDateTime } from "~/domain/response-values";
import { isSingleChoice } from "~/domain/question-types";
import type { Question } from "~/domain/survey";
import { prepared } from "~/server/db/prepared.server";
import type { Executor, Row } from "~/server/db/types.server";

import type { SurveyStructure } from "./structure.server";

export type ResponseRow = Pick<
  Row<"question_responses">,
  "question_id" | "answer_option_id" | "text_response" | "numerical_response" | "date_time_response"
>;

const answerRows = prepared<[number], ResponseRow>((db, $) =>
  db
    .selectFrom("question_responses")
    .select(["question_id", "answer_option_id", "text_response", "numerical_response", "date_time_response"])
    .where("patient_data_id", "=", $(0))
    .orderBy("id"),
);

const preliminaryRows = prepared<[number], { attribute_id: number; answer_option_id: number }>((db, $) =>
  db
    .selectFrom("attribute_responses")
    .select(["attribute_id", "answer_option_id"])
    .where("patient_data_id", "=", $(0))
    .orderBy("attribute_id"),
);

/** The recorded answer rows of a case (one per answer, one per chosen option of a selection). */
export function answerRowsOf(db: Executor, caseId: number): Promise<ResponseRow[]> {
  return answerRows.all(db, caseId);
}

/** The preliminary answers of a case: preliminary question id → chosen preliminary answer id. */
export async function preliminaryOf(db: Executor, caseId: number): Promise<Record<number, number>> {
  const rows = await preliminaryRows.all(db, caseId);
  return Object.fromEntries(rows.map((r) => [r.attribute_id, r.answer_option_id]));
}

/** The answers of a case as the shared rules (visibility, category status) take them. */
export function toAnswers(rows: readonly ResponseRow[]): Answers {
  const answers: Answers = {};
  for (const r of rows) {
    const value: AnswerValue = (answers[r.question_id] ??= {});
    if (r.answer_option_id !== null) (value.AnswerOptionIds ??= []).push(r.answer_option_id);
    if (r.text_response !== null) value.TextResponse = r.text_response;
    if (r.numerical_response !== null) value.NumericalResponse = r.numerical_response;
    if (r.date_time_response !== null) value.DateTimeResponse = storedToWireDateTime(r.date_time_response);
  }
  return answers;
}

/** One question's answer in the wire shape of GET /question-responses; null when it has none. */
export function wireAnswer(
  questionId: number,
  value: AnswerValue | undefined,
  question: Question | undefined,
): QuestionResponse | null {
  if (!value) return null;
  const out: QuestionResponse = { QuestionId: questionId };
  if (value.AnswerOptionIds?.length) {
    const order = new Map(question?.AnswerOptions.map((o, i) => [o.Id, i]) ?? []);
    const ids = [...value.AnswerOptionIds].sort((a, b) => (order.get(a) ?? a) - (order.get(b) ?? b));
    if (question && isSingleChoice(question)) out.AnswerOptionId = ids[0];
    else out.AnswerOptionIds = ids;
  }
  if (value.TextResponse !== undefined) out.TextResponse = value.TextResponse;
  if (value.NumericalResponse !== undefined) out.NumericalResponse = value.NumericalResponse;
  if (value.DateTimeResponse !== undefined) out.DateTimeResponse = value.DateTimeResponse;
  return out;
}

/** All answers of a case in the wire shape, in the order of the survey's questions. */
export function wireAnswers(rows: readonly ResponseRow[], structure: SurveyStructure): QuestionResponse[] {
  const answers = toAnswers(rows);
  const position = new Map([...structure.questions.keys()].map((id, i) => [id, i]));
  const rank = (id: number) => position.get(id) ?? Number.MAX_SAFE_INTEGER;
  const ids = Object.keys(answers)
    .map(Number)
    .sort((a, b) => rank(a) - rank(b) || a - b);
  return ids.map((id) => wireAnswer(id, answers[id], structure.questions.get(id))!);
}
