import { AppError } from "~/domain/errors";
import type { AnswerWriteResult } from "~/domain/fill-requests";
import { answerKind, isSingleChoice } from "~/domain/question-types";
import { roundToStep, wireToStoredDateTime } from "~/domain/response-values";
import type { Question } from "~/domain/survey";
import { hiddenAnsweredQuestionIds, visibleQuestionIds } from "~/domain/visibility";
import { writeTransaction } from "~/server/db/group-commit.server";
import { answersRecorded } from "~/server/metrics.server";
import { prepared } from "~/server/db/prepared.server";
import type { DB, Trx } from "~/server/db/types.server";
import type { SurveyCaller } from "../surveys.server";
import { auditCase, requireFillableSurvey } from "./access.server";
import { answerRowsOf, preliminaryOf, toAnswers, wireAnswer, type ResponseRow } from "./case-answers.server";
import { caseVersion, openCaseForWrite, requireOpen, touchCase } from "./cases.server";
import { surveyStructure } from "./structure.server";

/** One answer as a write endpoint received it (already checked against its schema). */
export type AnswerInput =
  | { kind: "single"; optionId: number }
  | { kind: "multiple"; optionIds: readonly number[] }
  | { kind: "text"; text: string }
  | { kind: "number"; value: number }
  | { kind: "dateTime"; value: string }
  | { kind: "delete" };

export interface AnswerTarget {
  SurveyId: number;
  PatientId: string;
  QuestionId: number;
}

/**
 * Whether a write endpoint answers the question: the one the question's kind names, and either choice
 * endpoint for an image question (the multiple one then refuses several markers where only one is allowed).
 */
function answers(kind: Exclude<AnswerInput["kind"], "delete">, question: Question): boolean {
  if (question.Type === "Image") return kind === "single" || kind === "multiple";
  return answerKind(question) === kind;
}

const endpointOf: Record<Exclude<AnswerInput["kind"], "delete">, string> = {
  single: "single-selection",
  multiple: "multiple-selection",
  text: "free-text",
  number: "numerical",
  dateTime: "date-time",
};

type Value = Omit<ResponseRow, "question_id">;
const empty: Value = {
  answer_option_id: null,
  text_response: null,
  numerical_response: null,
  date_time_response: null,
};

function invalid(message: string): never {
  throw new AppError("VALIDATION_ERROR", message);
}

function optionValues(question: Question, ids: readonly number[]): Value[] {
  const own = new Set(question.AnswerOptions.map((o) => o.Id));
  const unique = [...new Set(ids)];
  const foreign = unique.filter((id) => !own.has(id));
  if (foreign.length > 0) invalid(`Answer option ${foreign.join(", ")} is not an option of question ${question.Id}`);
  return unique.map((id) => ({ ...empty, answer_option_id: id }));
}

/** The rows that record the answer (none: the answer is deleted); 400 when it does not fit the question. */
export function valuesFor(question: Question, input: AnswerInput): Value[] {
  if (input.kind === "delete") return [];
  if (!answers(input.kind, question)) {
    invalid(`Question ${question.Id} is a ${question.Type} question; /${endpointOf[input.kind]} does not answer it`);
  }
  switch (input.kind) {
    case "single":
      return optionValues(question, [input.optionId]);
    case "multiple": {
      if (isSingleChoice(question) && new Set(input.optionIds).size > 1) {
        invalid(`Question ${question.Id} takes one answer only`);
      }
      return optionValues(question, input.optionIds);
    }
    case "text":
      return input.text.trim() === "" ? [] : [{ ...empty, text_response: input.text }];
    case "number":
      return [{ ...empty, numerical_response: roundToStep(input.value) }];
    case "dateTime": {
      const stored = wireToStoredDateTime(input.value);
      if (stored === null) invalid("Expected a date and time as DD.MM.YYYY HH:mm");
      return [{ ...empty, date_time_response: stored }];
    }
  }
}

const deleteAnswer = prepared<[number, number], never>((db, $) =>
  db.deleteFrom("question_responses").where("patient_data_id", "=", $(0)).where("question_id", "=", $(1)),
);

const insertAnswer = prepared<
  [number, number, number, number | null, string | null, number | null, string | null, string],
  never
