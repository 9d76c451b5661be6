import { editingLimits, type CreateQuestion, type CreateSubQuestion } from "~/domain/editing";
import { AppError } from "~/domain/errors";
import type { Question } from "~/domain/survey";
import type { DB, Row, Trx } from "~/server/db/types.server";
import type { SurveyCaller } from "../surveys.server";
import { forAudit, openEdit, recordChange, surveyAfterEdit, surveyOfItem } from "./common.server";
import { moveAmongSiblings, nextSort, writeOrder } from "./ordering.server";
import { insertQuestion } from "./question-write.server";
import { assertNothingRecorded, deleteUnlessRecorded, subtreeOf } from "./recorded.server";
import { questionIn } from "./wire.server";

const entity = "question";

/** The questions ordered together with this one: top-level ones of its category, or those of its answer option. */
export function questionSiblings(
  trx: Trx,
  q: Pick<Row<"questions">, "survey_id" | "category_id" | "parent_answer_option_id">,
) {
  const query = trx.selectFrom("questions").select(["id", "sort"]).where("survey_id", "=", q.survey_id);
  const scoped =
    q.parent_answer_option_id === null
      ? query.where("category_id", "=", q.category_id).where("parent_answer_option_id", "is", null)
      : query.where("parent_answer_option_id", "=", q.parent_answer_option_id);
  return scoped.orderBy("sort").orderBy("id").execute();
}

const rowPlace = (p: { surveyId: number; categoryId: number; parentAnswerOptionId: number | null }) => ({
  survey_id: p.surveyId,
  category_id: p.categoryId,
  parent_answer_option_id: p.parentAnswerOptionId,
});

export function findQuestion(trx: Trx, id: number) {
  return trx.selectFrom("questions").selectAll().where("id", "=", id).executeTakeFirst();
}

/** POST /questions: a new top-level question at the end of its category. */
export async function createQuestion(db: DB, caller: SurveyCaller, input: CreateQuestion): Promise<Question> {
  const { edit, id } = await db.transaction().execute(async (trx) => {
    const edit = await openEdit(trx, caller, input.SurveyId);
    const category = await trx
      .selectFrom("categories")
      .select("survey_id")
      .where("id", "=", input.CategoryId)
      .executeTakeFirst();
    surveyOfItem(category, input.SurveyId, "Category", input.CategoryId);
    const place = { surveyId: input.SurveyId, categoryId: input.CategoryId, parentAnswerOptionId: null };
    const sort = nextSort(await questionSiblings(trx, rowPlace(place)));
    const { CategoryId: _category, ...fields } = input;
    const id = await insertQuestion(trx, { ...place, sort }, fields);
    await recordChange(edit, {
      action: "question.create",
      entity,
      entityId: id,
      after: forAudit({ ...input, Sort: sort }),
    });
    return { edit, id };
  });
  return questionIn(await surveyAfterEdit(db, edit), id);
}

/** How many levels of answer options lie above a question (0 for a top-level question). */
async function depthOf(trx: Trx, question: Row<"questions">): Promise<number> {
  let depth = 0;
  let current: Pick<Row<"questions">, "parent_answer_option_id"> | undefined = question;
  while (current?.parent_answer_option_id != null && depth <= editingLimits.subQuestionDepth) {
    depth++;
    current = await trx
      .selectFrom("answer_options")
      .innerJoin("questions", "questions.id", "answer_options.question_id")
      .select("questions.parent_answer_option_id")
      .where("answer_options.id", "=", current.parent_answer_option_id)
      .executeTakeFirst();
  }
  return depth;
}

/** POST /answer-options/{id}/sub-question: a question under an answer option, in its parent's category. */
export async function createSubQuestion(
  db: DB,
  caller: SurveyCaller,
  optionId: number,
  input: CreateSubQuestion,
): Promise<Question> {
  const { edit, id } = await db.transaction().execute(async (trx) => {
    const edit = await openEdit(trx, caller, input.SurveyId);
    const option = await trx.selectFrom("answer_options").selectAll().where("id", "=", optionId).executeTakeFirst();
    surveyOfItem(option, input.SurveyId, "Answer option", optionId);
    const parent = (await findQuestion(trx, option!.question_id))!;
    if ((await depthOf(trx, parent)) + 1 > editingLimits.subQuestionDepth) {
      throw new AppError(
        "VALIDATION_ERROR",
        `Sub-questions nest at most ${editingLimits.subQuestionDepth} levels deep`,
      );
    }
    const place = { surveyId: input.SurveyId, categoryId: parent.category_id, parentAnswerOptionId: optionId };
    const sort = nextSort(await questionSiblings(trx, rowPlace(place)));
    const id = await insertQuestion(trx, { ...place, sort }, input);
    await recordChange(edit, {
      action: "question.create",
      entity,
      entityId: id,
      after: forAudit({ ...input, ParentAnswerOptionId: optionId, Sort: sort }),
    });
    return { edit, id };
  });
  return questionIn(await surveyAfterEdit(db, edit), id);
}

/** DELETE /questions/{id}?surveyId: with its answer options and sub-questions, unless answers were logged. */
export async function deleteQuestion(db: DB, caller: SurveyCaller, surveyId: number, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const edit = await openEdit(trx, caller, surveyId);
    const row = await findQuestion(trx, id);
    surveyOfItem(row, surveyId, "Question", id);
    const message = "This question already has answers logged and cannot be deleted";
    const tree = await subtreeOf(trx, surveyId, { questionIds: [id] });
    await assertNothingRecorded(trx, surveyId, tree, message);
    await deleteUnlessRecorded(() => trx.deleteFrom("questions").where("id", "=", id).execute(), message);
    await writeOrder(trx, "questions", await questionSiblings(trx, row!));
    await recordChange(edit, {
      action: "question.delete",
      entity,
      entityId: id,
      before: forAudit({ ...row!, subQuestions: tree.questionIds.length - 1 }),
    });
  });
}

/** POST /questions/reorder/{id}?newPosition&surveyId: among its siblings. */
export async function reorderQuestion(
  db: DB,
  caller: SurveyCaller,
  surveyId: number,
  id: number,
  newPosition: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const edit = await openEdit(trx, caller, surveyId);
    const row = await findQuestion(trx, id);
    surveyOfItem(row, surveyId, "Question", id);
    const moved = await moveAmongSiblings(trx, "questions", await questionSiblings(trx, row!), id, newPosition);
    if (moved) await recordChange(edit, { action: "question.reorder", entity, entityId: id, ...moved });
  });
}
