import type { ContentLanguage } from "~/domain/content-languages";
import type { QuestionType } from "~/domain/question-types";
import type { NumberRange } from "./demo-cases.server";

/** How a demo survey is written down (demo-surveys.server.ts); demo-data.server.ts stores it. */

export interface DemoOption {
  text: string;
  exit?: boolean;
  weight?: number;
  correct?: boolean;
  sub?: DemoQuestion[];
  /** An image question's marker: where it sits, as fractions of the image's width and height. */
  at?: [number, number];
  /** How often demo cases choose it, against the question's other options (default 1). */
  often?: number;
  /** Its score towards the survey's total (docs/decisions/051-instrument-scores.md). */
  score?: number;
}
export interface DemoQuestion {
  title: string;
  type: QuestionType;
  unit?: string;
  /** A help text shown under the question. */
  hint?: string;
  /** A number question's plausible answers for the demo cases. */
  range?: NumberRange;
  test?: boolean;
  attachments?: boolean;
  options?: DemoOption[];
  /** Shown only when this preliminary answer (by text) was chosen. */
  showIf?: string;
  /** Hidden when this preliminary answer (by text) was chosen. */
  hideIf?: string;
  /** An image question: its picture, and whether several markers may be chosen. */
  image?: "body";
  multiple?: boolean;
}
export interface DemoSurvey {
  title: string;
  description: string;
  status: 1 | 2 | 4;
  start: string | null;
  end: string | null;
  target: number;
  intro: string;
  outro: string;
  autoId: boolean;
  preliminary: { title: string; options: string[] }[];
  categories: { title: string; questions: DemoQuestion[] }[];
  /**
   * Closed demo cases on a new installation, and the seed of their answers; with `languages`, each case is
   * filled in the next of them in turn, its free texts of that language's words.
   */
  cases?: {
    count: number;
    seed: number;
    words?: string[];
    languages?: ContentLanguage[];
    wordsByLanguage?: Partial<Record<ContentLanguage, string[]>>;
  };
  /**
   * The languages it is offered in besides German, its source, and the translation of each of its texts, by
   * the German text (docs/decisions/056-statistics-languages.md).
   */
  languages?: { offered: ContentLanguage[]; translations: Record<string, Partial<Record<ContentLanguage, string>>> };
  /** A copy of the demo survey of this title, so that the two can be compared (benchmarking). */
  copyOf?: string;
  /** The title of the total of its answers' scores, when it has one. */
  scoreTitle?: string;
}

/** This year plus offset. */
export function year(offset: number) {
  return new Date().getUTCFullYear() + offset;
}
