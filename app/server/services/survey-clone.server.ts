import { AppError } from "~/domain/errors";
import { isEditor } from "~/domain/permissions";
import { translate } from "~/server/locales.server";
import type { DB, Executor, Row } from "~/server/db/types.server";
import { audit } from "./audit.server";
import { requireSurvey, touchSurvey } from "./survey-access.server";
import { actorOf, type SurveyCaller } from "./surveys.server";

/**
 * A deep copy of a survey's structure as a new Draft: categories, questions, answer options,
 * sub-questions at any depth, the patient form, and dependence rules re-pointed to the copied
 * preliminary answers. Responses, cases and attachments are not copied. One transaction.
 */
export async function cloneSurvey(db: DB, caller: SurveyCaller, sourceId: number): Promise<number> {
  if (!isEditor(caller)) throw new AppError("FORBIDDEN", "Only editors clone surveys");
  return db.transaction().execute(async (trx) => {
    const { row: source } = await requireSurvey(trx, caller, sourceId, "see");
    const now = new Date().toISOString();
    const title = translate(caller.culture ?? undefined, "surveys.cloneTitle", { title: source.title }).slice(0, 200);
    const { id: _id, hash: _hash, ...rest } = source;
    const copy = await trx
      .insertInto("surveys")
      .values({
        ...rest,
        title,
        status: 1,
        status_before_archive: null,
        archived_at: null,
        source_survey_id: source.source_survey_id ?? source.id,
        created_by_user_id: caller.surveyUserDataId,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const newId = copy.id;

    const tags = await trx.selectFrom("survey_tags").select("tag_id").where("survey_id", "=", sourceId).execute();
    if (tags.length)
      await trx
        .insertInto("survey_tags")
        .values(tags.map((t) => ({ survey_id: newId, tag_id: t.tag_id })))
        .execute();
    const perms = await trx
      .selectFrom("survey_team_permissions")
      .select(["team_id", "kind"])
      .where("survey_id", "=", sourceId)
      .execute();
    if (perms.length) {
      await trx
        .insertInto("survey_team_permissions")
        .values(perms.map((p) => ({ survey_id: newId, team_id: p.team_id, kind: p.kind })))
        .execute();
    }

    const form = await clonePatientForm(trx, sourceId, newId);
    const questionnaire = await cloneQuestionnaire(trx, sourceId, newId, form.entry);
    await cloneTranslations(trx, sourceId, newId, { ...form, ...questionnaire });
    await touchSurvey(trx, newId);
    await audit(trx, actorOf(caller), {
      action: "survey.clone",
      entity: "survey",
      entityId: newId,
      surveyId: newId,
      after: { Title: title, SourceSurveyId: sourceId },
    });
    return newId;
  });
}

/** Old id → new id, per kind of item a translation's key names. */
type IdMaps = Record<"attribute" | "entry" | "category" | "question" | "answer", Map<number, number>>;

async function clonePatientForm(trx: Executor, sourceId: number, newId: number) {
  const optionMap = new Map<number, number>();
  const attributeMap = new Map<number, number>();
  const form = await trx
    .insertInto("patient_forms")
    .values({ survey_id: newId })
    .returning("id")
    .executeTakeFirstOrThrow();
  const attributes = await trx
    .selectFrom("patient_form_attributes")
    .selectAll()
    .where("survey_id", "=", sourceId)
    .orderBy("id")
    .execute();
  const options = await trx
    .selectFrom("patient_form_answer_options")
    .selectAll()
    .where("survey_id", "=", sourceId)
    .orderBy("id")
    .execute();
  for (const a of attributes) {
    const { id: _id, ...values } = a;
    const created = await trx
      .insertInto("patient_form_attributes")
      .values({ ...values, survey_id: newId, patient_form_id: form.id })
      .returning("id")
      .executeTakeFirstOrThrow();
    attributeMap.set(a.id, created.id);
    for (const o of options.filter((o) => o.attribute_id === a.id)) {
      const { id: oldId, ...ov } = o;
      const made = await trx
        .insertInto("patient_form_answer_options")
        .values({ ...ov, survey_id: newId, attribute_id: created.id })
        .returning("id")
        .executeTakeFirstOrThrow();
      optionMap.set(oldId, made.id);
    }
  }
  return { attribute: attributeMap, entry: optionMap };
}

async function cloneQuestionnaire(
  trx: Executor,
  sourceId: number,
  newId: number,
  preliminaryOptionMap: Map<number, number>,
) {
  const categories = await trx
    .selectFrom("categories")
    .selectAll()
    .where("survey_id", "=", sourceId)
    .orderBy("id")
    .execute();
  const questions = await trx
    .selectFrom("questions")
    .selectAll()
    .where("survey_id", "=", sourceId)
    .orderBy("id")
    .execute();
  const options = await trx
    .selectFrom("answer_options")
    .selectAll()
    .where("survey_id", "=", sourceId)
    .orderBy("id")
    .execute();
  const dependence = questions.length
    ? await trx
        .selectFrom("question_dependence_options")
        .selectAll()
        .where(
          "question_id",
          "in",
          questions.map((q) => q.id),
        )
        .execute()
    : [];

  const categoryMap = new Map<number, number>();
  for (const c of categories) {
    const { id, ...values } = c;
    const made = await trx
      .insertInto("categories")
      .values({ ...values, survey_id: newId })
      .returning("id")
      .executeTakeFirstOrThrow();
    categoryMap.set(id, made.id);
  }

  // Parents before children: a sub-question needs its answer option's copy, which needs its question's copy.
  const optionMap = new Map<number, number>();
  const questionMap = new Map<number, number>();
  let pending: Row<"questions">[] = questions;
  while (pending.length > 0) {
    const ready = pending.filter((q) => q.parent_answer_option_id === null || optionMap.has(q.parent_answer_option_id));
    if (ready.length === 0) throw new AppError("INTERNAL_ERROR", "The question tree refers to a missing answer option");
    for (const q of ready) {
      const { id, ...values } = q;
      const made = await trx
        .insertInto("questions")
        .values({
          ...values,
          survey_id: newId,
          category_id: categoryMap.get(q.category_id)!,
          parent_answer_option_id:
            q.parent_answer_option_id === null ? null : optionMap.get(q.parent_answer_option_id)!,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      questionMap.set(id, made.id);
      for (const o of options.filter((o) => o.question_id === id)) {
        const { id: oldOption, ...ov } = o;
        const copy = await trx
          .insertInto("answer_options")
          .values({ ...ov, survey_id: newId, question_id: made.id })
          .returning("id")
          .executeTakeFirstOrThrow();
        optionMap.set(oldOption, copy.id);
      }
      const rules = dependence.filter((d) => d.question_id === id);
      if (rules.length) {
        await trx
          .insertInto("question_dependence_options")
          .values(
            rules.map((d) => ({
              question_id: made.id,
              patient_form_answer_option_id: preliminaryOptionMap.get(d.patient_form_answer_option_id)!,
            })),
          )
          .execute();
      }
    }
    const done = new Set(ready.map((q) => q.id));
    pending = pending.filter((q) => !done.has(q.id));
  }
  return { category: categoryMap, question: questionMap, answer: optionMap };
}

/** The translations, each under its item's new id (docs/decisions/054-content-languages.md). */
async function cloneTranslations(trx: Executor, sourceId: number, newId: number, maps: IdMaps) {
  const rows = await trx
    .selectFrom("survey_translations")
    .select(["language", "text_key", "text", "source_digest"])
    .where("survey_id", "=", sourceId)
    .execute();
  const copies = rows.flatMap((r) => {
    const [kind, id, ...rest] = r.text_key.split(":");
    if (id === undefined) return [{ ...r, survey_id: newId }];
    const mapped = maps[kind as keyof IdMaps]?.get(Number(id));
    return mapped === undefined ? [] : [{ ...r, survey_id: newId, text_key: [kind, mapped, ...rest].join(":") }];
  });
  for (let i = 0; i < copies.length; i += 200) {
    await trx
      .insertInto("survey_translations")
      .values(copies.slice(i, i + 200))
      .execute();
  }
}
