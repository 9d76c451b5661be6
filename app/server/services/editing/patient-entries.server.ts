import type { PatientAttributeEntry } from "~/domain/editing";
import { AppError } from "~/domain/errors";
import type { Row, Trx } from "~/server/db/types.server";
import { diff, flag, type Edit } from "./common.server";
import { assertAttributeNotAnswered, deleteUnlessRecorded, dropEmptyDependences } from "./recorded.server";

export function entriesOf(trx: Trx, attributeId: number) {
  return trx
    .selectFrom("patient_form_answer_options")
    .selectAll()
    .where("attribute_id", "=", attributeId)
    .orderBy("sort")
    .orderBy("id")
    .execute();
}

type EntryColumns = Pick<Row<"patient_form_answer_options">, "text" | "value" | "is_exit_answer">;

function entryColumns(current: EntryColumns | null, input: PatientAttributeEntry): EntryColumns {
  return {
    text: input.Text,
    value: input.Value !== undefined ? input.Value : (current?.value ?? null),
    is_exit_answer: flag(input.IsExitAnswer) ?? current?.is_exit_answer ?? 0,
  };
}

/** Adds answers to a preliminary question, in order from `firstSort`. */
export async function insertEntries(
  trx: Trx,
  target: { surveyId: number; attributeId: number; firstSort: number },
  inputs: PatientAttributeEntry[],
) {
  if (inputs.length === 0) return;
  // Every row carries every key (SQLite writes a missing key of a multi-row insert as NULL).
  const rows = inputs.map((input, i) => ({
    attribute_id: target.attributeId,
    survey_id: target.surveyId,
    sort: target.firstSort + i,
    ...entryColumns(null, input),
  }));
  await trx.insertInto("patient_form_answer_options").values(rows).execute();
}

const summary = (e: Row<"patient_form_answer_options">) => ({
  id: e.id,
  text: e.text,
  is_exit_answer: e.is_exit_answer,
});

/**
 * Makes a preliminary question's answers the given list, in its order: entries with Id are kept (and changed
 * where they differ), those without are added, the others deleted unless they were answered (409). Dependence
 * rules on deleted answers go with them. Null when nothing changed.
 */
export async function replaceEntries(
  edit: Edit,
  attributeId: number,
  entries: PatientAttributeEntry[],
): Promise<{ before: unknown; after: unknown } | null> {
  const { trx, surveyId } = edit;
  const current = await entriesOf(trx, attributeId);
  const byId = new Map(current.map((e) => [e.id, e]));
  for (const entry of entries) {
    if (entry.Id !== undefined && !byId.has(entry.Id)) {
      throw new AppError("VALIDATION_ERROR", `Answer ${entry.Id} is not an answer of this preliminary question`);
    }
  }
  const kept = new Set(entries.map((e) => e.Id));
  const removed = current.filter((e) => !kept.has(e.id)).map((e) => e.id);
  let changed = removed.length > 0;
  if (removed.length > 0) {
    const message = "A removed answer of this preliminary question was already chosen and cannot be deleted";
    await assertAttributeNotAnswered(trx, surveyId, { optionIds: removed }, message);
    await deleteUnlessRecorded(
      () => trx.deleteFrom("patient_form_answer_options").where("id", "in", removed).execute(),
      message,
    );
    await dropEmptyDependences(trx, surveyId);
  }
  for (const [sort, entry] of entries.entries()) {
    const stored = entry.Id === undefined ? undefined : byId.get(entry.Id)!;
    if (!stored) {
      await insertEntries(trx, { surveyId, attributeId, firstSort: sort }, [entry]);
      changed = true;
      continue;
    }
    const change = diff(stored, { ...entryColumns(stored, entry), sort });
    if (!change) continue;
    await trx.updateTable("patient_form_answer_options").set(change.after).where("id", "=", stored.id).execute();
    changed = true;
  }
  if (!changed) return null;
  return { before: current.map(summary), after: (await entriesOf(trx, attributeId)).map(summary) };
}
