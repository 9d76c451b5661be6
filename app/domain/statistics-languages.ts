/**
 * The statistics in a survey's content languages (docs/decisions/056-statistics-languages.md): which language
 * the labels are shown in, and the labels of figures computed by ids put into that language. The figures
 * themselves never change with the language: only the texts beside them do.
 */
import { asContentLanguage, translateSurvey, type ContentLanguage } from "./content-languages";
import type { Survey } from "./survey";
import { answerText } from "./answer-text";
import { surveyQuestions } from "./visibility";

/** The languages a survey's statistics can be read in: its source language first, then those it offers. */
export function statisticsLanguages(survey: Pick<Survey, "SourceLanguage" | "Languages">): ContentLanguage[] {
  return [survey.SourceLanguage, ...survey.Languages.filter((l) => l !== survey.SourceLanguage)];
}

/**
 * The language the labels are shown in: the one asked for when the survey has it; else the interface's
 * language (de-DE → de) when the survey has it; else the survey's source language.
 */
export function chosenLanguage(
  survey: Pick<Survey, "SourceLanguage" | "Languages">,
  asked: string | null | undefined,
  interfaceLocale: string | null | undefined,
): ContentLanguage {
  const offered = statisticsLanguages(survey);
  const pick = (value: string | null | undefined) => {
    const lang = asContentLanguage(value?.split("-")[0]?.toLowerCase());
    return lang && offered.includes(lang) ? lang : null;
  };
  return pick(asked) ?? pick(interfaceLocale) ?? survey.SourceLanguage;
}

/** The texts of a translated survey by the ids of the things they name. */
export interface LabelsOf {
  title: string;
  scoreTitle: string | null;
  categories: Map<number, string>;
  questions: Map<number, { title: string; unit: string | null }>;
  answers: Map<number, string>;
  attributes: Map<number, string>;
  entries: Map<number, string>;
}

/** The survey's labels in a language (the survey as it is in its source language or one it does not offer). */
export function labelsOf(survey: Survey, lang: string): LabelsOf {
  const s = translateSurvey(survey, lang);
  const questions = surveyQuestions(s);
  return {
    title: s.Title,
    scoreTitle: s.ScoreTitle,
    categories: new Map(s.Categories.map((c) => [c.Id, c.Title])),
    questions: new Map(questions.map((q) => [q.Id, { title: q.Title, unit: q.Unit }])),
    answers: new Map(questions.flatMap((q) => q.AnswerOptions.map((o) => [o.Id, answerText(o)] as const))),
    attributes: new Map(s.PatientForm.map((a) => [a.Id, a.Title])),
    entries: new Map(s.PatientForm.flatMap((a) => a.AnswerOptions.map((o) => [o.Id, o.Text] as const))),
  };
}

interface LabelledAnswer {
  AnswerOptionId: number;
  AnswerOptionText: string;
  SubQuestionStatistics: LabelledQuestion[];
}
interface LabelledQuestion {
  QuestionId: number;
  QuestionTitle: string;
  Unit: string | null;
  AnswerStatistics: LabelledAnswer[];
}
interface LabelledBody {
  Title: string;
  CategoryStatistics: { CategoryId: number; CategoryText: string; QuestionStatistics: LabelledQuestion[] }[];
  ScoreTotal: { Title: string } | null;
}

/** Figures with their labels in the language of `labels`, in place; an id it does not know keeps its text. */
export function labelFigures<T extends LabelledBody>(body: T, labels: LabelsOf): T {
  const question = (q: LabelledQuestion) => {
    const own = labels.questions.get(q.QuestionId);
    if (own) {
      q.QuestionTitle = own.title;
      q.Unit = own.unit;
    }
    for (const a of q.AnswerStatistics) {
      a.AnswerOptionText = labels.answers.get(a.AnswerOptionId) ?? a.AnswerOptionText;
      a.SubQuestionStatistics.forEach(question);
    }
  };
  body.Title = labels.title;
  for (const c of body.CategoryStatistics) {
    c.CategoryText = labels.categories.get(c.CategoryId) ?? c.CategoryText;
    c.QuestionStatistics.forEach(question);
  }
  if (body.ScoreTotal && labels.scoreTitle) body.ScoreTotal.Title = labels.scoreTitle;
  return body;
}
