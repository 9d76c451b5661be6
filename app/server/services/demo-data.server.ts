import crypto from "node:crypto";
import { questionTypeCode } from "~/domain/question-types";
import type { DB, Executor } from "~/server/db/types.server";
import { translatableTexts } from "~/domain/content-languages";
import { audit } from "./audit.server";
import { loadSurveyTree } from "./survey-tree.server";
import { insertNewTranslations } from "./translations/new-survey.server";
import { seedDemoCases, type DemoHints, type NumberRange } from "./demo-cases.server";
import { seedDemoInstrument, seedDemoInstrumentCases } from "./demo-instrument.server";
import type { DemoQuestion, DemoSurvey } from "./demo-survey-shape.server";
import { demoSurveys } from "./demo-surveys.server";
import { bodyOutlineDataUrl } from "./demo-image.server";

/**
 * Seeds the demo surveys (demo-surveys.server.ts) and, after them, PHQ-9 imported from its FHIR file
 * (demo-instrument.server.ts); on an empty database their demo cases.
 */

export { demoSurveys } from "./demo-surveys.server";

async function insertQuestion(
  db: Executor,
  surveyId: number,
  categoryId: number,
  parentOptionId: number | null,
  q: DemoQuestion,
  sort: number,
  prelim: Map<string, number>,
  image: () => string,
) {
  const question = await db
    .insertInto("questions")
    .values({
      survey_id: surveyId,
      category_id: categoryId,
      parent_answer_option_id: parentOptionId,
      title: q.title,
      type: questionTypeCode(q.type),
      sort,
      unit: q.unit ?? null,
      hint: q.hint ?? null,
      image_src: q.image ? image() : null,
      is_test_question: q.test ? 1 : 0,
      allow_file_attachments: q.attachments ? 1 : 0,
      allow_multiple_answers: q.type === "MultipleSelection" || q.multiple ? 1 : 0,
      dependence_type: q.showIf ? "SHOW" : q.hideIf ? "HIDE" : null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const rule = q.showIf ?? q.hideIf;
  if (rule && prelim.has(rule)) {
    await db
      .insertInto("question_dependence_options")
      .values({ question_id: question.id, patient_form_answer_option_id: prelim.get(rule)! })
      .execute();
  }
  for (const [i, o] of (q.options ?? []).entries()) {
    const option = await db
      .insertInto("answer_options")
      .values({
        survey_id: surveyId,
        question_id: question.id,
        text: o.text,
        value: null,
        sort: i,
        is_exit_answer: o.exit ? 1 : 0,
        weighting_state: q.test ? (o.correct ? 1 : 0) : 2,
        weight: o.correct ? (o.weight ?? 1) : null,
        pos_x: o.at?.[0] ?? null,
        pos_y: o.at?.[1] ?? null,
        score: o.score ?? null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (const [j, sub] of (o.sub ?? []).entries())
      await insertQuestion(db, surveyId, categoryId, option.id, sub, j, prelim, image);
  }
}

/**
 * A demo survey's translations (docs/decisions/056-statistics-languages.md): each of its texts, read back as the
 * survey holds them, in each offered language. A text without its translation is an error of the demo data.
 */
async function translateDemo(trx: Executor, surveyId: number, languages: NonNullable<DemoSurvey["languages"]>) {
  const rights = { CanParticipate: false, CanEdit: true, CanApprove: true };
  const survey = (await loadSurveyTree(trx, surveyId, rights))!;
  const texts = translatableTexts(survey).map((t) => {
    const known = languages.translations[t.source];
    const missing = languages.offered.filter((l) => !known?.[l]);
    if (missing.length > 0) throw new Error(`The demo text "${t.source}" has no ${missing.join(", ")} translation`);
    return { key: t.key, source: t.source, texts: Object.fromEntries(languages.offered.map((l) => [l, known![l]!])) };
  });
  await insertNewTranslations(trx, surveyId, texts);
}

/** Inserts the demo surveys (each in one transaction) and returns their ids, PHQ-9's last. */
export async function seedDemoData(db: DB): Promise<number[]> {
  const ids: number[] = [];
  const byTitle = new Map<string, number>();
  let picture: string | undefined;
  const image = () => (picture ??= bodyOutlineDataUrl());
  for (const s of demoSurveys()) {
    const id = await db.transaction().execute(async (trx) => {
      const now = new Date().toISOString();
      const survey = await trx
        .insertInto("surveys")
        .values({
          title: s.title,
          description: s.description,
          status: s.status,
          status_before_archive: s.status === 4 ? 3 : null,
          start_date: s.start,
          end_date: s.end,
          intro_text: s.intro,
          outro_text: s.outro,
          target_responses: s.target,
          patient_id_auto_generation: s.autoId ? 1 : 0,
          patient_form_enabled: s.preliminary.length > 0 ? 1 : 0,
          score_title: s.scoreTitle ?? null,
          languages: JSON.stringify(s.languages?.offered ?? []),
          hash: crypto.randomBytes(12).toString("hex"),
          // A copy points to its original, as a clone does (decision 005): the two can be compared.
          source_survey_id: s.copyOf ? (byTitle.get(s.copyOf) ?? null) : null,
          created_by_user_id: null,
          created_at: now,
          updated_at: now,
          archived_at: s.status === 4 ? now : null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const form = await trx
        .insertInto("patient_forms")
        .values({ survey_id: survey.id })
        .returning("id")
        .executeTakeFirstOrThrow();
      const prelim = new Map<string, number>();
      for (const [i, p] of s.preliminary.entries()) {
        const attr = await trx
          .insertInto("patient_form_attributes")
          .values({ patient_form_id: form.id, survey_id: survey.id, title: p.title, sort: i })
          .returning("id")
          .executeTakeFirstOrThrow();
        for (const [j, text] of p.options.entries()) {
          const o = await trx
            .insertInto("patient_form_answer_options")
            .values({ attribute_id: attr.id, survey_id: survey.id, text, value: null, sort: j })
            .returning("id")
            .executeTakeFirstOrThrow();
          prelim.set(text, o.id);
        }
      }
      for (const [i, c] of s.categories.entries()) {
        const cat = await trx
          .insertInto("categories")
          .values({ survey_id: survey.id, title: c.title, sort: i })
          .returning("id")
          .executeTakeFirstOrThrow();
        for (const [j, q] of c.questions.entries())
          await insertQuestion(trx, survey.id, cat.id, null, q, j, prelim, image);
      }
      if (s.languages) await translateDemo(trx, survey.id, s.languages);
      await audit(
        trx,
        { surveyUserDataId: null, sub: null },
        {
          action: "survey.seed",
          entity: "survey",
          entityId: survey.id,
          surveyId: survey.id,
          after: { Title: s.title },
        },
      );
      return survey.id;
    });
    ids.push(id);
    byTitle.set(s.title, id);
  }
  ids.push(await db.transaction().execute((trx) => seedDemoInstrument(trx)));
  return ids;
}

/** On the embedded default: a database without surveys gets the demo surveys, with demo cases. */
export async function seedDemoDataIfEmpty(db: DB): Promise<boolean> {
  const any = await db.selectFrom("surveys").select("id").limit(1).executeTakeFirst();
  if (any) return false;
  const ids = await seedDemoData(db);
  for (const [i, survey] of demoSurveys().entries()) {
    if (survey.cases)
      await seedDemoCases(db, ids[i], survey.cases.count, survey.cases.seed, demoHints(survey), survey.cases);
  }
  await seedDemoInstrumentCases(db, ids[demoSurveys().length]);
  return true;
}

/** What the demo cases need to answer a survey plausibly, found by question title (unique within a survey). */
export function demoHints(survey: DemoSurvey): DemoHints {
  const ranges = new Map<string, NumberRange>();
  const often = new Map<string, Map<string, number>>();
  const collect = (qs: DemoQuestion[]): void => {
    for (const q of qs) {
      if (q.range) ranges.set(q.title, q.range);
      if (q.options?.some((o) => o.often !== undefined))
        often.set(q.title, new Map(q.options.map((o) => [o.text, o.often ?? 1])));
      for (const o of q.options ?? []) collect(o.sub ?? []);
    }
  };
  for (const c of survey.categories) collect(c.questions);
  return { ranges, often, words: survey.cases?.words };
}