>((db, $) =>
  db.insertInto("question_responses").values({
    survey_id: $(0),
    patient_data_id: $(1),
    question_id: $(2),
    answer_option_id: $(3),
    text_response: $(4),
    numerical_response: $(5),
    date_time_response: $(6),
    created_at: $(7),
    updated_at: $(7),
  }),
);

async function replaceAnswer(trx: Trx, ids: { surveyId: number; caseId: number; questionId: number }, values: Value[]) {
  await deleteAnswer.affected(trx, ids.caseId, ids.questionId);
  const now = new Date().toISOString();
  for (const v of values) {
    await insertAnswer.affected(
      trx,
      ids.surveyId,
      ids.caseId,
      ids.questionId,
      v.answer_option_id,
      v.text_response,
      v.numerical_response,
      v.date_time_response,
      now,
    );
  }
}

/** Deletes the answers of the given questions of a case. */
export async function deleteAnswersOf(trx: Trx, caseId: number, questionIds: readonly number[]) {
  if (questionIds.length === 0) return;
  await trx
    .deleteFrom("question_responses")
    .where("patient_data_id", "=", caseId)
    .where("question_id", "in", [...questionIds])
    .execute();
}

/**
 * Records (or, for kind "delete" and empty values, deletes) one question's answer of an Open case of an
 * Active survey, replacing what was there, in one transaction. Answers of sub-questions that the new
 * choice hides go with it. A question that the case's preliminary answers (or its parent's choice) hide is
 * refused with 400. On SQLite, answers that arrive together share one commit (group-commit.server.ts).
 */
export async function writeAnswer(
  db: DB,
  caller: SurveyCaller,
  target: AnswerTarget,
  input: AnswerInput,
): Promise<AnswerWriteResult> {
  let change: "saved" | "removed" | "unchanged" = "unchanged";
  const result = await writeTransaction(db, async (trx) => {
    const access = await requireFillableSurvey(trx, caller, target.SurveyId);
    const kase = await openCaseForWrite(trx, target.SurveyId, target.PatientId);
    // A patient's link writes to its own case only (decision 057).
    if (caller.link && caller.link.patientDataId !== kase.id) requireOpen(undefined, target.PatientId);
    const structure = await surveyStructure(trx, access);
    const question = structure.questions.get(target.QuestionId);
    if (!question) invalid(`Question ${target.QuestionId} is not part of survey ${target.SurveyId}`);
    const values = valuesFor(question, input);

    const [preliminary, rows] = await Promise.all([preliminaryOf(trx, kase.id), answerRowsOf(trx, kase.id)]);
    const answers = toAnswers(rows);
    if (values.length > 0 && !visibleQuestionIds(structure.topLevel, preliminary, answers).has(question.Id)) {
      invalid(`Question ${question.Id} is not shown for this case`);
    }
    const next = { ...answers };
    delete next[question.Id];
    Object.assign(next, toAnswers(values.map((v) => ({ ...v, question_id: question.Id }))));
    const before = wireAnswer(question.Id, answers[question.Id], question);
    const after = wireAnswer(question.Id, next[question.Id], question);
    // The same value again (a save repeated by the browser or delivered again by the page) writes nothing.
    if (JSON.stringify(before) === JSON.stringify(after)) {
      return { RemovedQuestionIds: [], Version: Number(kase.answers_version) };
    }

    change = values.length > 0 ? "saved" : "removed";
    await replaceAnswer(trx, { surveyId: target.SurveyId, caseId: kase.id, questionId: question.Id }, values);
    const below = new Set(structure.descendants.get(question.Id));
    const removed = hiddenAnsweredQuestionIds(structure.topLevel, preliminary, next).filter((id) => below.has(id));
    await deleteAnswersOf(trx, kase.id, removed);
    await touchCase(trx, kase.id);
    await auditCase(trx, caller, {
      action: values.length > 0 ? "response.record" : "response.delete",
      entity: "question_response",
      entityId: question.Id,
      surveyId: target.SurveyId,
      patientDataId: kase.id,
      before,
      after: { answer: after, removedQuestionIds: removed },
    });
    return { RemovedQuestionIds: removed, Version: await caseVersion(trx, kase.id) };
  });
  answersRecorded.inc({ change });
  return result;
}
