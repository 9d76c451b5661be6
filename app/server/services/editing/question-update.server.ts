import { questionShapeIssues, type UpdateQuestion } from "~/domain/editing";
import { AppError } from "~/domain/errors";
import { storedCodes } from "~/domain/instrument";
import { questionTypeName } from "~/domain/question-types";
import type { Question } from "~/domain/survey";
import type { DB, Row, Trx } from "~/server/db/types.server";
import type { SurveyCaller } from "../surveys.server";
import { diff, flag, forAudit, openEdit, recordChange, surveyAfterEdit, surveyOfItem } from "./common.server";
import { replaceMarkers } from "./image-markers.server";
import { nextSort, writeOrder } from "./ordering.server";
import { readDependence, sameDependence, writeDependence } from "./question-write.server";
import { findQuestion, questionSiblings } from "./questions.server";
import { subtreeOf } from "./recorded.server";
import { questionIn } from "./wire.server";

/** Moves a top-level question (with its sub-questions) to the end of another category of its survey. */
async function moveToCategory(trx: Trx, q: Row<"questions">, categoryId: number) {
  if (q.parent_answer_option_id !== null) {
    throw new AppError("VALIDATION_ERROR", "A sub-question stays in the category of its parent");
  }
  const category = await trx
    .selectFrom("categories")
    .select("survey_id")
    .where("id", "=", categoryId)
    .executeTakeFirst();
  surveyOfItem(category, q.survey_id, "Category", categoryId);
  const sort = nextSort(await questionSiblings(trx, { ...q, category_id: categoryId }));
  const tree = await subtreeOf(trx, q.survey_id, { questionIds: [q.id] });
  await trx.updateTable("questions").set({ category_id: categoryId }).where("id", "in", tree.questionIds).execute();
  await trx.updateTable("questions").set({ sort }).where("id", "=", q.id).execute();
  await writeOrder(trx, "questions", await questionSiblings(trx, q));
}

async function optionCount(trx: Trx, questionId: number): Promise<number> {
  const row = await trx
    .selectFrom("answer_options")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("question_id", "=", questionId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * PUT /questions/{id}: changes the fields given, and only those whose value differs (nothing changed: no
 * write, no audit row, no new Hash). The type cannot change.
 */
export async function updateQuestion(
  db: DB,
  caller: SurveyCaller,
  id: number,
  input: UpdateQuestion,
): Promise<Question> {
  const edit = await db.transaction().execute(async (trx) => {
    const found = await findQuestion(trx, id);
    const edit = await openEdit(trx, caller, surveyOfItem(found, input.SurveyId, "Question", id));
    const q = found!;
    const type = questionTypeName(q.type);
    if (input.Type !== undefined && input.Type !== type) {
      throw new AppError("VALIDATION_ERROR", "The type of a question cannot be changed");
    }
    if (input.AnswerOptions !== undefined && type !== "Image") {
      throw new AppError("VALIDATION_ERROR", "Only image questions take their answer options with the question");
    }
    const next = {
      title: input.Title,
      allow_file_attachments: flag(input.AllowFileAttachments),
      allow_multiple_answers: flag(input.AllowMultipleAnswers),
      unit: input.Unit,
      is_test_question: flag(input.IsTestQuestion),
      image_src: input.ImageSrc,
      hint: input.Hint,
      codes: input.Codes === undefined ? undefined : storedCodes(input.Codes),
    };
    const issues = questionShapeIssues({
      Type: type,
      ImageSrc: next.image_src !== undefined ? next.image_src : q.image_src,
      Unit: next.unit !== undefined ? next.unit : q.unit,
      AnswerOptionCount: input.AnswerOptions?.length ?? (await optionCount(trx, id)),
    }).filter((issue) => input[issue.path as keyof UpdateQuestion] !== undefined);
    if (issues.length > 0) throw new AppError("VALIDATION_ERROR", issues.map((i) => i.message).join("; "));

    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    const fields = diff(q, next);
    if (fields) {
      await trx.updateTable("questions").set(fields.after).where("id", "=", id).execute();
      Object.assign(before, fields.before);
      Object.assign(after, fields.after);
    }
    if (input.CategoryId !== undefined && input.CategoryId !== q.category_id) {
      await moveToCategory(trx, q, input.CategoryId);
      before.category_id = q.category_id;
      after.category_id = input.CategoryId;
    }
    if (input.Dependence !== undefined) {
      const current = await readDependence(trx, q);
      if (!sameDependence(current, input.Dependence)) {
        await writeDependence(trx, q.survey_id, id, input.Dependence);
        before.Dependence = current;
        after.Dependence = input.Dependence;
      }
    }
    if (input.AnswerOptions !== undefined) {
      const markers = await replaceMarkers(edit, q, input.AnswerOptions);
      if (markers) {
        before.AnswerOptions = markers.before;
        after.AnswerOptions = markers.after;
      }
    }
    if (Object.keys(after).length > 0) {
      await recordChange(edit, {
        action: "question.update",
        entity: "question",
        entityId: id,
        before: forAudit(before),
        after: forAudit(after),
      });
    }
    return edit;
  });
  return questionIn(await surveyAfterEdit(db, edit), id);
}
