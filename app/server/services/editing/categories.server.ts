import type { CreateCategory, UpdateCategory } from "~/domain/editing";
import { storedCodes } from "~/domain/instrument";
import type { Category } from "~/domain/survey";
import type { DB, Trx } from "~/server/db/types.server";
import type { SurveyCaller } from "../surveys.server";
import { diff, openEdit, recordChange, surveyAfterEdit, surveyOfItem } from "./common.server";
import { moveAmongSiblings, nextSort, writeOrder } from "./ordering.server";
import { assertNothingRecorded, deleteUnlessRecorded, subtreeOf } from "./recorded.server";
import { categoryIn } from "./wire.server";

const entity = "category";

function siblings(trx: Trx, surveyId: number) {
  return trx
    .selectFrom("categories")
    .select(["id", "sort"])
    .where("survey_id", "=", surveyId)
    .orderBy("sort")
    .orderBy("id")
    .execute();
}

function findCategory(trx: Trx, id: number) {
  return trx.selectFrom("categories").selectAll().where("id", "=", id).executeTakeFirst();
}

/** POST /categories: a new category at the end of the survey. */
export async function createCategory(db: DB, caller: SurveyCaller, input: CreateCategory): Promise<Category> {
  const { edit, id } = await db.transaction().execute(async (trx) => {
    const edit = await openEdit(trx, caller, input.SurveyId);
    const sort = nextSort(await siblings(trx, input.SurveyId));
    const codes = storedCodes(input.Codes ?? []);
    const row = await trx
      .insertInto("categories")
      .values({ survey_id: input.SurveyId, title: input.Title, sort, codes })
      .returning("id")
      .executeTakeFirstOrThrow();
    await recordChange(edit, {
      action: "category.create",
      entity,
      entityId: row.id,
      after: { title: input.Title, sort, ...(input.Codes?.length ? { codes } : {}) },
    });
    return { edit, id: row.id };
  });
  return categoryIn(await surveyAfterEdit(db, edit), id);
}

/** PUT /categories/{id}: renames a category (and sets its codes when given); unchanged values write nothing. */
export async function updateCategory(
  db: DB,
  caller: SurveyCaller,
  id: number,
  input: UpdateCategory,
): Promise<Category> {
  const edit = await db.transaction().execute(async (trx) => {
    const row = await findCategory(trx, id);
    const edit = await openEdit(trx, caller, surveyOfItem(row, input.SurveyId, "Category", id));
    const change = diff(row!, {
      title: input.Title,
      codes: input.Codes === undefined ? undefined : storedCodes(input.Codes),
    });
    if (change) {
      await trx.updateTable("categories").set(change.after).where("id", "=", id).execute();
      await recordChange(edit, { action: "category.update", entity, entityId: id, ...change });
    }
    return edit;
  });
  return categoryIn(await surveyAfterEdit(db, edit), id);
}

/** DELETE /categories?categoryId&surveyId: with its questions, unless any of them has recorded answers. */
export async function deleteCategory(db: DB, caller: SurveyCaller, surveyId: number, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const edit = await openEdit(trx, caller, surveyId);
    const row = await findCategory(trx, id);
    surveyOfItem(row, surveyId, "Category", id);
    const questions = await trx.selectFrom("questions").select("id").where("category_id", "=", id).execute();
    const message = "A question of this category already has answers logged; the category cannot be deleted";
    const tree = await subtreeOf(trx, surveyId, { questionIds: questions.map((q) => q.id) });
    await assertNothingRecorded(trx, surveyId, tree, message);
    await deleteUnlessRecorded(() => trx.deleteFrom("categories").where("id", "=", id).execute(), message);
    await writeOrder(trx, "categories", await siblings(trx, surveyId));
    await recordChange(edit, {
      action: "category.delete",
      entity,
      entityId: id,
      before: { title: row!.title, sort: row!.sort, questions: tree.questionIds.length },
    });
  });
}

/** POST /categories/{id}/reorder?newPosition&surveyId */
export async function reorderCategory(
  db: DB,
  caller: SurveyCaller,
  surveyId: number,
  id: number,
  newPosition: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const edit = await openEdit(trx, caller, surveyId);
    surveyOfItem(await findCategory(trx, id), surveyId, "Category", id);
    const moved = await moveAmongSiblings(trx, "categories", await siblings(trx, surveyId), id, newPosition);
    if (moved) await recordChange(edit, { action: "category.reorder", entity, entityId: id, ...moved });
  });
}
