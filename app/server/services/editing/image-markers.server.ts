import type { AnswerOptionInput } from "~/domain/editing";
import { AppError } from "~/domain/errors";
import type { Row } from "~/server/db/types.server";
import { diff, type Edit } from "./common.server";
import { insertOptions, optionColumns } from "./option-values.server";
import { assertNothingRecorded, deleteUnlessRecorded, subtreeOf } from "./recorded.server";

function markersOf(edit: Edit, questionId: number) {
  return edit.trx
    .selectFrom("answer_options")
    .selectAll()
    .where("question_id", "=", questionId)
    .orderBy("sort")
    .orderBy("id")
    .execute();
}

const summary = (o: Row<"answer_options">) => ({
  id: o.id,
  text: o.text,
  weighting_state: o.weighting_state,
  weight: o.weight,
  pos_x: o.pos_x,
  pos_y: o.pos_y,
  score: o.score,
});

/**
 * Makes an image question's answer options the given list, in its order: entries with Id are kept (and
 * changed where they differ), entries without are added, the others deleted unless answers were logged for
 * them. Null when nothing changed.
 */
export async function replaceMarkers(
  edit: Edit,
  question: Row<"questions">,
  entries: AnswerOptionInput[],
): Promise<{ before: unknown; after: unknown } | null> {
  const { trx, surveyId } = edit;
  const current = await markersOf(edit, question.id);
  const byId = new Map(current.map((o) => [o.id, o]));
  for (const entry of entries) {
    if (entry.Id !== undefined && !byId.has(entry.Id)) {
      throw new AppError("VALIDATION_ERROR", `Answer option ${entry.Id} is not an answer option of this question`);
    }
  }
  const kept = new Set(entries.map((e) => e.Id));
  const removed = current.filter((o) => !kept.has(o.id)).map((o) => o.id);
  let changed = removed.length > 0;
  if (removed.length > 0) {
    const message = "An answer option that was removed already has answers logged and cannot be deleted";
    await assertNothingRecorded(trx, surveyId, await subtreeOf(trx, surveyId, { optionIds: removed }), message);
    await deleteUnlessRecorded(() => trx.deleteFrom("answer_options").where("id", "in", removed).execute(), message);
  }
  for (const [sort, { Id, ...input }] of entries.entries()) {
    const stored = Id === undefined ? undefined : byId.get(Id)!;
    if (!stored) {
      await insertOptions(trx, { surveyId, questionId: question.id, type: "Image", firstSort: sort }, [input]);
      changed = true;
      continue;
    }
    const change = diff(stored, { ...optionColumns("Image", stored, input), sort });
    if (!change) continue;
    await trx.updateTable("answer_options").set(change.after).where("id", "=", stored.id).execute();
    changed = true;
  }
  if (!changed) return null;
  return { before: current.map(summary), after: (await markersOf(edit, question.id)).map(summary) };
}
