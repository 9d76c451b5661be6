import { FHIR_IMPORT_MAX_QUESTIONS } from "~/contracts/fhir";
import { editingLimits } from "~/domain/editing";
import { AppError } from "~/domain/errors";
import { storedCodes, storedInstrument } from "~/domain/instrument";
import { isEditor } from "~/domain/permissions";
import { questionTypeCode } from "~/domain/question-types";
import type { SurveyStatusCode } from "~/domain/survey-status";
import type { DB, Executor } from "~/server/db/types.server";
import { translate } from "~/server/locales.server";
import { audit } from "../audit.server";
import { touchSurvey } from "../survey-access.server";
import { insertNewTranslations, type TextWithTranslations } from "../translations/new-survey.server";
import { actorOf, type SurveyCaller } from "../surveys.server";
import { questionCount } from "./import-items.server";
import { importPlan } from "./import-plan.server";
import type { ImportPlan, PlanQuestion } from "./import-plan-types.server";
import { QuestionnaireSchema } from "./import-schema.server";

/**
 * An uploaded FHIR R4 Questionnaire as a new Draft survey (docs/decisions/040-fhir.md). The preview tells
 * what would be created and lists what cannot be held; the import writes the survey in one transaction and
 * keeps that list in its trail entry (survey.import.fhir), not in the survey, whose description everyone who
 * fills it reads. A Questionnaire without a question the survey can hold, or with more than an editor is
 * served well with, is refused.
 */

export interface ImportPreview {
  Title: string;
  Categories: number;
  Questions: number;
  PreliminaryQuestions: number;
  NotKept: string[];
}

/**
 * The plan of a resource, or a VALIDATION_ERROR that says why it is not a Questionnaire, or why it makes no
 * survey: nothing in it can be held (Reason "empty", the first losses said), or too much (Reason "tooMany").
 */
function planOf(resource: unknown, culture: string | undefined): { plan: ImportPlan; questions: number } {
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
  const plan = importPlan(parsed.data, culture);
  const questions = questionCount(plan);
  if (questions === 0) {
    const why = [translate(culture, "fhir.refused.empty"), ...plan.notKept.slice(0, REASONS_SHOWN)].join(" ");
    throw new AppError("VALIDATION_ERROR", why, undefined, { Reason: "empty" });
  }
  if (questions > FHIR_IMPORT_MAX_QUESTIONS) {
    const why = translate(culture, "fhir.refused.tooMany", {
      questions: String(questions),
      max: String(FHIR_IMPORT_MAX_QUESTIONS),
    });
    throw new AppError("VALIDATION_ERROR", why, undefined, { Reason: "tooMany" });
  }
  return { plan, questions };
}

/** The losses a refusal of an empty Questionnaire names: the first, which are those that refused its items. */
const REASONS_SHOWN = 3;

function requireEditor(caller: SurveyCaller) {
  if (!isEditor(caller)) throw new AppError("FORBIDDEN", "Only editors import surveys");
}

