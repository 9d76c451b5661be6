import type { CreateAnswerOption, UpdateAnswerOption } from "~/domain/editing";
import { AppError } from "~/domain/errors";
import { hasAnswerOptions, questionTypeName } from "~/domain/question-types";
import type { AnswerOption } from "~/domain/survey";
import type { DB, Trx } from "~/server/db/types.server";
import type { SurveyCaller } from "../surveys.server";
import { diff, openEdit, recordChange, surveyAfterEdit, surveyOfItem } from "./common.server";
import { assertDistinctTexts, insertOptions, optionColumns } from "./option-values.server";
import { moveAmongSiblings, nextSort, writeOrder } from "./ordering.server";
import { findQuestion } from "./questions.server";
import { assertNothingRecorded, deleteUnlessRecorded, subtreeOf } from "./recorded.server";
import { answerOptionIn } from "./wire.server";

const entity = "answer_option";

function siblings(trx: Trx, questionId: number) {
  return trx
    .selectFrom("answer_options")
    .select(["id", "sort"])
    .where("question_id", "=", questionId)
    .orderBy("sort")
    .orderBy("id")
    .execute();
}

function findOption(trx: Trx, id: number) {
  return trx.selectFrom("answer_options").selectAll().where("id", "=", id).executeTakeFirst();
}

async function typeOfQuestion(trx: Trx, questionId: number) {
  return questionTypeName((await findQuestion(trx, questionId))!.type);
}

/** POST /answer-options: a new answer at the end of its question. */
export async function createAnswerOption(
  db: DB,
  caller: SurveyCaller,
  input: CreateAnswerOption,
): Promise<AnswerOption> {
  const { edit, id } = await db.transaction().execute(async (trx) => {
    const edit = await openEdit(trx, caller, input.SurveyId);
    const question = await findQuestion(trx, input.QuestionId);
    surveyOfItem(question, input.SurveyId, "Question", input.QuestionId);
    const type = questionTypeName(question!.type);
    if (!hasAnswerOptions(type)) throw new AppError("VALIDATION_ERROR", `${type} questions have no answer options`);
    const { SurveyId, QuestionId, ...fields } = input;
    const sort = nextSort(await siblings(trx, QuestionId));
    const [id] = await insertOptions(trx, { surveyId: SurveyId, questionId: QuestionId, type, firstSort: sort }, [
      fields,
    ]);
    const after = { question_id: QuestionId, sort, ...optionColumns(type, null, fields) };
    await recordChange(edit, { action: "answerOption.create", entity, entityId: id, after });
    return { edit, id };
  });
  return answerOptionIn(await surveyAfterEdit(db, edit), id);
}

/** PUT /answer-options/{id}: changes the fields given whose value differs. */
export async function updateAnswerOption(
  db: DB,
  caller: SurveyCaller,
  id: number,
  input: UpdateAnswerOption,
): Promise<AnswerOption> {
  const edit = await db.transaction().execute(async (trx) => {
    const row = await findOption(trx, id);
    const edit = await openEdit(trx, caller, surveyOfItem(row, input.SurveyId, "Answer option", id));
    const { SurveyId: _survey, ...fields } = input;
    const change = diff(row!, optionColumns(await typeOfQuestion(trx, row!.question_id), row!, fields));
    if (change?.after.text !== undefined) await assertDistinctTexts(trx, row!.question_id, [change.after.text], id);
    if (change) {
      await trx.updateTable("answer_options").set(change.after).where("id", "=", id).execute();
      await recordChange(edit, { action: "answerOption.update", entity, entityId: id, ...change });
    }
    return edit;
  });
  return answerOptionIn(await surveyAfterEdit(db, edit), id);
}

/** DELETE /answer-options/{id}?surveyId: with its sub-questions, unless answers were logged for any of them. */
export async function deleteAnswerOption(db: DB, caller: SurveyCaller, surveyId: number, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const edit = await openEdit(trx, caller, surveyId);
    const row = await findOption(trx, id);
    surveyOfItem(row, surveyId, "Answer option", id);
    const rest = (await siblings(trx, row!.question_id)).filter((s) => s.id !== id);
    if (rest.length === 0 && (await typeOfQuestion(trx, row!.question_id)) === "Image") {
      throw new AppError("VALIDATION_ERROR", "An image question needs at least one answer option");
    }
    const message = "This answer already has responses logged and cannot be deleted";
    const tree = await subtreeOf(trx, surveyId, { optionIds: [id] });
    await assertNothingRecorded(trx, surveyId, tree, message);
    await deleteUnlessRecorded(() => trx.deleteFrom("answer_options").where("id", "=", id).execute(), message);
    await writeOrder(trx, "answer_options", rest);
    await recordChange(edit, {
      action: "answerOption.delete",
      entity,
      entityId: id,
      before: { ...row!, subQuestions: tree.questionIds.length },
    });
  });
}

/** POST /answer-options/{id}/reorder?newPosition&surveyId: among the answers of its question. */
export async function reorderAnswerOption(
  db: DB,
  caller: SurveyCaller,
  surveyId: number,
  id: number,
  newPosition: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const edit = await openEdit(trx, caller, surveyId);
    const row = await findOption(trx, id);
    surveyOfItem(row, surveyId, "Answer option", id);
    const moved = await moveAmongSiblings(
      trx,
      "answer_options",
      await siblings(trx, row!.question_id),
      id,
      newPosition,
    );
    if (moved) await recordChange(edit, { action: "answerOption.reorder", entity, entityId: id, ...moved });
  });
}
