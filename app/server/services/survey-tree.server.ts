import { isoToWireDate } from "~/domain/dates";
import { codesOf, instrumentOf } from "~/domain/instrument";
import { questionTypeName } from "~/domain/question-types";
import type { AnswerOption, Category, PatientFormAttribute, Question, Survey } from "~/domain/survey";
import type { Executor, Row } from "~/server/db/types.server";
import type { SurveyRights, SurveyTeams } from "~/domain/permissions";
import { statusOf, teamsOfSurveys } from "./survey-access.server";
import { languagesOf, sourceLanguageOf, translationsOf } from "./translations/stored.server";

/** An answer option in the wire shape: an image question's markers have a Title, other answers a Text. */
function toAnswerOption(r: Row<"answer_options">, image: boolean, sub: Question[]): AnswerOption {
  const fields = {
    Id: r.id,
    QuestionId: r.question_id,
    SurveyId: r.survey_id,
    Value: r.value,
    IsExitAnswer: r.is_exit_answer === 1,
    Weight: r.weight,
    WeightingState: r.weighting_state,
    Sort: r.sort,
    X: r.pos_x,
    Y: r.pos_y,
    Score: r.score,
    System: r.system,
    SubQuestions: sub,
  };
  return image ? { ...fields, Title: r.text } : { ...fields, Text: r.text };
}

/**
 * The whole structure of a survey (section 3): categories, questions with answer options and their
 * sub-questions to any depth, dependence rules, the patient form, tags and team permissions.
 */
export async function loadSurveyTree(db: Executor, surveyId: number, rights: SurveyRights): Promise<Survey | null> {
  const survey = await db.selectFrom("surveys").selectAll().where("id", "=", surveyId).executeTakeFirst();
  if (!survey) return null;
  const [categories, questions, options, dependence, form, attributes, attributeOptions, tags, teams, translations] =
    await Promise.all([
      db.selectFrom("categories").selectAll().where("survey_id", "=", surveyId).orderBy("sort").orderBy("id").execute(),
      db.selectFrom("questions").selectAll().where("survey_id", "=", surveyId).orderBy("sort").orderBy("id").execute(),
      db
        .selectFrom("answer_options")
        .selectAll()
        .where("survey_id", "=", surveyId)
        .orderBy("sort")
        .orderBy("id")
        .execute(),
      db
        .selectFrom("question_dependence_options")
        .innerJoin("questions", "questions.id", "question_dependence_options.question_id")
        .select([
          "question_dependence_options.question_id",
          "question_dependence_options.patient_form_answer_option_id",
        ])
        .where("questions.survey_id", "=", surveyId)
        .orderBy("question_dependence_options.patient_form_answer_option_id")
        .execute(),
      db.selectFrom("patient_forms").select("id").where("survey_id", "=", surveyId).executeTakeFirst(),
      db
        .selectFrom("patient_form_attributes")
        .selectAll()
        .where("survey_id", "=", surveyId)
        .orderBy("sort")
        .orderBy("id")
        .execute(),
      db
        .selectFrom("patient_form_answer_options")
        .selectAll()
        .where("survey_id", "=", surveyId)
        .orderBy("sort")
        .orderBy("id")
        .execute(),
      db.selectFrom("survey_tags").select("tag_id").where("survey_id", "=", surveyId).orderBy("tag_id").execute(),
      teamsOfSurveys(db, [surveyId]),
      translationsOf(db, surveyId, languagesOf(survey.languages)),
    ]);

  const dependenceOf = new Map<number, number[]>();
  for (const d of dependence) {
    const list = dependenceOf.get(d.question_id) ?? [];
    list.push(d.patient_form_answer_option_id);
    dependenceOf.set(d.question_id, list);
  }
  const optionsOf = new Map<number, Row<"answer_options">[]>();
  for (const o of options) {
    const list = optionsOf.get(o.question_id) ?? [];
    list.push(o);
    optionsOf.set(o.question_id, list);
  }
  const subQuestionsOf = new Map<number, Row<"questions">[]>();
  for (const q of questions) {
    if (q.parent_answer_option_id === null) continue;
    const list = subQuestionsOf.get(q.parent_answer_option_id) ?? [];
    list.push(q);
    subQuestionsOf.set(q.parent_answer_option_id, list);
  }

  const build = (q: Row<"questions">, depth: number): Question => ({
    Id: q.id,
    CategoryId: q.category_id,
    SurveyId: q.survey_id,
    ParentAnswerOptionId: q.parent_answer_option_id,
    Title: q.title,
    Type: questionTypeName(q.type),
    Sort: q.sort,
    AllowFileAttachments: q.allow_file_attachments === 1,
    AllowMultipleAnswers: q.allow_multiple_answers === 1,
    Unit: q.unit,
    IsTestQuestion: q.is_test_question === 1,
    ImageSrc: q.image_src,
    Dependence:
      q.dependence_type && (dependenceOf.get(q.id)?.length ?? 0) > 0
        ? { Type: q.dependence_type, PreliminaryAnswerOptions: dependenceOf.get(q.id)! }
        : null,
    Hint: q.hint,
    Codes: codesOf(q.codes),
    AnswerOptions: (optionsOf.get(q.id) ?? []).map((o) =>
      // A cycle cannot be stored, but a depth limit keeps a damaged tree from recursing forever.
      toAnswerOption(
        o,
        questionTypeName(q.type) === "Image",
        depth > 20 ? [] : (subQuestionsOf.get(o.id) ?? []).map((s) => build(s, depth + 1)),
      ),
    ),
  });

  const cats: Category[] = categories.map((c) => ({
    Id: c.id,
    SurveyId: c.survey_id,
    Title: c.title,
    Sort: c.sort,
    Codes: codesOf(c.codes),
    Questions: questions
      .filter((q) => q.category_id === c.id && q.parent_answer_option_id === null)
      .map((q) => build(q, 0)),
  }));

  const patientForm: PatientFormAttribute[] = attributes.map((a) => ({
    Id: a.id,
    PatientFormId: a.patient_form_id,
    SurveyId: a.survey_id,
    Title: a.title,
    Enabled: a.enabled === 1,
    PreSelected: a.pre_selected === 1,
    Sort: a.sort,
    AnswerOptions: attributeOptions
      .filter((o) => o.attribute_id === a.id)
      .map((o) => ({ Id: o.id, Text: o.text, Value: o.value, IsExitAnswer: o.is_exit_answer === 1, Sort: o.sort })),
  }));

  return {
    ...surveyHead(
      survey,
      tags.map((r) => r.tag_id),
      teams.get(surveyId)!,
      rights,
    ),
    Categories: cats,
    PatientFormId: form?.id ?? null,
    PatientForm: patientForm,
    Translations: translations,
  };
}