export function previewImport(caller: SurveyCaller, resource: unknown): ImportPreview {
  requireEditor(caller);
  const { plan, questions } = planOf(resource, caller.culture ?? undefined);
  return {
    Title: plan.title,
    Categories: plan.categories.length,
    Questions: questions,
    PreliminaryQuestions: plan.prelims.length,
    NotKept: plan.notKept,
  };
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export async function importQuestionnaire(db: DB, caller: SurveyCaller, resource: unknown) {
  requireEditor(caller);
  const { plan } = planOf(resource, caller.culture ?? undefined);
  const id = await db.transaction().execute(async (trx) => {
    const surveyId = await createSurvey(trx, plan, { status: 1, createdBy: caller.surveyUserDataId });
    await audit(trx, actorOf(caller), {
      action: "survey.import.fhir",
      entity: "survey",
      entityId: surveyId,
      surveyId,
      after: { Title: plan.title, NotKept: plan.notKept },
    });
    return surveyId;
  });
  return { SurveyId: id, Title: plan.title, NotKept: plan.notKept };
}

/**
 * A resource's survey as the import makes it, in a status of the caller's choosing: the demo data's PHQ-9 is
 * imported so, Active (demo-instrument.server.ts). The caller writes its trail entry.
 */
export async function createImportedSurvey(
  trx: Executor,
  resource: unknown,
  opts: { status: SurveyStatusCode; createdBy: number | null },
): Promise<{ surveyId: number; plan: ImportPlan }> {
  const { plan } = planOf(resource, undefined);
  return { surveyId: await createSurvey(trx, plan, opts), plan };
}

/** The start text as the import stores it: a paragraph per display item. */
const introHtml = (paragraphs: string[]) => paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("");

async function createSurvey(
  trx: Executor,
  plan: ImportPlan,
  opts: { status: SurveyStatusCode; createdBy: number | null },
) {
  const now = new Date().toISOString();
  const intro = introHtml(plan.intro);
  const row = await trx
    .insertInto("surveys")
    .values({
      title: plan.title,
      description: plan.description,
      intro_text: intro,
      // Its own language and the languages its texts are translated into (docs/decisions/056).
      source_language: plan.sourceLanguage,
      languages: JSON.stringify(plan.languages),
      status: opts.status,
      patient_form_enabled: plan.prelims.length > 0 ? 1 : 0,
      created_by_user_id: opts.createdBy,
      created_at: now,
      updated_at: now,
      start_date: null,
      end_date: null,
      status_before_archive: null,
      source_survey_id: null,
      archived_at: null,
      score_title: plan.scoreTitle,
      instrument: storedInstrument(plan.instrument),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const texts: TextWithTranslations[] = [
    { key: "Title", source: plan.title, texts: plan.titleTexts },
    { key: "Description", source: plan.description, texts: plan.descriptionTexts },
    ...(plan.scoreTitle ? [{ key: "ScoreTitle", source: plan.scoreTitle, texts: plan.scoreTitleTexts }] : []),
  ];
  // The start text's translation: each paragraph's, the paragraph itself where it has none.
  const introLanguages = new Set(plan.introTexts.flatMap((t) => Object.keys(t)));
  const introTexts = Object.fromEntries(
    [...introLanguages].map((lang) => [lang, introHtml(plan.intro.map((p, i) => plan.introTexts[i]?.[lang] ?? p))]),
  );
  if (intro) texts.push({ key: "IntroText", source: intro, texts: introTexts });
  await writeTree(trx, row.id, plan, texts);
  await insertNewTranslations(trx, row.id, texts);
  await touchSurvey(trx, row.id);
  return row.id;
}

/** The survey's items; each text's translations are added to `texts` under the key its new id makes. */
async function writeTree(trx: Executor, surveyId: number, plan: ImportPlan, texts: TextWithTranslations[]) {
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
    texts.push({ key: `attribute:${a.id}`, source: p.title, texts: p.titleTexts });
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
      texts.push({ key: `entry:${made.id}`, source: o.text, texts: o.texts });
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
        hint: q.hint,
        codes: storedCodes(q.codes),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    texts.push({ key: `question:${made.id}`, source: q.title, texts: q.titleTexts });
    if (q.hint) texts.push({ key: `question:${made.id}:Hint`, source: q.hint, texts: q.hintTexts });
    if (q.unit) texts.push({ key: `question:${made.id}:Unit`, source: q.unit, texts: q.unitTexts });
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
          score: o.score,
          system: o.system ? o.system.slice(0, editingLimits.system) : null,
          sort: j,
          pos_x: o.x,
          pos_y: o.y,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      texts.push({ key: `answer:${option.id}`, source: o.text, texts: o.texts });
      for (const [k, s] of o.sub.entries()) await writeQuestion(s, categoryId, option.id, k);
    }
  };
  for (const [i, c] of plan.categories.entries()) {
    const category = await trx
      .insertInto("categories")
      .values({ survey_id: surveyId, title: c.title, sort: i, codes: storedCodes(c.codes) })
      .returning("id")
      .executeTakeFirstOrThrow();
    texts.push({ key: `category:${category.id}`, source: c.title, texts: c.titleTexts });
    for (const [j, q] of c.questions.entries()) await writeQuestion(q, category.id, null, j);
  }
}
