import type { Coding, Instrument } from "~/domain/instrument";
import type { QuestionType } from "~/domain/question-types";
import type { ContentLanguage } from "~/domain/content-languages";
import type { PlanOptionOf } from "./import-parts.server";
import type { LanguageTexts } from "./translations.server";

/** The plan of a Draft survey an imported Questionnaire makes (import-plan.server.ts): its questions, its parts. */

export type PlanOption = PlanOptionOf<PlanQuestion>;

export interface PlanQuestion {
  linkId: string;
  title: string;
  type: QuestionType;
  multiple: boolean;
  unit: string | null;
  files: boolean;
  image: string | null;
  options: PlanOption[];
  rule: { type: "SHOW" | "HIDE"; refs: { linkId: string; code: string }[] } | null;
  /** A scored (test) question: the product's own extension, else whether an answer is weighted. */
  test: boolean | null;
  /** The help texts under the item, one paragraph each. */
  hint: string | null;
  codes: Coding[];
  /** The translations of its title, hint and unit (docs/decisions/056-statistics-languages.md). */
  titleTexts: LanguageTexts;
  hintTexts: LanguageTexts;
  unitTexts: LanguageTexts;
}

export interface ImportPlan {
  title: string;
  description: string;
  intro: string[];
  prelims: {
    linkId: string;
    title: string;
    titleTexts: LanguageTexts;
    options: { code: string; text: string; exit: boolean; texts: LanguageTexts }[];
  }[];
  categories: { title: string; titleTexts: LanguageTexts; codes: Coding[]; questions: PlanQuestion[] }[];
  /** The total score the Questionnaire calculates from its answers' scores: the survey computes it. */
  scoreTitle: string | null;
  instrument: Instrument | null;
  notKept: string[];
  /**
   * The languages (docs/decisions/056-statistics-languages.md): the Questionnaire's own, the translations it
   * carries of each text (HL7's translation extension), by content language once the plan is made.
   */
  sourceLanguage: ContentLanguage;
  languages: ContentLanguage[];
  titleTexts: LanguageTexts;
  descriptionTexts: LanguageTexts;
  /** Per paragraph of `intro`. */
  introTexts: LanguageTexts[];
  scoreTitleTexts: LanguageTexts;
}
