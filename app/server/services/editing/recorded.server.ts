import { AppError } from "~/domain/errors";
import { isForeignKeyViolation } from "~/server/db/db.server";
import type { Trx } from "~/server/db/types.server";

/** Questions and answer options that go with a delete (sub-questions cascade with their answer option). */
export interface Subtree {
  questionIds: number[];
  optionIds: number[];
}

/** The given questions and options with everything below them: their options, sub-questions, and so on. */
export async function subtreeOf(
  trx: Trx,
  surveyId: number,
  roots: { questionIds?: number[]; optionIds?: number[] },
): Promise<Subtree> {
  const [questions, options] = await Promise.all([
    trx.selectFrom("questions").select(["id", "parent_answer_option_id"]).where("survey_id", "=", surveyId).execute(),
    trx.selectFrom("answer_options").select(["id", "question_id"]).where("survey_id", "=", surveyId).execute(),
  ]);
  const questionIds = new Set(roots.questionIds ?? []);
  const optionIds = new Set(roots.optionIds ?? []);
  let grew = true;
  while (grew) {
    grew = false;
    for (const o of options) {
      if (questionIds.has(o.question_id) && !optionIds.has(o.id)) {
        optionIds.add(o.id);
        grew = true;
      }
    }
    for (const q of questions) {
      if (q.parent_answer_option_id !== null && optionIds.has(q.parent_answer_option_id) && !questionIds.has(q.id)) {
        questionIds.add(q.id);
        grew = true;
      }
    }
  }
  return { questionIds: [...questionIds], optionIds: [...optionIds] };
}

/** Refuses (409) when answers or attachments were recorded for any of the questions or options. */
export async function assertNothingRecorded(trx: Trx, surveyId: number, tree: Subtree, message: string) {
  const { questionIds, optionIds } = tree;
  if (questionIds.length === 0 && optionIds.length === 0) return;
  const answer = await trx
    .selectFrom("question_responses")
    .select("id")
    .where("survey_id", "=", surveyId)
    .where((eb) =>
      eb.or([
        ...(questionIds.length ? [eb("question_id", "in", questionIds)] : []),
        ...(optionIds.length ? [eb("answer_option_id", "in", optionIds)] : []),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  const attachment =
    questionIds.length === 0
      ? undefined
      : await trx
          .selectFrom("file_attachments")
          .select("id")
          .where("survey_id", "=", surveyId)
          .where("question_id", "in", questionIds)
          .limit(1)
          .executeTakeFirst();
  if (answer || attachment) throw new AppError("SURVEY_EXISTING_QUESTION_RESPONSE", message);
}

/** Refuses (409) when a preliminary question, or one of the given answers of it, was answered. */
export async function assertAttributeNotAnswered(
  trx: Trx,
  surveyId: number,
  target: { attributeId: number } | { optionIds: number[] },
  message: string,
) {
  if ("optionIds" in target && target.optionIds.length === 0) return;
  const hit = await trx
    .selectFrom("attribute_responses")
    .select("id")
    .where("survey_id", "=", surveyId)
    .$call((q) =>
      "attributeId" in target
        ? q.where("attribute_id", "=", target.attributeId)
        : q.where("answer_option_id", "in", target.optionIds),
    )
    .limit(1)
    .executeTakeFirst();
  if (hit) throw new AppError("SURVEY_EXISTING_QUESTION_RESPONSE", message);
}

/** Runs a delete; should a recorded answer still be in the way (written meanwhile), answers 409. */
export async function deleteUnlessRecorded<T>(run: () => Promise<T>, message: string): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new AppError("SURVEY_EXISTING_QUESTION_RESPONSE", message);
    throw error;
  }
}

/** Questions whose every dependence answer was deleted lose their dependence type as well. */
export async function dropEmptyDependences(trx: Trx, surveyId: number) {
  await trx
    .updateTable("questions")
    .set({ dependence_type: null })
    .where("survey_id", "=", surveyId)
    .where("dependence_type", "is not", null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("question_dependence_options")
            .select("question_dependence_options.question_id")
            .whereRef("question_dependence_options.question_id", "=", "questions.id"),
        ),
      ),
    )
    .execute();
}
