import type { CreateSubQuestion } from "~/domain/editing";
import { AppError } from "~/domain/errors";
import { storedCodes } from "~/domain/instrument";
import { questionTypeCode } from "~/domain/question-types";
import type { Dependence } from "~/domain/survey";
import type { Row, Trx } from "~/server/db/types.server";
import { flag } from "./common.server";
import { insertOptions } from "./option-values.server";

/** The stored dependence rule of a question (ids sorted), or null. */
export async function readDependence(trx: Trx, question: Row<"questions">): Promise<Dependence | null> {
  if (!question.dependence_type) return null;
  const links = await trx
    .selectFrom("question_dependence_options")
    .select("patient_form_answer_option_id as id")
    .where("question_id", "=", question.id)
    .orderBy("patient_form_answer_option_id")
    .execute();
  if (links.length === 0) return null;
  return { Type: question.dependence_type, PreliminaryAnswerOptions: links.map((l) => l.id) };
}

export function sameDependence(a: Dependence | null, b: Dependence | null): boolean {
  if (a === null || b === null) return a === b;
  return a.Type === b.Type && a.PreliminaryAnswerOptions.join() === b.PreliminaryAnswerOptions.join();
}

/** Stores a question's dependence rule (null removes it); its answers must be of this survey's patient form. */
export async function writeDependence(trx: Trx, surveyId: number, questionId: number, rule: Dependence | null) {
  const ids = rule?.PreliminaryAnswerOptions ?? [];
  if (ids.length > 0) {
    const known = await trx
      .selectFrom("patient_form_answer_options")
      .select("id")
      .where("survey_id", "=", surveyId)
      .where("id", "in", ids)
      .execute();
    const knownIds = new Set(known.map((k) => k.id));
    const unknown = ids.filter((id) => !knownIds.has(id));
    if (unknown.length > 0) {
      throw new AppError(
        "VALIDATION_ERROR",
        `Dependence: ${unknown.join(", ")} are not answers of this survey's preliminary questions`,
      );
    }
  }
  await trx.deleteFrom("question_dependence_options").where("question_id", "=", questionId).execute();
  if (ids.length > 0) {
    await trx
      .insertInto("question_dependence_options")
      .values(ids.map((id) => ({ question_id: questionId, patient_form_answer_option_id: id })))
      .execute();
  }
  await trx
    .updateTable("questions")
    .set({ dependence_type: rule?.Type ?? null })
    .where("id", "=", questionId)
    .execute();
}

/** Inserts a question (top-level or sub-question) with its dependence rule and image markers; its id. */
export async function insertQuestion(
  trx: Trx,
  place: { surveyId: number; categoryId: number; parentAnswerOptionId: number | null; sort: number },
  input: CreateSubQuestion,
): Promise<number> {
  const row = await trx
    .insertInto("questions")
    .values({
      survey_id: place.surveyId,
      category_id: place.categoryId,
      parent_answer_option_id: place.parentAnswerOptionId,
      title: input.Title,
      type: questionTypeCode(input.Type),
      sort: place.sort,
      allow_file_attachments: flag(input.AllowFileAttachments) ?? 0,
      allow_multiple_answers: flag(input.AllowMultipleAnswers) ?? 0,
      unit: input.Unit ?? null,
      is_test_question: flag(input.IsTestQuestion) ?? 0,
      image_src: input.ImageSrc ?? null,
      dependence_type: null,
      hint: input.Hint ?? null,
      codes: storedCodes(input.Codes ?? []),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (input.Dependence) await writeDependence(trx, place.surveyId, row.id, input.Dependence);
  await insertOptions(
    trx,
    { surveyId: place.surveyId, questionId: row.id, type: input.Type, firstSort: 0 },
    input.AnswerOptions ?? [],
  );
  return row.id;
}
