import { AppError } from "~/domain/errors";
import { isEditor } from "~/domain/permissions";
import { questionTypeCode } from "~/domain/question-types";
import type { DB, Executor } from "~/server/db/types.server";
import { translate } from "~/server/locales.server";
import { audit } from "../audit.server";
import { touchSurvey } from "../survey-access.server";
import { actorOf, type SurveyCaller } from "../surveys.server";
import { importPlan, type ImportPlan, type PlanQuestion } from "./import-plan.server";
import { QuestionnaireSchema } from "./import-schema.server";

/**
 * An uploaded FHIR R4 Questionnaire as a new Draft survey (docs/decisions/040-fhir.md). The preview tells
 * what would be created and lists what cannot be held; the import writes the survey in one transaction, with
 * that list at the end of its description.
 */

export interface ImportPreview {
  Title: string;
  Categories: number;
  Questions: number;
  PreliminaryQuestions: number;
  NotKept: string[];
}

/** The plan of a resource, or a VALIDATION_ERROR that says why it is not a Questionnaire. */
function planOf(resource: unknown, culture: string | undefined): ImportPlan {
  const type = (resource as { resourceType?: unknown } | null)?.resourceType;
  if (type !== "Questionnaire") {
    throw new AppError(
      "VALIDATION_ERROR",
      typeof type === "string" ? `A ${type} is not a Questionnaire` : "The file is not a FHIR resource",
    );
  }
  const parsed = QuestionnaireSchema.safeParse(resource);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new AppError("VALIDATION_ERROR", `Not a valid Questionnaire: ${first.path.join(".")}: ${first.message}`);
  }
  return importPlan(parsed.data, culture);
}

function count(questions: PlanQuestion[]): number {
  return questions.reduce((n, q) => n + 1 + q.options.reduce((m, o) => m + count(o.sub), 0), 0);
}

function requireEditor(caller: SurveyCaller) {
  if (!isEditor(caller)) throw new AppError("FORBIDDEN", "Only editors import surveys");
}

export function previewImport(caller: SurveyCaller, resource: unknown): ImportPreview {
  requireEditor(caller);
  const plan = planOf(resource, caller.culture ?? undefined);
  return {
    Title: plan.title,
    Categories: plan.categories.length,
    Questions: plan.categories.reduce((n, c) => n + count(c.questions), 0),
    PreliminaryQuestions: plan.prelims.length,
    NotKept: plan.notKept,
  };
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export async function importQuestionnaire(db: DB, caller: SurveyCaller, resource: unknown) {
  requireEditor(caller);
  const culture = caller.culture ?? undefined;
  const plan = planOf(resource, culture);
  const description = [
    plan.description,
    ...(plan.notKept.length > 0
      ? [translate(culture, "fhir.notKept.heading"), ...plan.notKept.map((n) => `- ${n}`)]
      : []),
  ]
    .filter((s) => s)
    .join("\n");
  const id = await db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    const row = await trx
      .insertInto("surveys")
      .values({
        title: plan.title,
        description,
        intro_text: plan.intro.map((p) => `<p>${escapeHtml(p)}</p>`).join(""),
        status: 1,
        patient_form_enabled: plan.prelims.length > 0 ? 1 : 0,
        created_by_user_id: caller.surveyUserDataId,
        created_at: now,
        updated_at: now,
        start_date: null,
        end_date: null,
        status_before_archive: null,
        source_survey_id: null,
        archived_at: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await writeTree(trx, row.id, plan);
    await touchSurvey(trx, row.id);
    await audit(trx, actorOf(caller), {
      action: "survey.import.fhir",
      entity: "survey",
      entityId: row.id,
      surveyId: row.id,
      after: { Title: plan.title, NotKept: plan.notKept },
    });
    return row.id;
  });
  return { SurveyId: id, NotKept: plan.notKept };
}

async function writeTree(trx: Executor, surveyId: number, plan: ImportPlan) {
  const form = await trx
    .insertInto("patient_forms")
    .values({ survey_id: surveyId })
    .returning("id")
    .executeTakeFirstOrThrow();
  // Preliminary answers by their question's linkId and code, for the rules.
  const prelimOption = new Map<string, number>();
  for (const [i, p] of plan.prelims.entries()) {
    const a = await trx
      .insertInto("patient_form_attributes")
      .values({ survey_id: surveyId, patient_form_id: form.id, title: p.title, enabled: 1, pre_selected: 0, sort: i })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (const [j, o] of p.options.entries()) {
      const made = await trx
        .insertInto("patient_form_answer_options")
        .values({
          survey_id: surveyId,
          attribute_id: a.id,
          text: o.text,
          value: o.code,
          is_exit_answer: o.exit ? 1 : 0,
          sort: j,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      prelimOption.set(`${p.linkId}\u0000${o.code}`, made.id);
    }
  }
  const writeQuestion = async (q: PlanQuestion, categoryId: number, parent: number | null, sort: number) => {
    const made = await trx
      .insertInto("questions")
      .values({
        survey_id: surveyId,
        category_id: categoryId,
        parent_answer_option_id: parent,
        title: q.title,
        type: questionTypeCode(q.type),
        sort,
        allow_file_attachments: q.files ? 1 : 0,
        allow_multiple_answers: q.multiple ? 1 : 0,
        unit: q.unit,
        is_test_question: (q.test ?? q.options.some((o) => o.weight !== null)) ? 1 : 0,
        image_src: q.image,
        dependence_type: q.rule?.type ?? null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const rules = (q.rule?.refs ?? []).flatMap((r) => prelimOption.get(`${r.linkId}\u0000${r.code}`) ?? []);
    if (rules.length > 0) {
      await trx
        .insertInto("question_dependence_options")
        .values(rules.map((id) => ({ question_id: made.id, patient_form_answer_option_id: id })))
        .execute();
    }
    for (const [j, o] of q.options.entries()) {
      const option = await trx
        .insertInto("answer_options")
        .values({
          survey_id: surveyId,
          question_id: made.id,
          text: o.text,
          value: o.code,
          is_exit_answer: o.exit ? 1 : 0,
          weight: o.weight,
          weighting_state: o.weightingState,
          sort: j,
          pos_x: o.x,
          pos_y: o.y,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      for (const [k, s] of o.sub.entries()) await writeQuestion(s, categoryId, option.id, k);
    }
  };
  for (const [i, c] of plan.categories.entries()) {
    const category = await trx
      .insertInto("categories")
      .values({ survey_id: surveyId, title: c.title, sort: i })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (const [j, q] of c.questions.entries()) await writeQuestion(q, category.id, null, j);
  }
}
