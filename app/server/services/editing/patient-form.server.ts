import type { CreatePatientAttribute, UpdatePatientAttribute } from "~/domain/editing";
import type { PatientFormAttribute } from "~/domain/survey";
import type { DB, Trx } from "~/server/db/types.server";
import type { SurveyCaller } from "../surveys.server";
import { diff, flag, openEdit, recordChange, surveyAfterEdit, surveyOfItem } from "./common.server";
import { moveAmongSiblings, nextSort, writeOrder } from "./ordering.server";
import { entriesOf, insertEntries, replaceEntries } from "./patient-entries.server";
import { assertAttributeNotAnswered, deleteUnlessRecorded, dropEmptyDependences } from "./recorded.server";
import { attributeIn } from "./wire.server";

const entity = "patient_form_attribute";

function siblings(trx: Trx, surveyId: number) {
  return trx
    .selectFrom("patient_form_attributes")
    .select(["id", "sort"])
    .where("survey_id", "=", surveyId)
    .orderBy("sort")
    .orderBy("id")
    .execute();
}

function findAttribute(trx: Trx, id: number) {
  return trx.selectFrom("patient_form_attributes").selectAll().where("id", "=", id).executeTakeFirst();
}

/** The survey's patient form (every survey has one; made here should an older survey lack it). */
async function patientFormOf(trx: Trx, surveyId: number): Promise<number> {
  const form = await trx.selectFrom("patient_forms").select("id").where("survey_id", "=", surveyId).executeTakeFirst();
  if (form) return form.id;
  const made = await trx.insertInto("patient_forms").values({ survey_id: surveyId }).returning("id").execute();
  return made[0].id;
}

/** POST /patient-attributes/: a new preliminary question with its answers, at the end of the form. */
export async function createPatientAttribute(
  db: DB,
  caller: SurveyCaller,
  input: CreatePatientAttribute,
): Promise<PatientFormAttribute> {
  const { edit, id } = await db.transaction().execute(async (trx) => {
    const edit = await openEdit(trx, caller, input.SurveyId);
    const values = {
      patient_form_id: await patientFormOf(trx, input.SurveyId),
      survey_id: input.SurveyId,
      title: input.Title,
      enabled: flag(input.Enabled) ?? 1,
      pre_selected: flag(input.PreSelected) ?? 0,
      sort: nextSort(await siblings(trx, input.SurveyId)),
    };
    const row = await trx
      .insertInto("patient_form_attributes")
      .values(values)
      .returning("id")
      .executeTakeFirstOrThrow();
    await insertEntries(trx, { surveyId: input.SurveyId, attributeId: row.id, firstSort: 0 }, input.AnswerOptions);
    await recordChange(edit, {
      action: "patientAttribute.create",
      entity,
      entityId: row.id,
      after: { ...values, answers: input.AnswerOptions },
    });
    return { edit, id: row.id };
  });
  return attributeIn(await surveyAfterEdit(db, edit), id);
}

/** PUT /patient-attributes/{id}: the fields given whose value differs; AnswerOptions is the whole new list. */
export async function updatePatientAttribute(
  db: DB,
  caller: SurveyCaller,
  id: number,
  input: UpdatePatientAttribute,
): Promise<PatientFormAttribute> {
  const edit = await db.transaction().execute(async (trx) => {
    const row = await findAttribute(trx, id);
    const edit = await openEdit(trx, caller, surveyOfItem(row, input.SurveyId, "Preliminary question", id));
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    const fields = diff(row!, {
      title: input.Title,
      enabled: flag(input.Enabled),
      pre_selected: flag(input.PreSelected),
    });
    if (fields) {
      await trx.updateTable("patient_form_attributes").set(fields.after).where("id", "=", id).execute();
      Object.assign(before, fields.before);
      Object.assign(after, fields.after);
    }
    const entries = input.AnswerOptions && (await replaceEntries(edit, id, input.AnswerOptions));
    if (entries) {
      before.answers = entries.before;
      after.answers = entries.after;
    }
    if (Object.keys(after).length > 0) {
      await recordChange(edit, { action: "patientAttribute.update", entity, entityId: id, before, after });
    }
    return edit;
  });
  return attributeIn(await surveyAfterEdit(db, edit), id);
}

/** DELETE /patient-attributes/{id}?surveyId: with its answers, unless it was answered. */
export async function deletePatientAttribute(db: DB, caller: SurveyCaller, surveyId: number, id: number) {
  await db.transaction().execute(async (trx) => {
    const edit = await openEdit(trx, caller, surveyId);
    const row = await findAttribute(trx, id);
    surveyOfItem(row, surveyId, "Preliminary question", id);
    const message = "This preliminary question already has answers logged and cannot be deleted";
    await assertAttributeNotAnswered(trx, surveyId, { attributeId: id }, message);
    const answers = await entriesOf(trx, id);
    await deleteUnlessRecorded(() => trx.deleteFrom("patient_form_attributes").where("id", "=", id).execute(), message);
    await dropEmptyDependences(trx, surveyId);
    await writeOrder(trx, "patient_form_attributes", await siblings(trx, surveyId));
    await recordChange(edit, {
      action: "patientAttribute.delete",
      entity,
      entityId: id,
      before: { ...row!, answers: answers.map((a) => ({ id: a.id, text: a.text })) },
    });
  });
}

/** POST /patient-attributes/reorder/{id}?newPosition&surveyId */
export async function reorderPatientAttribute(
  db: DB,
  caller: SurveyCaller,
  surveyId: number,
  id: number,
  newPosition: number,
) {
  await db.transaction().execute(async (trx) => {
    const edit = await openEdit(trx, caller, surveyId);
    surveyOfItem(await findAttribute(trx, id), surveyId, "Preliminary question", id);
    const moved = await moveAmongSiblings(
      trx,
      "patient_form_attributes",
      await siblings(trx, surveyId),
      id,
      newPosition,
    );
    if (moved) await recordChange(edit, { action: "patientAttribute.reorder", entity, entityId: id, ...moved });
  });
}

/** POST /patient-attributes/answer-options/reorder/{id}?newPosition&surveyId: among its question's answers. */
export async function reorderPatientAttributeAnswer(
  db: DB,
  caller: SurveyCaller,
  surveyId: number,
  id: number,
  newPosition: number,
) {
  await db.transaction().execute(async (trx) => {
    const edit = await openEdit(trx, caller, surveyId);
    const row = await trx.selectFrom("patient_form_answer_options").selectAll().where("id", "=", id).executeTakeFirst();
    surveyOfItem(row, surveyId, "Preliminary answer", id);
    const moved = await moveAmongSiblings(
      trx,
      "patient_form_answer_options",
      await entriesOf(trx, row!.attribute_id),
      id,
      newPosition,
    );
    if (moved) {
      await recordChange(edit, {
        action: "patientAttributeAnswer.reorder",
        entity: "patient_form_answer_option",
        entityId: id,
        ...moved,
      });
    }
  });
}