/**
 * A survey's own fields, its tags, teams and the caller's rights: all of the survey but its content
 * (categories with their questions, the patient form, the translations), which only a content edit changes.
 */
export function surveyHead(
  survey: Row<"surveys">,
  tagIds: number[],
  t: SurveyTeams,
  rights: SurveyRights,
): Omit<Survey, "Categories" | "PatientFormId" | "PatientForm" | "Translations"> {
  return {
    Id: survey.id,
    Title: survey.title,
    Description: survey.description,
    Status: statusOf(survey),
    StartDate: isoToWireDate(survey.start_date),
    EndDate: isoToWireDate(survey.end_date),
    IntroText: survey.intro_text,
    OutroText: survey.outro_text,
    TargetNumberOfResponses: survey.target_responses,
    IsPatientIdAutoGenerationEnabled: survey.patient_id_auto_generation === 1,
    RequiresSignature: survey.requires_signature === 1,
    PatientSubmitReview: survey.patient_submit_review === 1,
    PreliminaryByPatient: survey.preliminary_by_patient === 1,
    RetentionMonths: survey.retention_months ?? 0,
    ScoreTitle: survey.score_title,
    Instrument: instrumentOf(survey.instrument),
    SourceLanguage: sourceLanguageOf(survey.source_language),
    Languages: languagesOf(survey.languages),
    IsPatientFormEnabled: survey.patient_form_enabled === 1,
    TagIds: tagIds,
    UserTeamPermissions: [...t.userTeamIds],
    EditorTeamPermissions: [...t.editorTeamIds],
    ApproverTeamPermissions: [...t.approverTeamIds],
    TeamPermissions: [...new Set([...t.userTeamIds, ...t.editorTeamIds, ...t.approverTeamIds])].sort((a, b) => a - b),
    Hash: survey.hash,
    Rights: rights,
    SourceSurveyId: survey.source_survey_id,
  };
}

/** How many questions (top-level and sub-questions) a survey has. */
export async function countQuestions(db: Executor, surveyId: number): Promise<number> {
  const row = await db
    .selectFrom("questions")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("survey_id", "=", surveyId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
